"""Find games at the edge of the Company abstraction's Messaging bounds, and record them as traces.

    python fuzz/messaging_edge.py [--files shipped,large] [--seeds 3] [--width 1500] [--write]

`solver/abstraction/messaging.py` bounds the Victims the Movement can remove in each round, from the card file
(and `messaging_caps.py` lowers round 3's figure on the Movement's abstraction). A bound tightened below what a
game reaches would make the Company's "no" answers false, and the tests can only notice it with a game that
comes close to the bound. The agents seldom do: they Message late and little. So this script looks for such
games with a beam search over the Movement's choices:

* every Movement choice of a turn is expanded (each Messaging, Agitation and Organize choice, chance at random);
* the Company's turns are random playouts, most of them eager to play cards (so that its Reshuffle Sequence, and
  the Movement's Pacing that follows it, come early);
* the states kept between rounds are those with the most Messaging to come (tokens, face-up icons, the best
  icon in hand) or, for the second objective, the most Victims removed so far.

For each round it keeps the game with the largest Messaging one action spends, the largest use of the round's
total (Victims removed plus the Set-Up Doubt of their Zones), and the earliest removal from each Zone. With
`--write` the best games go to `tests/data/messaging/` as text traces, which
`tests/test_solver_messaging.py` replays against the bounds. The table it prints (each bound beside the best
game found) is the measurement quoted in docs/solver-measurements.md ("The Messaging bounds beside the best
games found"). The search is deterministic for given options.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from doubtspec.model.actions import Action, EndBuy, EndPlay, Message
from doubtspec.model.cards import Zone, load_cards
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.movement import face_up_icons
from doubtspec.model.state import Actor, GameState, Phase
from doubtspec.model.steps import Messaging
from doubtspec.solver.abstraction.messaging import MessagingBounds
from doubtspec.solver.abstraction.messaging_caps import prove_caps
from doubtspec.solver.verdict import Budget

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
OUT = DATA / "messaging"
FILES = {"shipped": None, "large": DATA / "large.toml"}
ROUNDS = 6

History = tuple[Action, ...]


@dataclass
class Best:
    """The best game found per (figure, round): its value and the actions from Set-Up to the event."""

    found: dict[tuple[str, int], tuple[int, History]] = field(default_factory=dict)

    def note(self, figure: str, round_: int, value: int, history: History) -> None:
        if 1 <= round_ <= ROUNDS and value > self.found.get((figure, round_), (-1, ()))[0]:
            self.found[(figure, round_)] = (value, history)

    def merge(self, other: Best) -> None:
        for (figure, round_), (value, history) in other.found.items():
            self.note(figure, round_, value, history)


class Search:
    """One beam search (see the module's docstring) on one card file."""

    def __init__(self, game: Game, bounds: MessagingBounds, objective: str, seed: int, width: int,
                 playouts: int, cap: int) -> None:
        self.game, self.bounds, self.objective = game, bounds, objective
        self.rng = random.Random(seed)
        self.seed, self.width, self.playouts, self.cap = seed, width, playouts, cap
        self.best = Best()

    def _turn_ends(self, root: GameState, history: History) -> list[tuple[GameState, History, int]]:
        """Every Movement choice of the turn from `root` (states seen once): the states where the Company's turn
        begins, with their histories and the Victims removed in the turn."""
        seen = {root}
        stack: list[tuple[GameState, History, tuple[int, ...]]] = [(root, history, (0, 0, 0, 0))]
        ends: list[tuple[GameState, History, int]] = []
        while stack and len(seen) < self.cap:
            state, h, removed = stack.pop()
            if state.outcome is not None:
                continue
            if current_actor(state) is Actor.COMPANY or state.round != root.round:
                ends.append((state, h, sum(removed)))
                continue
            if state.pending and isinstance(state.pending[0], Messaging):
                self.best.note("spend", state.round, state.pending[0].icons + state.messaging, h)
            actions = legal_actions(state)
            if current_actor(state) is Actor.CHANCE:
                actions = [self.rng.choice(actions)]
            for action in actions:
                after = apply(state, action)
                if after in seen:
                    continue
                seen.add(after)
                moved = removed
                if isinstance(action, Message) and action.victims:
                    moved = tuple(v + (action.victims if z == action.zone else 0) for z, v in enumerate(removed))
                    opened = sum(self.bounds.doubt[z] for z in range(4) if moved[z])
                    self.best.note("use", state.round, sum(moved) + opened, (*h, action))
                    # One entry per round a Zone loses a Victim in (its value only says "found"); `main` writes
                    # the earliest round's.
                    self.best.note(f"first-{Zone(action.zone).name.lower()}", state.round, 1, (*h, action))
                stack.append((after, (*h, action), moved))
        return ends

    def _company_turn(self, state: GameState, history: History, rng: random.Random) -> tuple[GameState, History]:
        """The Company's turn and chance, at random (eager to play: no End while a play or buy is offered, in
        most playouts), up to the Movement's next turn."""
        start = state.round
        h = list(history)
        eager = rng.random() < 0.7
        while state.outcome is None and not (state.phase is Phase.MOVEMENT_TURN and not state.pending
                                             and state.round > start):
            actions = legal_actions(state)
            if eager and current_actor(state) is Actor.COMPANY:
                actions = [a for a in actions if not isinstance(a, EndPlay | EndBuy)] or actions
            action = rng.choice(actions)
            h.append(action)
            state = apply(state, action)
        return state, tuple(h)

    def _score(self, state: GameState, removed: int) -> float:
        """What the beam keeps the best of: the Messaging to come (tokens, face-up icons, the best icon in hand,
        a little for Influence), or, for the objective "removed", the Victims removed so far first."""
        icons = face_up_icons(self.game, state.tableau).messaging
        hand = max((self.game.movement_card(c).icons.messaging for c in state.m_hand), default=0)
        tie = self.rng.random() * 0.01
        if self.objective == "removed":
            return 10 * removed + state.messaging + icons + hand + 0.1 * state.influence + tie
        return state.messaging + icons + 0.5 * hand + 0.1 * state.influence + tie

    def run(self) -> Best:
        nodes: list[tuple[GameState, History, int]] = []
        for s in range(self.width):
            rng = random.Random(self.seed * 100_003 + s)
            state, h = new_game(self.game), []
            while not (state.phase is Phase.MOVEMENT_TURN and not state.pending):
                action = rng.choice(legal_actions(state))
                h.append(action)
                state = apply(state, action)
            nodes.append((state, tuple(h), 0))
        for r in range(1, ROUNDS + 1):
            ends: dict[GameState, tuple[GameState, History, int]] = {}
            for state, h, removed in nodes:
                for end, eh, er in self._turn_ends(state, h):
                    ends.setdefault(end, (end, eh, removed + er))
            kept = sorted(ends.values(), key=lambda n: -self._score(n[0], n[2]))[: self.width]
            following: dict[GameState, tuple[GameState, History, int]] = {}
            for k, (end, eh, er) in enumerate(kept):
                for j in range(self.playouts):
                    after, ah = self._company_turn(end, eh, random.Random(f"{self.seed}/{r}/{k}/{j}"))
                    if after.outcome is None:
                        following.setdefault(after, (after, ah, er))
            nodes = sorted(following.values(), key=lambda n: -self._score(n[0], n[2]))[: self.width]
        return self.best


def bounds_of(game: Game) -> MessagingBounds:
    """The bounds the tests check: the card file's, with the caps proved on the Movement's abstraction."""
    derived = MessagingBounds.of(game)
    return derived.with_action_caps(prove_caps(game, derived, 5, Budget.of(120)))


def to_round_end(game: Game, history: History) -> History:
    """`history` played on to the start of the next round, so that the round of the event is whole and the Company
    abstraction's round relation can be checked on it too: the Company ends each of its phases at once, chance
    and the Movement choose at random (fixed seeds, the first that does not end the game)."""
    state = new_game(game)
    for action in history:
        state = apply(state, action)
    start = state.round
    for seed in range(100):
        rng = random.Random(seed)
        here, played = state, list(history)
        while here.outcome is None and not (here.phase is Phase.MOVEMENT_TURN and not here.pending
                                            and here.round > start):
            actions = legal_actions(here)
            ends = [a for a in actions if isinstance(a, EndPlay | EndBuy)]
            action = ends[0] if ends and current_actor(here) is Actor.COMPANY else rng.choice(actions)
            played.append(action)
            here = apply(here, action)
        if here.outcome is None:
            return tuple(played)
    raise RuntimeError(f"no way found to finish round {start} without ending the game")


def write_trace(path: Path, game: Game, name: str, comment: str, history: History) -> None:
    card_file = FILES[name]
    lines = [f"# {comment}", "# Found by fuzz/messaging_edge.py; replayed by tests/test_solver_messaging.py.",
             f"# cards: {card_file.relative_to(ROOT) if card_file else ''}".rstrip(),
             f"# fingerprint: {game.cards.fingerprint}", *(str(a) for a in to_round_end(game, history))]
    if card_file is None:
        lines.remove("# cards:")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", default=",".join(FILES))
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--width", type=int, default=1500)
    parser.add_argument("--playouts", type=int, default=8)
    parser.add_argument("--cap", type=int, default=5000, help="states explored per Movement turn at most")
    parser.add_argument("--write", action="store_true", help="write the best games (to --out)")
    parser.add_argument("--out", type=Path, default=OUT, help="where --write puts the traces (tests/data/messaging/)")
    args = parser.parse_args()
    for name in args.files.split(","):
        game = Game(load_cards(FILES[name]))
        bounds = bounds_of(game)
        best = Best()
        started = time.process_time()
        for objective in ("spend", "removed"):
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                best.merge(Search(game, bounds, objective, seed, args.width, args.playouts, args.cap).run())
        rounds = range(1, ROUNDS + 1)
        print(f"{name}: {time.process_time() - started:.0f} CPU-seconds")
        print(f"  round                       {list(rounds)}")
        print(f"  one action's bound          {list(bounds.action[:ROUNDS])}")
        print(f"  one action, best game       {[best.found.get(('spend', t), (None,))[0] for t in rounds]}")
        print(f"  the round's total bound     {list(bounds.total[:ROUNDS])}")
        print(f"  total used, best game       {[best.found.get(('use', t), (None,))[0] for t in rounds]}")
        for zone in Zone:
            closed = [t for t in range(1, ROUNDS + 1) if zone in bounds.closed(t)]
            first = [t for t in range(1, ROUNDS + 1) if (f"first-{zone.name.lower()}", t) in best.found]
            print(f"  {zone.name.lower():12} closed in rounds {closed}, first removal found in round "
                  f"{min(first, default=None)}")
        if args.write:
            args.out.mkdir(parents=True, exist_ok=True)
            for (figure, t), (value, history) in sorted(best.found.items()):
                if figure.startswith("first-"):
                    earliest = min(u for f, u in best.found if f == figure)
                    if t != earliest:
                        continue
                    comment = f"{name}: a Victim of {figure[6:]} removed in round {t}, the earliest found"
                elif figure == "spend" and t >= 3:
                    comment = f"{name}: one Messaging action of round {t} spends {value}, the most found"
                else:
                    continue
                write_trace(args.out / f"{name}-{figure}-round{t}.trace", game, name, comment, history)


if __name__ == "__main__":
    main()
