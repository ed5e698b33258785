"""Actions: one small frozen type per kind of decision, each with a text form that round-trips.

Text forms start with the actor (`c` Company, `m` Movement, `chance`), then the verb:

    c play 5 pay 3,7         c reserve 9 pay -        c end-play       c unlobby goal:4
    c buy pile:1 pay 2,6     c buy stack:3 pay 4      c buy trash:0 pay -    c end-buy
    c doubt adults           c lobby market:2         c remove market:4      c trash 7    c skip
    m start 2    m play 7 flip 0,2 right remove 3     m buy 4 flip -    m pass
    m message children 2 1   m agitate 7 2            m organize 9 left       m skip
    chance 17

Card numbers are the card file's; positions (`flip`, `remove`, Market spaces, Goal places) are
0-based indexes into the state's tuples.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from doubtspec.errors import TraceError
from doubtspec.model.cards import ZONE_BY_KEY, Zone
from doubtspec.model.state import Side


class BuySource(Enum):
    PILE = "pile"
    STACK = "stack"
    TRASH = "trash"


class LobbyWhere(Enum):
    MARKET = "market"
    GOAL = "goal"


class End(Enum):
    LEFT = "left"
    RIGHT = "right"


def _ints(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values)) if values else "-"


# --- the Company ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayStandard:
    card: int
    pay: tuple[int, ...]

    def __str__(self) -> str:
        return f"c play {self.card} pay {_ints(self.pay)}"


@dataclass(frozen=True, slots=True)
class PlayReserve:
    card: int
    pay: tuple[int, ...]

    def __str__(self) -> str:
        return f"c reserve {self.card} pay {_ints(self.pay)}"


@dataclass(frozen=True, slots=True)
class EndPlay:
    def __str__(self) -> str:
        return "c end-play"


@dataclass(frozen=True, slots=True)
class Buy:
    source: BuySource
    index: int
    pay: tuple[int, ...]

    def __str__(self) -> str:
        return f"c buy {self.source.value}:{self.index} pay {_ints(self.pay)}"


@dataclass(frozen=True, slots=True)
class EndBuy:
    def __str__(self) -> str:
        return "c end-buy"


@dataclass(frozen=True, slots=True)
class Unlobby:
    where: LobbyWhere
    index: int

    def __str__(self) -> str:
        return f"c unlobby {self.where.value}:{self.index}"


@dataclass(frozen=True, slots=True)
class PlaceDoubt:
    column: Zone

    def __str__(self) -> str:
        return f"c doubt {self.column.key}"


@dataclass(frozen=True, slots=True)
class LobbyOn:
    where: LobbyWhere
    index: int

    def __str__(self) -> str:
        return f"c lobby {self.where.value}:{self.index}"


@dataclass(frozen=True, slots=True)
class RemoveFromMarket:
    space: int

    def __str__(self) -> str:
        return f"c remove market:{self.space}"


@dataclass(frozen=True, slots=True)
class TrashCard:
    card: int

    def __str__(self) -> str:
        return f"c trash {self.card}"


# --- the Movement --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChooseStart:
    card: int

    def __str__(self) -> str:
        return f"m start {self.card}"


@dataclass(frozen=True, slots=True)
class MovementPlay:
    card: int
    flip: tuple[int, ...]
    end: End
    remove: int | None = None

    def __str__(self) -> str:
        tail = "" if self.remove is None else f" remove {self.remove}"
        return f"m play {self.card} flip {_ints(self.flip)} {self.end.value}{tail}"


@dataclass(frozen=True, slots=True)
class MovementBuy:
    space: int
    flip: tuple[int, ...]

    def __str__(self) -> str:
        return f"m buy {self.space} flip {_ints(self.flip)}"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "m pass"


@dataclass(frozen=True, slots=True)
class Message:
    zone: Zone
    doubts: int
    victims: int

    def __str__(self) -> str:
        return f"m message {self.zone.key} {self.doubts} {self.victims}"


@dataclass(frozen=True, slots=True)
class Agitate:
    slot: int
    tokens: int

    def __str__(self) -> str:
        return f"m agitate {self.slot} {self.tokens}"


@dataclass(frozen=True, slots=True)
class OrganizePlay:
    card: int
    end: End
    remove: int | None = None

    def __str__(self) -> str:
        tail = "" if self.remove is None else f" remove {self.remove}"
        return f"m organize {self.card} {self.end.value}{tail}"


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline an optional choice (a Lobby token, a card to trash, Messaging, Agitation, Organize)."""

    side: Side

    def __str__(self) -> str:
        return f"{'c' if self.side is Side.COMPANY else 'm'} skip"


# --- chance --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Chance:
    """A chance outcome: the card drawn, the odd card dealt, the Goal dealt, or the Goal split."""

    outcome: int

    def __str__(self) -> str:
        return f"chance {self.outcome}"


CompanyAction = (
    PlayStandard | PlayReserve | EndPlay | Buy | EndBuy | Unlobby | PlaceDoubt | LobbyOn | RemoveFromMarket
    | TrashCard
)
MovementAction = ChooseStart | MovementPlay | MovementBuy | Pass | Message | Agitate | OrganizePlay
Action = CompanyAction | MovementAction | Skip | Chance


def parse_action(text: str) -> Action:
    """The action whose text form is `text`; raises `TraceError` naming what is wrong."""
    words = text.split()
    try:
        return _parse(words)
    except (ValueError, IndexError, KeyError) as exc:
        raise TraceError(f"cannot parse action {text!r}: {exc or 'missing field'}", field="action") from exc


def _int_list(word: str) -> tuple[int, ...]:
    return () if word == "-" else tuple(int(w) for w in word.split(","))


def _where(word: str) -> tuple[str, int]:
    kind, _, index = word.partition(":")
    return kind, int(index)


def _parse(w: list[str]) -> Action:
    if w[0] == "chance" and len(w) == 2:
        return Chance(int(w[1]))
    actor, verb, args = w[0], w[1], w[2:]
    if actor == "c":
        match verb, args:
            case "play", [card, "pay", pay]:
                return PlayStandard(int(card), _int_list(pay))
            case "reserve", [card, "pay", pay]:
                return PlayReserve(int(card), _int_list(pay))
            case "end-play", []:
                return EndPlay()
            case "buy", [source, "pay", pay]:
                kind, index = _where(source)
                return Buy(BuySource(kind), index, _int_list(pay))
            case "end-buy", []:
                return EndBuy()
            case "unlobby", [target]:
                kind, index = _where(target)
                return Unlobby(LobbyWhere(kind), index)
            case "doubt", [zone]:
                return PlaceDoubt(ZONE_BY_KEY[zone])
            case "lobby", [target]:
                kind, index = _where(target)
                return LobbyOn(LobbyWhere(kind), index)
            case "remove", [target]:
                kind, index = _where(target)
                if kind != "market":
                    raise ValueError(f"expected market:N, got {target!r}")
                return RemoveFromMarket(index)
            case "trash", [card]:
                return TrashCard(int(card))
            case "skip", []:
                return Skip(Side.COMPANY)
    elif actor == "m":
        match verb, args:
            case "start", [card]:
                return ChooseStart(int(card))
            case "play", [card, "flip", flip, end]:
                return MovementPlay(int(card), _int_list(flip), End(end))
            case "play", [card, "flip", flip, end, "remove", pos]:
                return MovementPlay(int(card), _int_list(flip), End(end), int(pos))
            case "buy", [space, "flip", flip]:
                return MovementBuy(int(space), _int_list(flip))
            case "pass", []:
                return Pass()
            case "message", [zone, doubts, victims]:
                return Message(ZONE_BY_KEY[zone], int(doubts), int(victims))
            case "agitate", [slot, tokens]:
                return Agitate(int(slot), int(tokens))
            case "organize", [card, end]:
                return OrganizePlay(int(card), End(end))
            case "organize", [card, end, "remove", pos]:
                return OrganizePlay(int(card), End(end), int(pos))
            case "skip", []:
                return Skip(Side.MOVEMENT)
    raise ValueError("unknown action")


def actor_of(action: Action) -> Side | None:
    """The side that takes `action`, or None for a chance outcome."""
    match action:
        case Chance():
            return None
        case Skip(side=side):
            return side
        case ChooseStart() | MovementPlay() | MovementBuy() | Pass() | Message() | Agitate() | OrganizePlay():
            return Side.MOVEMENT
        case _:
            return Side.COMPANY
