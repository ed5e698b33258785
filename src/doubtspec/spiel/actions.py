"""The fixed integer action space: every engine action the rules can offer, one id each, and back.

OpenSpiel names actions by integers in `[0, num_distinct_actions)`. The space is fixed by the card
file (its sizes set the bounds) and laid out as consecutive blocks, one per kind of action; inside a
block the fields are mixed-radix digits, the first field most significant:

    block                   fields (radix)
    c play                  hand position of the card (H), payment as a mask of hand positions (2^H)
    c reserve               hand position of the card (H), payment mask (2^H)
    c end-play              -
    c buy                   source (P piles, then S stacks, then C trash positions), payment mask (2^H)
    c end-buy               -
    c unlobby               target (M Market spaces, then 9 Goal places)
    c doubt                 column (4 zones)
    c lobby                 target (M Market spaces, then 9 Goal places)
    c remove                Market space (M)
    c trash                 hand position (H)
    c skip                  -
    m start                 card number (largest Movement card number + 1)
    m play                  hand position (K), flipped Tableau positions as a mask (2^T), end (2),
                            removed Tableau position + 1, or 0 for none (T + 1)
    m buy                   Market space (M), flip mask (2^T)
    m pass                  -
    m message               zone (4), Doubt removed (most spaces in a column + 1), Victims removed (V + 1)
    m agitate               Goal place (9), Agitation tokens (A + 1)
    m organize              hand position (K), end (2), removed Tableau position + 1 or 0 (T + 1)
    m skip                  -

with H = twice the Company's hand size (hands sorted by card number; a hand grows past its size
only through draw effects), P piles, S stacks dealt, C Company cards (the trash can hold them all),
M Market spaces, T the Tableau limit, K the Movement's hand limit plus every hand-size Goal bonus,
V the Victims supply and A the Agitation supply. Positions are the 0-based indexes of the state's
sorted hands and ordered Tableau, so an id names an action only together with its state, as
OpenSpiel's action ids do in card games; the map from the legal actions of a state to ids is
one-to-one, and `decode` inverts `encode` (tested over the actions met in many games).

Chance outcomes are numbered apart (OpenSpiel keeps them apart too): the id of `Chance(n)` is `n`,
a card, Goal or Goal-split number, all below `max_chance_outcomes`.

An action beyond a bound (a Company hand longer than H, which no game has reached) raises
`ActionSpaceError` naming the action and the bound, rather than aliasing another id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    BuySource,
    Chance,
    ChooseStart,
    End,
    EndBuy,
    EndPlay,
    LobbyOn,
    LobbyWhere,
    Message,
    MovementBuy,
    MovementPlay,
    OrganizePlay,
    Pass,
    PlaceDoubt,
    PlayReserve,
    PlayStandard,
    RemoveFromMarket,
    Skip,
    TrashCard,
    Unlobby,
)
from doubtspec.model.cards import HandSize, TokenKind, Zone
from doubtspec.model.game import Game
from doubtspec.model.legal import LOWER_GOALS
from doubtspec.model.state import GameState, Side

GOAL_PLACES = 9
"""The Goal structure's places (rows of four, three and two)."""

_ZONES = tuple(Zone)
_ENDS = (End.LEFT, End.RIGHT)


class ActionSpaceError(ValueError):
    """An action or id outside the fixed action space of its game."""


@dataclass(frozen=True, slots=True)
class Block:
    """One kind of action: its first id and the radix of each of its fields."""

    name: str
    start: int
    radices: tuple[int, ...]

    @property
    def size(self) -> int:
        size = 1
        for radix in self.radices:
            size *= radix
        return size

    def pack(self, digits: tuple[int, ...], action: Action) -> int:
        value = 0
        for digit, radix in zip(digits, self.radices, strict=True):
            if not 0 <= digit < radix:
                raise ActionSpaceError(f"{action} does not fit the action space: a field is {digit}, "
                                       f"the bound of block {self.name!r} is {radix}")
            value = value * radix + digit
        return self.start + value

    def unpack(self, action_id: int) -> tuple[int, ...]:
        value = action_id - self.start
        digits: list[int] = []
        for radix in reversed(self.radices):
            value, digit = divmod(value, radix)
            digits.append(digit)
        return tuple(reversed(digits))


def _mask(positions: tuple[int, ...]) -> int:
    mask = 0
    for p in positions:
        mask |= 1 << p
    return mask


def _positions(mask: int) -> tuple[int, ...]:
    return tuple(p for p in range(mask.bit_length()) if mask >> p & 1)


class ActionSpace:
    """The integer ids of one game's actions (see the module's table), both ways."""

    def __init__(self, game: Game) -> None:
        cards = game.cards
        rules = cards.rules
        self.game = game
        self.hand_bound = 2 * rules.company_hand_size
        self.tableau_bound = rules.tableau_limit
        self.movement_hand_bound = rules.movement_hand_limit + sum(
            e.amount for g in cards.goals.values() for e in g.effects if isinstance(e, HandSize))
        self.markets = len(cards.market)
        self.piles = len(cards.piles)
        self.stacks = rules.stacks_dealt
        self.trash_bound = len(cards.company)
        self.targets = self.markets + GOAL_PLACES
        most_doubt = max(len(column) for column in cards.display.doubt_values)
        victims = cards.supply[TokenKind.VICTIMS]
        agitation = cards.supply[TokenKind.AGITATION]
        pay = 1 << self.hand_bound
        flips = 1 << self.tableau_bound
        removes = self.tableau_bound + 1
        layout: list[tuple[str, tuple[int, ...]]] = [
            ("c play", (self.hand_bound, pay)),
            ("c reserve", (self.hand_bound, pay)),
            ("c end-play", ()),
            ("c buy", (self.piles + self.stacks + self.trash_bound, pay)),
            ("c end-buy", ()),
            ("c unlobby", (self.targets,)),
            ("c doubt", (len(_ZONES),)),
            ("c lobby", (self.targets,)),
            ("c remove", (self.markets,)),
            ("c trash", (self.hand_bound,)),
            ("c skip", ()),
            ("m start", (max(cards.movement) + 1,)),
            ("m play", (self.movement_hand_bound, flips, len(_ENDS), removes)),
            ("m buy", (self.markets, flips)),
            ("m pass", ()),
            ("m message", (len(_ZONES), most_doubt + 1, victims + 1)),
            ("m agitate", (GOAL_PLACES, agitation + 1)),
            ("m organize", (self.movement_hand_bound, len(_ENDS), removes)),
            ("m skip", ()),
        ]
        blocks: list[Block] = []
        start = 0
        for name, radices in layout:
            block = Block(name, start, radices)
            blocks.append(block)
            start += block.size
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self.block: dict[str, Block] = {b.name: b for b in blocks}
        self.num_distinct_actions = start
        split_codes = 100 * LOWER_GOALS[-3] + 10 * LOWER_GOALS[-2] + LOWER_GOALS[-1]
        self.max_chance_outcomes = 1 + max(max(cards.company), max(cards.movement), max(cards.goals), split_codes)
        self._decoders: dict[str, Callable[[GameState, tuple[int, ...]], Action]] = {
            "c play": lambda s, d: PlayStandard(self._hand_card(s, d[0]), self._pay(s, d[1])),
            "c reserve": lambda s, d: PlayReserve(self._hand_card(s, d[0]), self._pay(s, d[1])),
            "c end-play": lambda s, d: EndPlay(),
            "c buy": lambda s, d: self._buy(s, d),
            "c end-buy": lambda s, d: EndBuy(),
            "c unlobby": lambda s, d: Unlobby(*self._target(d[0])),
            "c doubt": lambda s, d: PlaceDoubt(_ZONES[d[0]]),
            "c lobby": lambda s, d: LobbyOn(*self._target(d[0])),
            "c remove": lambda s, d: RemoveFromMarket(d[0]),
            "c trash": lambda s, d: TrashCard(self._hand_card(s, d[0])),
            "c skip": lambda s, d: Skip(Side.COMPANY),
            "m start": lambda s, d: ChooseStart(d[0]),
            "m play": lambda s, d: MovementPlay(self._movement_card(s, d[0]), _positions(d[1]), _ENDS[d[2]],
                                                None if d[3] == 0 else d[3] - 1),
            "m buy": lambda s, d: MovementBuy(d[0], _positions(d[1])),
            "m pass": lambda s, d: Pass(),
            "m message": lambda s, d: Message(_ZONES[d[0]], d[1], d[2]),
            "m agitate": lambda s, d: Agitate(d[0], d[1]),
            "m organize": lambda s, d: OrganizePlay(self._movement_card(s, d[0]), _ENDS[d[1]],
                                                    None if d[2] == 0 else d[2] - 1),
            "m skip": lambda s, d: Skip(Side.MOVEMENT),
        }

    # --- actions to ids ---------------------------------------------------------------------

    def encode(self, state: GameState, action: Action) -> int:
        """The id of `action`, one of `state`'s legal actions (for a chance outcome, its number)."""
        b = self.block
        match action:
            case Chance(outcome=outcome):
                if not 0 <= outcome < self.max_chance_outcomes:
                    raise ActionSpaceError(f"{action} is beyond the chance outcomes' bound {self.max_chance_outcomes}")
                return outcome
            case PlayStandard(card=card, pay=pay):
                return b["c play"].pack((self._hand_pos(state, card), self._pay_mask(state, pay)), action)
            case PlayReserve(card=card, pay=pay):
                return b["c reserve"].pack((self._hand_pos(state, card), self._pay_mask(state, pay)), action)
            case EndPlay():
                return b["c end-play"].start
            case Buy(source=source, index=index, pay=pay):
                offset = {BuySource.PILE: 0, BuySource.STACK: self.piles,
                          BuySource.TRASH: self.piles + self.stacks}[source]
                bound = {BuySource.PILE: self.piles, BuySource.STACK: self.stacks,
                         BuySource.TRASH: self.trash_bound}[source]
                if not 0 <= index < bound:
                    raise ActionSpaceError(f"{action} does not fit the action space: {source.value} {index} "
                                           f"is beyond the bound {bound}")
                return b["c buy"].pack((offset + index, self._pay_mask(state, pay)), action)
            case EndBuy():
                return b["c end-buy"].start
            case Unlobby(where=where, index=index):
                return b["c unlobby"].pack((self._target_index(where, index, action),), action)
            case PlaceDoubt(column=column):
                return b["c doubt"].pack((int(column),), action)
            case LobbyOn(where=where, index=index):
                return b["c lobby"].pack((self._target_index(where, index, action),), action)
            case RemoveFromMarket(space=space):
                return b["c remove"].pack((space,), action)
            case TrashCard(card=card):
                return b["c trash"].pack((self._hand_pos(state, card),), action)
            case Skip(side=Side.COMPANY):
                return b["c skip"].start
            case ChooseStart(card=card):
                return b["m start"].pack((card,), action)
            case MovementPlay(card=card, flip=flip, end=end, remove=remove):
                play_digits = (self._movement_pos(state, card), _mask(flip), _ENDS.index(end),
                               0 if remove is None else remove + 1)
                return b["m play"].pack(play_digits, action)
            case MovementBuy(space=space, flip=flip):
                return b["m buy"].pack((space, _mask(flip)), action)
            case Pass():
                return b["m pass"].start
            case Message(zone=zone, doubts=doubts, victims=victims):
                return b["m message"].pack((int(zone), doubts, victims), action)
            case Agitate(slot=slot, tokens=tokens):
                return b["m agitate"].pack((slot, tokens), action)
            case OrganizePlay(card=card, end=end, remove=remove):
                organize_digits = (self._movement_pos(state, card), _ENDS.index(end),
                                   0 if remove is None else remove + 1)
                return b["m organize"].pack(organize_digits, action)
            case Skip(side=Side.MOVEMENT):
                return b["m skip"].start
        raise ActionSpaceError(f"{action} has no id")  # pragma: no cover - the match is exhaustive

    # --- ids to actions ---------------------------------------------------------------------

    def block_of(self, action_id: int) -> Block:
        """The block holding `action_id`; raises `ActionSpaceError` outside the space."""
        if not 0 <= action_id < self.num_distinct_actions:
            raise ActionSpaceError(f"action id {action_id} is outside [0, {self.num_distinct_actions})")
        lo, hi = 0, len(self.blocks) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.blocks[mid].start <= action_id:
                lo = mid
            else:
                hi = mid - 1
        return self.blocks[lo]

    def decode(self, state: GameState, action_id: int) -> Action:
        """The action that `action_id` names in `state` (a player's id; see `decode_chance`)."""
        block = self.block_of(action_id)
        try:
            return self._decoders[block.name](state, block.unpack(action_id))
        except IndexError as exc:
            raise ActionSpaceError(f"action id {action_id} ({block.name}) names no action in this state") from exc

    @staticmethod
    def decode_chance(action_id: int) -> Chance:
        return Chance(action_id)

    # --- positions ----------------------------------------------------------------------------

    def _hand_pos(self, state: GameState, card: int) -> int:
        return state.c_hand.index(card)

    def _hand_card(self, state: GameState, pos: int) -> int:
        return state.c_hand[pos]

    def _pay_mask(self, state: GameState, pay: tuple[int, ...]) -> int:
        return _mask(tuple(state.c_hand.index(c) for c in pay))

    def _pay(self, state: GameState, mask: int) -> tuple[int, ...]:
        return tuple(state.c_hand[p] for p in _positions(mask))

    def _movement_pos(self, state: GameState, card: int) -> int:
        return state.m_hand.index(card)

    def _movement_card(self, state: GameState, pos: int) -> int:
        return state.m_hand[pos]

    def _target_index(self, where: LobbyWhere, index: int, action: Action) -> int:
        bound = self.markets if where is LobbyWhere.MARKET else GOAL_PLACES
        if not 0 <= index < bound:
            raise ActionSpaceError(f"{action} does not fit the action space: {where.value} {index} is beyond {bound}")
        return index if where is LobbyWhere.MARKET else self.markets + index

    def _target(self, target: int) -> tuple[LobbyWhere, int]:
        if target < self.markets:
            return LobbyWhere.MARKET, target
        return LobbyWhere.GOAL, target - self.markets

    def _buy(self, state: GameState, digits: tuple[int, ...]) -> Buy:
        source_index, mask = digits
        if source_index < self.piles:
            source, index = BuySource.PILE, source_index
        elif source_index < self.piles + self.stacks:
            source, index = BuySource.STACK, source_index - self.piles
        else:
            source, index = BuySource.TRASH, source_index - self.piles - self.stacks
        return Buy(source, index, self._pay(state, mask))
