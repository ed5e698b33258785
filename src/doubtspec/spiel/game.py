"""The engine as an OpenSpiel game: `doubt_is_our_product`, registered with pyspiel on import.

    import pyspiel, doubtspec.spiel.game
    game = pyspiel.load_game("doubt_is_our_product(cards=my-cards.toml,rulings=draw-order:draw-first)")

Parameters: `cards`, a card file (empty: the shipped set); `rulings`, non-default choices as
`ID:CHOICE` joined by `;` (OpenSpiel's game strings reserve `=` and `,`); `max_rounds`, after which
an unfinished game ends as a draw (OpenSpiel games must end; whole games last far fewer rounds).

Player 0 is the Company, player 1 the Movement. Chance is explicit and stochastic: the engine's
chance nodes and their exact probabilities (`chance_outcomes`). Actions are the fixed integer space
of `doubtspec.spiel.actions`; observations and information states are the views of
`doubtspec.spiel.views` (an information state is the viewer's memory of every action, as the
viewer saw it, followed by its current observation). Returns: +1 to the winner and -1 to the loser,
0 each for a game cut off at `max_rounds`.

A state holds one immutable engine state, so cloning shares it; serialization replays the actions
from Set-Up through the engine's checked `play`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from doubtspec.model.actions import Action, parse_action
from doubtspec.model.cards import load_cards
from doubtspec.model.engine import apply, chance_outcomes, current_actor, legal_actions, new_game, play
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings
from doubtspec.model.state import Actor, GameState, Side
from doubtspec.spiel.actions import ActionSpace
from doubtspec.spiel.views import observation_text, seen_action

GAME_NAME = "doubt_is_our_product"
DEFAULT_MAX_ROUNDS = 300
PLAYER_OF: dict[Actor, int] = {
    Actor.COMPANY: 0,
    Actor.MOVEMENT: 1,
    Actor.CHANCE: int(pyspiel.PlayerId.CHANCE),
    Actor.TERMINAL: int(pyspiel.PlayerId.TERMINAL),
}
SIDE_OF_PLAYER: tuple[Side, Side] = (Side.COMPANY, Side.MOVEMENT)
_STEPS_PER_ROUND = 2_000
"""Engine steps per round the game length bound allows (as `doubtspec.agents.simulate`)."""


def rulings_parameter(rulings: Rulings) -> str:
    """The `rulings` game parameter for `rulings`: `ID:CHOICE` joined by `;`."""
    return ";".join(f"{rid}:{choice}" for rid, choice in rulings.choices)


def parse_rulings_parameter(text: str) -> Rulings:
    specs = [part.replace(":", "=", 1) for part in text.split(";") if part.strip()]
    return Rulings.parse(specs)


@lru_cache(maxsize=16)
def engine_game(cards: str, rulings: str) -> Game:
    """The engine's game for the parameters (cached: card files are read once per process)."""
    return Game(load_cards(cards or None), parse_rulings_parameter(rulings))


@lru_cache(maxsize=16)
def action_space(cards: str, rulings: str) -> ActionSpace:
    return ActionSpace(engine_game(cards, rulings))


def _game_type() -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Doubt Is Our Product (doubtspec reference engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        provides_factored_observation_string=False,
        parameter_specification={"cards": "", "rulings": "", "max_rounds": DEFAULT_MAX_ROUNDS},
    )


class Position:
    """What a pyspiel state holds: the engine state, the actions since Set-Up and both views of them.

    Immutable, so clones share it (`__deepcopy__` returns it); pickled as its actions, which
    unpickling replays through the engine.
    """

    __slots__ = ("_ids", "engine", "key", "seen", "space", "trace")

    def __init__(self, key: tuple[str, str, int], space: ActionSpace, engine: GameState,
                 trace: tuple[Action, ...] | None, seen: tuple[tuple[str, str], ...]) -> None:
        self.key = key
        self.space = space
        self.engine = engine
        self.trace = trace
        """The actions from Set-Up, or None for a position built from a bare engine state."""
        self.seen = seen
        """Per action, how the Company and the Movement saw it."""
        self._ids: dict[int, Action] | None = None

    def legal(self) -> dict[int, Action]:
        """The legal actions by id (computed once per position)."""
        if self._ids is None:
            state, space = self.engine, self.space
            self._ids = {space.encode(state, a): a for a in legal_actions(state)}
        return self._ids

    def then(self, action: Action) -> Position:
        before = self.engine
        seen = (seen_action(before, action, Side.COMPANY), seen_action(before, action, Side.MOVEMENT))
        trace = None if self.trace is None else (*self.trace, action)
        return Position(self.key, self.space, apply(before, action), trace, (*self.seen, seen))

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        if self.trace is None:
            raise TypeError("a position built from a bare engine state has no actions to replay")
        return (replay_position, (self.key, tuple(str(a) for a in self.trace)))


def replay_position(key: tuple[str, str, int], actions: tuple[str, ...]) -> Position:
    """The position after `actions` (text forms) from Set-Up, each checked by the engine's `play`."""
    cards, rulings, _ = key
    game = engine_game(cards, rulings)
    position = Position(key, action_space(cards, rulings), new_game(game), (), ())
    for text in actions:
        action = parse_action(text)
        play(position.engine, action)  # raises IllegalActionError on a trace that does not replay
        position = position.then(action)
    return position


class DoubtGame(pyspiel.Game):  # type: ignore[misc]
    """The pyspiel game: one card file, rulings and round cap."""

    def __init__(self, params: dict[str, Any] | None = None, engine: Game | None = None) -> None:
        """The game for `params`; `engine`, when given, is the engine game they describe (already loaded)."""
        params = dict(params or {})
        cards = str(params.get("cards", ""))
        rulings = str(params.get("rulings", ""))
        max_rounds = int(params.get("max_rounds", DEFAULT_MAX_ROUNDS))
        self.engine_game = engine if engine is not None else engine_game(cards, rulings)
        self.key = (cards, rulings, max_rounds)
        self.max_rounds = max_rounds
        self.space = ActionSpace(self.engine_game)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.num_distinct_actions,
            max_chance_outcomes=self.space.max_chance_outcomes,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_STEPS_PER_ROUND * (max_rounds + 1),
        )
        super().__init__(_game_type(), info, {"cards": cards, "rulings": rulings, "max_rounds": max_rounds})

    def new_initial_state(self) -> DoubtState:
        return DoubtState(self, Position(self.key, self.space, new_game(self.engine_game), (), ()))

    def state_at(self, engine: GameState) -> DoubtState:
        """A pyspiel state for any engine state of this game (with no history: for search)."""
        return DoubtState(self, Position(self.key, self.space, engine, None, ()))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DoubtObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return DoubtObserver(perfect_recall, params)


class DoubtState(pyspiel.State):  # type: ignore[misc]
    """One pyspiel state; every rule question is answered by the engine."""

    def __init__(self, game: DoubtGame, position: Position) -> None:
        super().__init__(game)
        self.position = position
        self.max_rounds = game.max_rounds

    @property
    def engine(self) -> GameState:
        return self.position.engine

    def _cut_off(self) -> bool:
        state = self.position.engine
        return state.outcome is None and state.round > self.max_rounds

    def current_player(self) -> int:
        if self._cut_off():
            return int(pyspiel.PlayerId.TERMINAL)
        return PLAYER_OF[current_actor(self.position.engine)]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.position.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted((outcome.outcome, float(p)) for outcome, p in chance_outcomes(self.position.engine))

    def _apply_action(self, action: int) -> None:
        chosen = self.position.legal().get(action)
        if chosen is None:
            raise ValueError(f"action id {action} is not legal in {self.position.engine.summary()}")
        self.position = self.position.then(chosen)

    def with_engine(self, engine: GameState) -> DoubtState:
        """The same history as the players saw it over another engine state (a determinization of this one)."""
        position = self.position
        return DoubtState(self.get_game(), Position(position.key, position.space, engine, None, position.seen))

    def decode(self, action: int) -> Action:
        """The engine action that a legal id names here."""
        return self.position.legal()[action]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(self.position.space.decode_chance(action))
        known = self.position.legal().get(action)
        return str(known if known is not None else self.position.space.decode(self.position.engine, action))

    def is_terminal(self) -> bool:
        return self.position.engine.outcome is not None or self._cut_off()

    def returns(self) -> list[float]:
        outcome = self.position.engine.outcome
        if outcome is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner is Side.COMPANY else [-1.0, 1.0]

    def __str__(self) -> str:
        return self.position.engine.summary()


class DoubtObserver:
    """Observations (the current view) and information states (the view with its memory) as strings.

    No tensors: the game provides strings only, so `tensor` is empty.
    """

    def __init__(self, perfect_recall: bool, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: DoubtState, player: int) -> None:
        pass

    def string_from(self, state: DoubtState, player: int) -> str:
        side = SIDE_OF_PLAYER[player]
        now = observation_text(state.position.engine, side)
        if not self.perfect_recall:
            return now
        memory = " | ".join(pair[player] for pair in state.position.seen)
        return f"{now}\nhistory={memory}"


pyspiel.register_game(_game_type(), DoubtGame)
