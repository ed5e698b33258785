"""`rule.movement-play`, and the Movement's side of the table (`Table`) on which every Movement
postcondition works out what an action must leave."""

from __future__ import annotations

import dataclasses
from collections import Counter

from doubtspec.invariants.derived import at_rest
from doubtspec.invariants.groups.rule.frame import TURN_START, minus, sorted_cards, unchanged_except
from doubtspec.invariants.shapes import Invariant, TransitionInvariant
from doubtspec.model.actions import Action, End, MovementPlay
from doubtspec.model.cards import BonusKind, TokenKind
from doubtspec.model.state import TOKEN_INDEX, GameState, Phase
from doubtspec.rulebook import Section

S = Section


@dataclasses.dataclass
class Table:
    """The Movement's side of the table while a postcondition works out what an action must leave."""

    tableau: list[tuple[int, bool]]
    influence: int
    messaging: int
    agitation: int
    flight: int
    flight_spent: int
    supply: list[int]
    discard: list[int]

    @classmethod
    def of(cls, state: GameState) -> Table:
        return cls(list(state.tableau), state.influence, state.messaging, state.agitation, state.flight,
                   state.flight_spent, list(state.supply), list(state.m_discard))

    def gain(self, kind: TokenKind, count: int) -> None:
        got = min(count, self.supply[TOKEN_INDEX[kind]])
        self.supply[TOKEN_INDEX[kind]] -= got
        name = kind.value
        setattr(self, name, getattr(self, name) + got)

    def refresh(self, count: int) -> None:
        """Flip the leftmost face-down cards face up."""
        for i, (card, up) in enumerate(self.tableau):
            if count <= 0:
                break
            if not up:
                self.tableau[i] = (card, True)
                count -= 1

    def pay(self, state: GameState, flip: tuple[int, ...], cost: int) -> str | None:
        """Spending Influence: flipped face-up cards give their Influence; tokens (Flight first) the rest."""
        value = 0
        for position in flip:
            card, up = self.tableau[position]
            if not up:
                return f"card {card} at Tableau position {position} is flipped for Influence while face down"
            value += state.game.movement_card(card).influence
            self.tableau[position] = (card, False)
        short = max(0, cost - value)
        flight = min(self.flight, short)
        self.flight -= flight
        self.flight_spent += flight
        tokens = short - flight
        if tokens > self.influence:
            return f"a cost of {cost} is paid with {value} from the Tableau and only {self.influence} Influence"
        self.influence -= tokens
        self.supply[TOKEN_INDEX[TokenKind.INFLUENCE]] += tokens
        return None

    def face_up(self, state: GameState, icon: str) -> int:
        return sum(getattr(state.game.movement_card(c).icons, icon) for c, up in self.tableau if up)

    def place(self, state: GameState, card: int, right: bool, remove: int | None) -> None:
        """Playing a Card: make room, place at an end, receive the Bonuses aligned with the adjacent face-up card."""
        if remove is not None:
            removed, _ = self.tableau.pop(remove)
            self.discard.append(removed)
        order = reversed(self.tableau) if right else iter(self.tableau)
        neighbour = next((other for other, up in order if up), None)
        if right:
            self.tableau.append((card, True))
        else:
            self.tableau.insert(0, (card, True))
        if neighbour is None:
            return
        new, other = state.game.movement_card(card), state.game.movement_card(neighbour)
        facing = Counter(other.right if right else other.left)
        refreshes = 0
        for kind in (new.left if right else new.right):
            if facing[kind] <= 0:
                continue
            facing[kind] -= 1
            match kind:
                case BonusKind.INFLUENCE:
                    self.gain(TokenKind.INFLUENCE, 1)
                case BonusKind.MESSAGING:
                    self.gain(TokenKind.MESSAGING, 1)
                case BonusKind.AGITATION:
                    self.gain(TokenKind.AGITATION, 1)
                case _:
                    refreshes += 1
        self.refresh(refreshes)

    def compare(self, after: GameState, action: Action) -> str | None:
        for name, expected in (("tableau", tuple(self.tableau)), ("influence", self.influence),
                               ("messaging", self.messaging), ("agitation", self.agitation),
                               ("flight", self.flight), ("flight_spent", self.flight_spent)):
            if getattr(after, name) != expected:
                return f"{action} left {name} {getattr(after, name)!r}; the rules give {expected!r}"
        return None


MOVEMENT_TABLE = ("tableau", "influence", "messaging", "agitation", "flight", "flight_spent", "supply")


def movement_turn(state: GameState) -> bool:
    """The Movement's turn, nothing pending (where the Movement's what-ifs build their situations)."""
    return at_rest(state) and state.phase is Phase.MOVEMENT_TURN


def movement_play_check(before: GameState, action: Action, after: GameState) -> str | None:
    """Playing a Card: pay its Influence, place it at an end, receive the aligned Bonuses of the adjacent card."""
    if not isinstance(action, MovementPlay):
        return None
    table = Table.of(before)
    problem = table.pay(before, action.flip, before.game.movement_card(action.card).influence)
    if problem is not None:
        return f"{action}: {problem}"
    table.place(before, action.card, action.end is End.RIGHT, action.remove)
    problem = table.compare(after, action)
    if problem is not None:
        return problem
    if after.m_hand != minus(before.m_hand, (action.card,)) or after.m_discard != sorted_cards(table.discard):
        return f"{action} left hand {list(after.m_hand)} and discard {list(after.m_discard)}"
    return unchanged_except(before, after, (*MOVEMENT_TABLE, "m_hand", "m_discard", *TURN_START), action)


def one_choice_check(before: GameState, action: Action, after: GameState) -> str | None:
    """On Your Go: the Movement makes one choice (Play, Buy or Pass), and once it has resolved the opponent takes
    their turn. So no step that starts in the Movement's turn ends with the Movement at rest in its turn again:
    whatever it was (the choice itself, or a step of its resolution such as Organize's play or a refill), the next
    rest is the Company's turn or the end of the game."""
    if before.phase is not Phase.MOVEMENT_TURN or after.outcome is not None or not movement_turn(after):
        return None
    return (f"after {action} the Movement is at rest in its own turn again; its one choice has resolved, so the "
            f"Company's turn comes next")


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.movement-play", "A Movement play pays its Influence (flipped cards, then Flight, then "
                        "tokens), goes to the chosen end and earns the Bonuses aligned with the adjacent face-up card.",
                        (S.PLAYING_A_CARD, S.SPENDING_INFLUENCE), movement_play_check),
    TransitionInvariant("rule.movement-one-choice", "The Movement makes one choice a turn: once it has resolved, the "
                        "Company's turn comes (no second choice).", (S.MOVEMENT_ON_YOUR_GO,), one_choice_check),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
