"""The Company's abstraction bounds the Movement's Victim removals per round (`abstraction/messaging.py`).

The bound rests on facts about the Movement's Messaging (tokens held, face-up icons, Tableau size, the Set-Up
Doubt paid first), each derived from the card file. A bound that a game could break would make the Company's
proofs false, so it is checked against the engine the way the abstraction's rounds are: every Messaging choice
the engine offers (not only the ones taken) in simulated games of every agent pairing (the searching agents'
too), in games played by a
Movement that seeks Messaging, in explored first Movement turns, on the shipped set, the large file and the tiny
files, and in games found by a search for the most Messaging per round (`tests/data/messaging/`), stays within the
round's bound; and the facts behind it hold at every Movement turn.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from admission import Admission, at_rest_starts
from doubtspec.agents.base import Matchup, make_agent
from doubtspec.model.actions import Action, ChooseStart, Message, MovementBuy, MovementPlay, Pass
from doubtspec.model.cards import BonusKind, MarketAction, Zone, load_cards
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game, play
from doubtspec.model.game import Game
from doubtspec.model.movement import face_up_icons
from doubtspec.model.state import Actor, GameState, Phase, Side
from doubtspec.model.steps import ChooseStartingCard, Messaging
from doubtspec.reports.trace import check_cards, load_trace
from doubtspec.solver.abstraction.company import STAR, CompanyAbstraction
from doubtspec.solver.abstraction.messaging import ZONES, MessagingBounds
from doubtspec.solver.abstraction.messaging_caps import candidates, prove_caps
from doubtspec.solver.abstraction.system import Fresh
from doubtspec.solver.verdict import Budget
from lazy_values import LazyTable
from searching_games import ROUNDS, played, searching_games

DATA = Path(__file__).parent / "data"
FILES = {"shipped": None, "tiny": DATA / "tiny.toml", "tiny3": DATA / "tiny3.toml",
         "tiny_movement": DATA / "tiny_movement.toml", "large": DATA / "large.toml"}
GAMES = {name: Game(load_cards(path)) for name, path in FILES.items()}
DERIVED = {name: MessagingBounds.of(game) for name, game in GAMES.items()}
CAPS = LazyTable(GAMES, lambda name: prove_caps(GAMES[name], DERIVED[name], 5, Budget.of(120)))
BOUNDS = LazyTable(GAMES, lambda name: DERIVED[name].with_action_caps(CAPS[name]))
"""The bounds with the caps proved on the Movement's abstraction (`messaging_caps`): every engine check below is
made against these, the tighter figures."""
AGENTS = ("random", "careful", "greedy")


class Watch:
    """Follows one game state by state and checks every offered Messaging choice and the facts behind the bound."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.game = GAMES[name]
        self.bounds = BOUNDS[name]
        self.round = 0
        self.removed = [0, 0, 0, 0]
        self.offers = 0
        self.removals = 0
        self.turns = 0
        self.spend: dict[int, int] = {}
        """Per round: the most Messaging (icons left and tokens) a Messaging action had."""
        self.emptied: dict[int, set[Zone]] = {}
        """Per round: the Zones Victims were removed from."""

    def _facts(self, state: GameState) -> None:
        t = state.round
        b = self.bounds
        if t < 1 or t > len(b.action):
            return
        self.turns += 1
        shown = face_up_icons(self.game, state.tableau).messaging
        assert state.messaging <= b.tokens[t - 1], f"{self.name} round {t}: {state.messaging} Messaging tokens held"
        assert shown <= b.icons[t - 1], f"{self.name} round {t}: {shown} face-up Messaging icons"
        assert len(state.tableau) <= b.tableau[t - 1], f"{self.name} round {t}: {len(state.tableau)} Tableau cards"

    def see(self, state: GameState) -> None:
        if state.round != self.round:
            self.round = state.round
            self.removed = [0, 0, 0, 0]
        if state.phase is Phase.MOVEMENT_TURN and not state.pending:
            self._facts(state)
        if state.pending and isinstance(state.pending[0], Messaging):
            self._facts(state)
            t = state.round
            have = state.pending[0].icons + state.messaging
            if 1 <= t <= len(self.bounds.action):
                assert have <= self.bounds.action[t - 1], f"{self.name} round {t}: a Messaging action with {have}"
            self.spend[t] = max(self.spend.get(t, 0), have)
            for action in legal_actions(state):
                if isinstance(action, Message):
                    self.offers += 1
                    removed = list(self.removed)
                    removed[action.zone] += action.victims
                    assert self.bounds.admits(state.round, removed), (
                        f"{self.name} round {state.round}: {action} (after {self.removed} this round) is offered "
                        f"beyond the bound")

    def took(self, state: GameState, action: Action) -> None:
        if isinstance(action, Message) and state.pending and isinstance(state.pending[0], Messaging):
            self.removed[action.zone] += action.victims
            self.removals += action.victims
            if action.victims:
                self.emptied.setdefault(state.round, set()).add(action.zone)


def _watch_game(name: str, seed: int, matchup: Matchup, max_rounds: int) -> Watch:
    watch = Watch(name)
    first = True
    for move in played(GAMES[name], seed, matchup, max_rounds):
        if first:
            watch.see(move.before)
            first = False
        watch.took(move.before, move.action)
        watch.see(move.after)
    return watch


def _seeking(name: str, seed: int, max_rounds: int) -> Watch:
    """A game whose Movement seeks Messaging: it buys a Messaging space whenever it can (else plays the card
    with the most Messaging icons and Bonuses, else acts at random) and removes as many Victims as offered;
    the Company is the greedy or the careful agent, chance is random."""
    game = GAMES[name]
    rng = random.Random(seed)
    company = make_agent("careful" if seed % 2 else "greedy", game, Side.COMPANY, random.Random(seed + 1))
    watch = Watch(name)
    state = new_game(game)
    messaging_spaces = {i for i, s in enumerate(game.cards.market) if s.action is MarketAction.MESSAGING}

    def worth(state: GameState, action: Action) -> int:
        if isinstance(action, Message):
            return 1000 + action.victims * 10 + action.doubts
        if isinstance(action, ChooseStart):
            return game.movement_card(action.card).icons.messaging
        if isinstance(action, MovementBuy):
            if action.space in messaging_spaces:
                kept = tuple((card, up and i not in action.flip) for i, (card, up) in enumerate(state.tableau))
                return 100 if state.messaging + face_up_icons(game, kept).messaging >= 2 else 0
            return 30 if not state.m_hand else 0
        if isinstance(action, MovementPlay):
            card = game.movement_card(action.card)
            gives = 10 * card.icons.messaging + 5 * (card.left + card.right).count(BonusKind.MESSAGING)
            return 60 + gives - 20 * len(action.flip)
        if isinstance(action, Pass):
            return 40 if state.influence < 2 else 0
        return 0

    watch.see(state)
    while state.outcome is None and state.round <= max_rounds:
        actions = legal_actions(state)
        if not actions:
            break
        actor = current_actor(state)
        if actor is Actor.MOVEMENT and rng.random() < 0.95:
            best = max(worth(state, a) for a in actions)
            action = rng.choice([a for a in actions if worth(state, a) == best])
        elif actor is Actor.COMPANY:
            action = company.choose(state, actions)
        else:
            action = rng.choice(actions)
        watch.took(state, action)
        state = apply(state, action)
        watch.see(state)
    return watch


@pytest.mark.parametrize(("company", "movement"), list(itertools.product(AGENTS, AGENTS)))
def test_messaging_offered_in_simulated_games_is_within_the_bound(company: str, movement: str) -> None:
    for i, name in enumerate(FILES):
        for seed in range(2):
            # `Watch` fails on an offer beyond the bound; here every game must also have been watched on its turns.
            assert _watch_game(name, 100 * i + seed, Matchup(company, movement), 10).turns > 0


@pytest.mark.parametrize(("name", "seed", "matchup"), searching_games(FILES))
def test_messaging_offered_in_a_searching_agents_game_is_within_the_bound(name: str, seed: int,
                                                                          matchup: Matchup) -> None:
    """A searching Movement (`searching_games`) Messages when its search finds it pays."""
    assert _watch_game(name, seed, matchup, ROUNDS).turns > 0


@pytest.mark.parametrize("name", ["shipped", "large"])
def test_a_movement_seeking_messaging_stays_within_the_bound(name: str) -> None:
    watches = [_seeking(name, seed, 10) for seed in range(12)]
    # Messaging is offered in these games (the Movement's Influence makes it rare in every game).
    assert sum(w.offers for w in watches) > 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(FILES)), seed=st.integers(0, 2**32), company=st.sampled_from(AGENTS),
       movement=st.sampled_from(AGENTS), seeking=st.booleans())
def test_generated_games_stay_within_the_bound(name: str, seed: int, company: str, movement: str,
                                               seeking: bool) -> None:
    _generated_game(name, seed, company, movement, seeking, 10)


def _generated_game(name: str, seed: int, company: str, movement: str, seeking: bool, rounds: int) -> None:
    """One game of the generated tests, watched for `rounds` rounds (two fewer for a Messaging-seeking one)."""
    watch = _seeking(name, seed, rounds - 2) if seeking else _watch_game(name, seed, Matchup(company, movement), rounds)
    assert watch.turns > 0


def _setups(game: Game, seeds: Iterable[int]) -> Iterator[GameState]:
    """Random Set-Ups (chance at random), one per starting card each, stopped at the first Movement turn."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(game)
        while state.pending and isinstance(state.pending[0], ChooseStartingCard) is False:
            state = apply(state, rng.choice(legal_actions(state)))
        for start in legal_actions(state):
            assert isinstance(start, ChooseStart)
            branch = apply(state, start)
            while branch.outcome is None and not (branch.phase is Phase.MOVEMENT_TURN and not branch.pending):
                branch = apply(branch, rng.choice(legal_actions(branch)))
            if branch.outcome is None:
                yield branch


def _explore_movement_turn(name: str, root: GameState, cap: int) -> tuple[int, list[GameState], int]:
    """Every Movement choice and chance outcome of the Movement's turn from `root` (states seen once), each
    Messaging choice checked; returns the states seen, those where the Company's turn begins, and the Messaging
    choices offered."""
    watch = Watch(name)
    watch.round = root.round
    seen: set[GameState] = {root}
    stack: list[tuple[GameState, tuple[int, ...]]] = [(root, (0, 0, 0, 0))]
    ends: list[GameState] = []
    while stack and len(seen) < cap:
        state, removed = stack.pop()
        if state.outcome is not None:
            continue
        if current_actor(state) is Actor.COMPANY or state.round != root.round:
            ends.append(state)
            continue
        watch.removed = list(removed)
        watch.see(state)
        for action in legal_actions(state):
            after = apply(state, action)
            if after in seen:
                continue
            seen.add(after)
            moved = list(removed)
            if isinstance(action, Message):
                moved[action.zone] += action.victims
            stack.append((after, tuple(moved)))
    return len(seen), ends, watch.offers


def _company_turn(state: GameState, rng: random.Random) -> GameState:
    """The Company's turn (and chance) played at random, up to the Movement's next turn."""
    start = state.round
    while state.outcome is None and not (state.phase is Phase.MOVEMENT_TURN and not state.pending
                                         and state.round > start):
        state = apply(state, rng.choice(legal_actions(state)))
    return state


@pytest.mark.parametrize("name", ["shipped", "large", "tiny"])
def test_every_first_movement_turn_stays_within_the_bound(name: str) -> None:
    """Round 1 allows no removal on the shipped and large files; every choice of the first turn is explored."""
    game = GAMES[name]
    states = offers = 0
    for root in _setups(game, range(8)):
        seen, _, offered = _explore_movement_turn(name, root, 20_000)
        states += seen
        offers += offered
    assert states > 0
    if name != "tiny":
        assert offers > 0  # the starting card's icon pays a Doubt: offered, and within the bound


def test_the_first_two_movement_turns_stay_within_the_bound() -> None:
    """The first two Movement turns, every Movement choice explored (the Company's turn between them at random)."""
    rng = random.Random(7)
    states = 0
    for root in _setups(GAMES["shipped"], range(2)):
        seen, ends, _ = _explore_movement_turn("shipped", root, 4_000)
        states += seen
        for end in rng.sample(ends, min(3, len(ends))):
            second = _company_turn(end, rng)
            if second.outcome is None:
                more, _, _ = _explore_movement_turn("shipped", second, 4_000)
                states += more
    assert states > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["shipped", "large"])
def test_many_first_movement_turns_stay_within_the_bound(name: str) -> None:
    states = offers = 0
    for root in _setups(GAMES[name], range(1000)):
        seen, _, offered = _explore_movement_turn(name, root, 50_000)
        states += seen
        offers += offered
    assert states > 1000
    assert offers > 0


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(FILES)), seed=st.integers(0, 2**32), company=st.sampled_from(AGENTS),
       movement=st.sampled_from(AGENTS), seeking=st.booleans())
def test_many_generated_games_stay_within_the_bound(name: str, seed: int, company: str, movement: str,
                                                    seeking: bool) -> None:
    _generated_game(name, seed, company, movement, seeking, 14)


# --- the bound's figures and its encoding ---


def test_the_bound_is_derived_from_the_card_file() -> None:
    shipped = BOUNDS["shipped"]
    # Movement Set-Up: no Messaging token, one starting card (at most one Messaging icon on the shipped set):
    # round 1 removes nothing, for every Zone's Doubt costs at least 1 first.
    assert shipped.tokens[0] == 0
    assert shipped.action[0] <= 1
    assert not shipped.admits(1, [1, 0, 0, 0])
    # Middle Age's Set-Up Doubt costs 3, so its first Victim needs 4 Messaging over the turns so far.
    assert shipped.doubt[2] == 3
    assert not shipped.admits(2, [0, 0, 1, 0])
    # Tiny files have no Messaging space in the Market: no round removes a Victim.
    assert BOUNDS["tiny"].every_action == 0
    assert not BOUNDS["tiny"].admits(40, [0, 1, 0, 0])
    assert BOUNDS["tiny"].admits(40, [0, 0, 0, 0])
    # The figures never fall from one round to the next (more turns, more Messaging).
    for b in BOUNDS.values():
        assert all(x <= y for x, y in itertools.pairwise(b.total))


@pytest.mark.parametrize("name", sorted(FILES))
def test_the_encoding_agrees_with_admits(name: str) -> None:
    """The z3 constraint the abstraction asserts and `admits` (what the engine checks use) say the same."""
    bounds = BOUNDS[name]
    removed = [z3.Int(f"removed_{z.key}") for z in ZONES]
    turn = z3.Int("turn")
    solver = z3.Solver()
    solver.add(bounds.constraint(list(removed), turn))
    rng = random.Random(3)
    for _ in range(150):
        t = rng.randint(1, 20)
        values = [rng.choice([0, 0, 1, 2, 3, 5, 9]) for _ in ZONES]
        fixed = [turn == t, *[r == v for r, v in zip(removed, values, strict=True)]]
        assert (solver.check(*fixed) == z3.sat) == bounds.admits(t, values), (t, values)
        numbered = z3.Solver()
        numbered.add(bounds.at(t, list(removed)))
        assert (numbered.check(*fixed[1:]) == z3.sat) == bounds.admits(t, values), (t, values)


def test_the_abstraction_refuses_a_round_one_removal() -> None:
    """On the shipped set the abstraction's round 1 admits no Victim removed before the Company's turn."""
    model = CompanyAbstraction.of(GAMES["shipped"])
    system = model.system(STAR)
    pre, post = system.state("@0"), system.state("@1")
    solver = z3.Solver()
    solver.add(system.init(pre), system.step(pre, post, Fresh("@1"), z3.IntVal(1)), system.numbered(pre, 1, "@1"))
    removed = z3.Or(*[z3.Int(f"msg_{z.key}@1") < pre[f"victims_{z.key}"] for z in ZONES])
    assert solver.check(removed) == z3.unsat
    assert solver.check() == z3.sat


# --- closed Zones and the caps proved on the Movement's abstraction ---


def test_a_zone_no_action_can_open_is_closed() -> None:
    """A Zone's Set-Up Doubt token is paid from one action's Messaging, before its first Victim: with at most 1
    Messaging in turn 1 and 2 in turn 2 no Zone opens in round 1 and only Children (token 1) in round 2; the
    derived figure for turn 3 (7) opens every Zone."""
    derived = DERIVED["shipped"]
    assert derived.costliest == (1, 2, 3, 3)
    assert derived.closed(1) == tuple(ZONES)
    assert derived.closed(2) == (Zone.ADULTS, Zone.MIDDLE_AGE, Zone.ELDERLY)
    assert derived.closed(3) == ()
    assert not derived.admits(2, [0, 1, 0, 0])
    assert derived.admits(2, [1, 0, 0, 0])
    assert derived.admits(3, [0, 0, 1, 0])


@pytest.mark.parametrize("name", ["shipped", "large"])
def test_the_movement_abstraction_caps_turn_three(name: str) -> None:
    """Middle Age and Elderly need 4 Messaging in turn 3's action (token 3 and a Victim); the Movement's abstraction
    (no Pacing after round 1) refutes it, so both Zones are closed in round 3 and open from round 4."""
    assert candidates(DERIVED[name], 5) == [(3, 4)]
    assert CAPS[name] == {3: 3}
    capped = BOUNDS[name]
    assert capped.closed(3) == (Zone.MIDDLE_AGE, Zone.ELDERLY)
    assert capped.closed(4) == ()
    assert not capped.admits(3, [0, 0, 1, 0])
    assert capped.admits(3, [1, 0, 0, 0])


def _three_turns(name: str, seeds: Iterable[int], cap: int) -> tuple[int, int]:
    """The Movement's first three turns, every Movement choice and chance outcome of each explored (the Company's
    turns between them at random, several per end state): each Messaging action's icons and tokens stay within the
    capped figure of its turn, and each Message offered within the capped bounds. Returns the states seen and the
    most Messaging seen in turn 3."""
    rng = random.Random(11)
    seen_states = 0
    most = 0

    def explore(root: GameState) -> list[GameState]:
        nonlocal seen_states, most
        watch = Watch(name)
        watch.round = root.round
        seen = {root}
        stack = [root]
        ends = []
        while stack and len(seen) < cap:
            state = stack.pop()
            if state.outcome is not None:
                continue
            if current_actor(state) is Actor.COMPANY or state.round != root.round:
                ends.append(state)
                continue
            watch.removed = [0, 0, 0, 0]
            watch.see(state)
            for action in legal_actions(state):
                after = apply(state, action)
                if after not in seen:
                    seen.add(after)
                    stack.append(after)
        seen_states += len(seen)
        most = max(most, watch.spend.get(3, 0))
        return ends

    for root in _setups(GAMES[name], seeds):
        for first in {(s.tableau, s.m_hand, s.influence, s.messaging): s for s in explore(root)}.values():
            second = _company_turn(first, rng)
            if second.outcome is not None:
                continue
            for end in {(s.tableau, s.m_hand, s.influence, s.messaging): s for s in explore(second)}.values():
                third = _company_turn(end, rng)
                if third.outcome is None:
                    explore(third)
    return seen_states, most


@pytest.mark.parametrize("name", ["shipped", "large"])
def test_the_first_three_movement_turns_stay_within_the_caps(name: str) -> None:
    states, most = _three_turns(name, range(3), 2_000)
    assert states > 1000
    assert 0 < most <= CAPS[name][3]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["shipped", "large"])
def test_many_first_three_movement_turns_stay_within_the_caps(name: str) -> None:
    states, most = _three_turns(name, range(100), 3_000)
    assert states > 50_000
    assert most == CAPS[name][3]  # the cap is reached: 3 Messaging in turn 3 is a game's


# --- games found at the edge of the bound (fuzz/messaging_edge.py) ---

EDGE = DATA / "messaging"
EDGE_GAMES: dict[str, tuple[int, Zone | None]] = {
    # trace: (the most Messaging a Messaging action of the round has at least, a Zone a Victim is removed from)
    "large-first-adults-round3.trace": (3, Zone.ADULTS),
    "large-first-children-round3.trace": (2, Zone.CHILDREN),
    "large-first-elderly-round4.trace": (4, Zone.ELDERLY),
    "large-first-middle_age-round4.trace": (4, Zone.MIDDLE_AGE),
    "large-spend-round3.trace": (3, None),
    "large-spend-round4.trace": (4, None),
    "large-spend-round5.trace": (6, None),
    "large-spend-round6.trace": (8, None),
    "shipped-first-adults-round3.trace": (3, Zone.ADULTS),
    "shipped-first-children-round3.trace": (2, Zone.CHILDREN),
    "shipped-first-elderly-round4.trace": (4, Zone.ELDERLY),
    "shipped-first-middle_age-round4.trace": (4, Zone.MIDDLE_AGE),
    "shipped-spend-round3.trace": (3, None),
    "shipped-spend-round4.trace": (4, None),
    "shipped-spend-round5.trace": (6, None),
    "shipped-spend-round6.trace": (8, None),
}
"""The recorded games of `tests/data/messaging/`, each with what it shows. The agents and the games above seldom
Message before round 5, so without these a figure of rounds 3-6 or a Zone's first open round could be tightened
below what a game reaches and no test would fail. Each was found by a beam search over the Movement's choices
(`fuzz/messaging_edge.py`, which writes them again); if a change to the engine or the cards loses what a game
shows, its test fails and the search is run again."""


def _replay_watched(name: str, path: Path) -> tuple[Watch, list[GameState]]:
    """Replays a recorded game through the checked engine under `Watch` (which checks every Messaging action and
    offer against the bound): returns it and the states at the start of each round."""
    trace = load_trace(path)
    game = GAMES[name]
    assert check_cards(trace, game) is None
    watch = Watch(name)
    state = new_game(game)
    states = [state]
    watch.see(state)
    for action in trace.parsed():
        watch.took(state, action)
        state = play(state, action)
        states.append(state)
        watch.see(state)
    return watch, at_rest_starts(states, ROUNDS_RECORDED)


ROUNDS_RECORDED = 7
"""The recorded games stop at the start of the round after their event, round 7 at the latest."""


def test_every_recorded_edge_game_is_listed() -> None:
    assert sorted(p.name for p in EDGE.glob("*.trace")) == sorted(EDGE_GAMES)


@pytest.mark.parametrize("trace", sorted(EDGE_GAMES))
def test_games_at_the_edge_of_the_bound_stay_within_it(trace: str) -> None:
    """Every Messaging offered in the recorded game is within the bound, every round of it is a round of the
    Company's abstraction (whose removals the bound limits), and the game still shows what it was recorded for:
    the most Messaging found for one action of its round, or the earliest removal found from a Zone (so the
    round's figure, or the Zone's first open round, cannot be tightened past it unnoticed)."""
    name, rest = trace.split("-", 1)
    round_ = int(rest.rsplit("round", 1)[1].removesuffix(".trace"))
    least, zone = EDGE_GAMES[trace]
    watch, starts = _replay_watched(name, EDGE / trace)
    assert watch.offers > 0
    assert watch.spend.get(round_, 0) >= least
    if zone is not None:
        assert zone in watch.emptied.get(round_, set())
        assert zone not in BOUNDS[name].closed(round_)
    admission = _admission(name)
    assert starts[-1].round == round_ + 1, "the recorded game stops before its round is over"
    for before, after in itertools.pairwise(starts):
        assert admission.admits(before, after), f"{trace}: round {before.round} is not admitted by the abstraction"


@functools.cache
def _admission(name: str) -> Admission:
    return Admission(GAMES[name])
