"""`rule.*` postconditions of the Movement's actions: plays, buys, Pass, Messaging, Agitation, Goals, Pacing."""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from typing import cast

from doubtspec.invariants.derived import at_rest, hand_limit, icon_agitations, legal, messaging_price, replace
from doubtspec.invariants.groups.rule.frame import TURN_START, in_supply, minus, sorted_cards, unchanged_except
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import (
    Action,
    Agitate,
    End,
    EndBuy,
    Message,
    MovementBuy,
    MovementPlay,
    OrganizePlay,
    Pass,
    Skip,
)
from doubtspec.model.cards import (
    AddRestriction,
    Ban,
    BonusKind,
    GainFlight,
    GainInfluence,
    MarketAction,
    TokenKind,
    Zone,
)
from doubtspec.model.legal import choice_actions
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, Actor, GameState, OutcomeReason, Phase, Side
from doubtspec.model.steps import Agitation, Messaging
from doubtspec.rulebook import Section

S = Section


@dataclasses.dataclass
class _Table:
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
    def of(cls, state: GameState) -> _Table:
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


_MOVEMENT_TABLE = ("tableau", "influence", "messaging", "agitation", "flight", "flight_spent", "supply")


def movement_play_check(before: GameState, action: Action, after: GameState) -> str | None:
    """Playing a Card: pay its Influence, place it at an end, receive the aligned Bonuses of the adjacent card."""
    if not isinstance(action, MovementPlay):
        return None
    table = _Table.of(before)
    problem = table.pay(before, action.flip, before.game.movement_card(action.card).influence)
    if problem is not None:
        return f"{action}: {problem}"
    table.place(before, action.card, action.end is End.RIGHT, action.remove)
    problem = table.compare(after, action)
    if problem is not None:
        return problem
    if after.m_hand != minus(before.m_hand, (action.card,)) or after.m_discard != sorted_cards(table.discard):
        return f"{action} left hand {list(after.m_hand)} and discard {list(after.m_discard)}"
    return unchanged_except(before, after, (*_MOVEMENT_TABLE, "m_hand", "m_discard", *TURN_START), action)


def _flip_offers(state: GameState) -> str | None:
    """On each Movement turn, ask which buys the engine offers paid by flipping one face-up card.

    Spending Influence: a face-up Tableau card may be flipped for its Influence value, and tokens pay the
    rest. With the Movement's Influence tokens back in the supply (its Flight kept), every Market card
    that the tokens alone cannot pay but one face-up card's value and the tokens can must be offered for
    that one flip (a single flip is never superfluous), while the hand is below its limit.
    """
    if (not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or len(state.m_hand) >= hand_limit(state)
            or not any(up for _, up in state.tableau)):
        return None
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] += state.influence
    probe = replace(state, influence=0, supply=tuple(supply))
    offered = {(a.space, a.flip) for a in engine.legal_actions(probe) if isinstance(a, MovementBuy)}
    tokens = probe.flight
    for position, (card, up) in enumerate(probe.tableau):
        value = probe.game.movement_card(card).influence
        if not up or value <= 0:
            continue
        for space, market_card in enumerate(probe.market):
            cost = probe.cards.market[space].cost + probe.market_profit[space]
            if market_card != NO_CARD and tokens < cost <= value + tokens and (space, (position,)) not in offered:
                return (f"with {tokens} Flight and no Influence tokens, buying space {space} (cost {cost}) by "
                        f"flipping Tableau card {position} (value {value}) is not offered")
    return None

def _payments(up: list[tuple[int, int]], cost: int, tokens: int) -> set[tuple[int, ...]]:
    """Spending Influence under ruling influence-payment=shortfall-tokens: the sets of face-up cards
    (position, Influence) that may be flipped for `cost`, tokens (Influence and Flight) paying the shortfall.

    A set is allowed when it has no superfluous card (without its smallest card it would not cover the cost
    by itself) and the tokens cover what it leaves; flipping nothing is allowed when the tokens cover all.
    """
    positions = [p for p, _ in up]
    return {tuple(sorted(positions[i] for i in chosen))
            for chosen in _payment_indices(tuple(v for _, v in up), cost, tokens)}


@functools.lru_cache(maxsize=4096)
def _payment_indices(values: tuple[int, ...], cost: int, tokens: int) -> tuple[tuple[int, ...], ...]:
    """`_payments` by index into `values` (the face-up cards' Influence): a function of the numbers alone,
    kept for the next Tableau with the same values (a full face-up Tableau has 256 subsets to try)."""
    allowed: list[tuple[int, ...]] = []
    for mask in range(1 << len(values)):
        chosen = [i for i in range(len(values)) if mask >> i & 1]
        value = sum(values[i] for i in chosen)
        if chosen and value - min(values[i] for i in chosen) >= cost:
            continue
        if cost - value <= tokens:
            allowed.append(tuple(chosen))
    return tuple(allowed)


def influence_payment_check(state: GameState) -> str | None:
    """On each Movement turn, every play and buy is offered with exactly the flip sets Spending Influence allows.

    Worked out from the Tableau and the card data (`_payments`) for each card in the hand (with each
    removal when the Tableau is full: the removed card cannot pay) and, below the hand limit, each
    Market card at its space's cost plus its Lobbying.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN:
        return None
    offered: dict[tuple[str, int, int | None], set[tuple[int, ...]]] = {}
    for action in legal(state):
        if isinstance(action, MovementPlay):
            offered.setdefault(("play", action.card, action.remove), set()).add(tuple(sorted(action.flip)))
        elif isinstance(action, MovementBuy):
            offered.setdefault(("buy", action.space, None), set()).add(tuple(sorted(action.flip)))
    tokens = state.influence + state.flight
    full = len(state.tableau) >= state.cards.rules.tableau_limit
    wanted: list[tuple[tuple[str, int, int | None], int, int | None]] = []
    for card in state.m_hand:
        removals: list[int | None] = list(range(len(state.tableau))) if full else [None]
        wanted.extend((("play", card, r), state.game.movement_card(card).influence, r) for r in removals)
    if len(state.m_hand) < hand_limit(state):
        wanted.extend((("buy", space, None), state.cards.market[space].cost + state.market_profit[space], None)
                      for space, card in enumerate(state.market) if card != NO_CARD)
    known: dict[tuple[int, int | None], set[tuple[int, ...]]] = {}
    for key, cost, removed in wanted:
        if (cost, removed) not in known:
            up = [(pos, state.game.movement_card(c).influence) for pos, (c, face) in enumerate(state.tableau)
                  if face and pos != removed]
            known[cost, removed] = _payments(up, cost, tokens)
        expected, got = known[cost, removed], offered.get(key, set())
        if got != expected:
            what = f"playing card {key[1]}" if key[0] == "play" else f"buying space {key[1]}"
            tail = "" if removed is None else f" (removing Tableau card {removed})"
            extra, missing = sorted(got - expected), sorted(expected - got)
            return (f"{what}{tail} at cost {cost} with {tokens} tokens: flips {[list(f) for f in extra]} offered "
                    f"and {[list(f) for f in missing]} not, against Spending Influence (none superfluous)")
    return None


def _organize_play(before: GameState, action: Action, after: GameState) -> str | None:
    """Buying a Card > Organize: a card from the hand played for free at the chosen end, with its Bonuses."""
    if not isinstance(action, OrganizePlay):
        return None
    table = _Table.of(before)
    table.place(before, action.card, action.end is End.RIGHT, action.remove)
    problem = table.compare(after, action)
    if problem is not None:
        return problem
    if action.card in after.m_hand or after.m_discard != sorted_cards(table.discard):
        return f"{action} left hand {list(after.m_hand)} and discard {list(after.m_discard)}"
    return None


def _organize_offers(state: GameState) -> str | None:
    """On each Movement turn with a hand, buy the Organize space's card and play a card from the hand at each end.

    The free play of Organize is offered only after buying that one space's card with a hand to play
    from, which generated games seldom do and the steering rarely follows with a play; giving the
    Movement the Influence the space costs (from the supply) and buying it, every card of the hand
    must be offered, at both ends of a Tableau that holds any card, removing a Tableau card exactly when the
    Tableau is at its limit (Tableau), and
    each end's first free play must do what `rule.organize-play` says. Then the Market the buy's refill
    leaves, also with the Market deck spent (`_organize_refills`).
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or not state.m_hand:
        return None
    spaces = [i for i, space in enumerate(state.cards.market)
              if space.action is MarketAction.ORGANIZE and state.market[i] != NO_CARD]
    if not spaces:
        return None
    space = spaces[0]
    short = max(0, state.cards.market[space].cost + state.market_profit[space] - state.influence)
    if short > in_supply(state, TokenKind.INFLUENCE):
        return None
    # Two Influence to spare after the buy (as far as the supply holds them): the free play must not spend them.
    short += min(2, in_supply(state, TokenKind.INFLUENCE) - short)
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] -= short
    probe = replace(state, influence=state.influence + short, supply=tuple(supply))
    buy = MovementBuy(space, ())
    if buy not in engine.legal_actions(probe):
        return None
    bought = engine.apply(probe, buy)
    plays = [a for a in engine.legal_actions(bought) if isinstance(a, OrganizePlay)] if bought.pending else []
    # What is offered, checked before what it does: a play that does the wrong thing correctly is only
    # caught here (the postcondition below follows the action's own choice of a card to remove).
    limit = state.cards.rules.tableau_limit
    full = len(bought.tableau) >= limit
    unoffered = sorted(set(bought.m_hand) - {a.card for a in plays})
    if unoffered:
        return f"after buying the Organize space {space}: no free play of hand cards {unoffered} is offered"
    if bought.tableau:  # Tableau: a card joins either end of a Tableau that holds any
        for end in (End.LEFT, End.RIGHT):
            missing = sorted(set(bought.m_hand) - {a.card for a in plays if a.end is end})
            if missing:
                return (f"after buying the Organize space {space}: no free play of hand cards {missing} at the "
                        f"{end.name.lower()} end of a Tableau of {len(bought.tableau)} cards is offered")
    wrong = next((a for a in plays if (a.remove is not None) is not full), None)
    if wrong is not None:
        return (f"after buying the Organize space {space}: {wrong} is offered with the Tableau at "
                f"{len(bought.tableau)} of {limit} cards: a card is removed exactly when it is full")
    for end in (End.LEFT, End.RIGHT):
        play = next((a for a in plays if a.end is end), None)
        if play is not None:
            message = _organize_play(bought, play, engine.apply(bought, play))
            if message is not None:
                return f"after buying the Organize space {space}: {message}"
    return _organize_refills(probe, space)


def _organize_refills(probe: GameState, space: int) -> str | None:
    """Buy the Organize space's card (the free play declined) and check the Market the refill leaves, with
    another space emptied, with the Market deck as it is, spent into the discards, and spent with them.

    Buying a Card > Organize: the empty spaces are refilled before the space's card is taken, so that
    space stays empty until Pacing; Movement Cards > Discard: a spent Market deck is renewed from the
    Movement's discards, and nothing refills a space when both are spent. Generated games never spend
    the Market deck, and the refill follows the buy over several steps that no postcondition sees at once.
    """
    other = next((i for i, card in enumerate(probe.market)
                  if i != space and card != NO_CARD and not probe.market_profit[i]), None)
    if other is None:
        return None
    # As if the Company had removed the other space's card (it goes to the Movement's discards).
    market = tuple(NO_CARD if i == other else card for i, card in enumerate(probe.market))
    gapped = replace(probe, market=market,
                     m_discard=sorted_cards((*probe.m_discard, probe.market[other])))
    pooled = sorted_cards(gapped.m_deck + gapped.m_discard)
    for where, base in (("", gapped),
                        (" with the Market deck spent into the discards", replace(
                            gapped, m_deck=(), m_discard=pooled)),
                        (" with the Market deck and the discards spent", replace(
                            gapped, m_deck=(), m_discard=()))):
        message = _organize_refill(base, space)
        if message is not None:
            return f"buying the Organize space {space}{where}: {message}"
    return None


def _organize_refill(before: GameState, space: int) -> str | None:
    """`_organize_refills` for one Market: the buy and its refill followed to the Company's turn."""
    buy = MovementBuy(space, ())
    card = before.market[space]
    state = engine.apply(before, buy)
    if Skip(Side.MOVEMENT) in engine.legal_actions(state):
        state = engine.apply(state, Skip(Side.MOVEMENT))
    deck, discard = len(state.m_deck), len(state.m_discard)  # the free play declined, the refill to come
    while state.outcome is None and state.pending and engine.current_actor(state) is Actor.CHANCE:
        state = engine.apply(state, engine.legal_actions(state)[0])
    if state.outcome is None and not engine.legal_actions(state):
        return f"left no legal move (next step: {state.pending[0] if state.pending else None})"
    if state.market[space] != NO_CARD:
        return (f"the space was refilled with card {state.market[space]}; the empty spaces are refilled before "
                "its card is taken, so it stays empty")
    if card not in state.m_hand:
        return f"card {card} did not reach the hand {list(state.m_hand)}"
    gaps = [i for i, held in enumerate(before.market) if held == NO_CARD and i != space]
    moved = [i for i, held in enumerate(before.market) if held != NO_CARD and i != space
             and state.market[i] != held]
    if moved:
        return f"the cards of spaces {moved} changed to {[state.market[i] for i in moved]}; only the gaps refill"
    refilled = sum(1 for i in gaps if state.market[i] != NO_CARD)
    wanted = min(len(gaps), deck + discard)
    if refilled != wanted:
        return (f"{refilled} of the {len(gaps)} empty spaces {gaps} were refilled from a Market deck of {deck} and "
                f"{discard} discards; {wanted} are")
    left = (deck - wanted, discard) if wanted <= deck else (deck + discard - wanted, 0)
    if (len(state.m_deck), len(state.m_discard)) != left:
        return (f"the refill left a Market deck of {len(state.m_deck)} and {len(state.m_discard)} discards; drawing "
                f"{wanted} from {deck} (the discards shuffled in only once it is spent) leaves {left[0]} and "
                f"{left[1]}")
    return None


def _movement_buy(before: GameState, action: Action, after: GameState) -> str | None:
    """Buying a Card: pay the space's cost plus one per Profit on the card; the Profit goes back; the
    space's Action; then the card to the hand."""
    if not isinstance(action, MovementBuy):
        return None
    space = before.cards.market[action.space]
    lobbied = before.market_profit[action.space]
    table = _Table.of(before)
    problem = table.pay(before, action.flip, space.cost + lobbied)
    if problem is not None:
        return f"{action}: {problem}"
    returned = in_supply(after, TokenKind.PROFIT) - in_supply(before, TokenKind.PROFIT)
    if returned != lobbied or after.profit != before.profit:
        return f"{action}: the {lobbied} Profit on the card go back to the Company's supply"
    card = before.market[action.space]
    frame = [*_MOVEMENT_TABLE, "m_hand", "market", "market_profit", *TURN_START]
    match space.action:
        case MarketAction.REFRESH:
            table.refresh(1)
        case MarketAction.RESEARCH:
            table.gain(TokenKind.INFLUENCE, 2 * table.face_up(before, "research"))
        case MarketAction.MESSAGING | MarketAction.AGITATION:
            # A choice follows, worked with the icons of the cards face up once the payment is made.
            return (table.compare(after, action) or _action_icons(before, action, after, space.action, table)
                    or unchanged_except(before, after, (*frame, "m_deck", "m_discard"), action))
        case _:
            # Organize is a choice that follows; here only the payment is done.
            return table.compare(after, action) or unchanged_except(before, after, (*frame, "m_deck", "m_discard"),
                                                                     action)
    problem = table.compare(after, action)
    if problem is not None:
        return problem
    if after.m_hand != sorted_cards((*before.m_hand, card)) or after.market[action.space] != NO_CARD:
        return f"{action}: card {card} goes from space {action.space} to the hand after the Action"
    return unchanged_except(before, after, frame, action)


_ICON_STEPS: dict[MarketAction, tuple[str, type[Messaging] | type[Agitation]]] = {
    MarketAction.MESSAGING: ("messaging", Messaging),
    MarketAction.AGITATION: ("agitation", Agitation),
}
"""Buying a Card: the Actions worked with the icons of face-up Tableau cards, each with its icon and its choice step."""


def _action_icons(before: GameState, action: MovementBuy, after: GameState, kind: MarketAction,
                  table: _Table) -> str | None:
    """Buying a Card, Messaging and Agitation: the Action counts every icon of its kind on the cards face up after
    the payment (`table`), a card with two icons twice, a face-down card (one just flipped to pay included) never.

    The choice that follows carries that count; a choice with nothing to choose passes by itself, so when none
    is pending the same count must leave nothing to choose either.
    """
    icon, step_type = _ICON_STEPS[kind]
    icons = table.face_up(before, icon)
    head = after.pending[0] if after.pending else None
    if isinstance(head, step_type):
        if head.icons != icons:
            return (f"{action}: the {kind.value} Action counts {head.icons} icons; the cards face up after the "
                    f"payment show {icons}")
        return None
    if after.outcome is None and choice_actions(after, step_type(icons=icons)):
        return (f"{action}: the {kind.value} Action passed with nothing to choose, yet the {icons} icons of the cards "
                "face up after the payment give it choices")
    return None


def _action_icons_offers(state: GameState) -> str | None:
    """On each Movement turn below the hand limit, buy each Messaging and Agitation space with a Tableau that shows
    the Action's icons face up (a card with two of them among them) and face down, paid with tokens and once more
    by flipping a face-up card with the icons.

    Buying a Card: Messaging and Agitation are worked with the icons of face-up Tableau cards, counted icon by icon;
    flipped cards, those flipped to pay for the buy among them, do not act (Cards). Generated games seldom buy these
    spaces with such a Tableau: the Movement's cards off the Tableau (in turn with the round) are laid at its right
    end, the one with the most icons face up and another with the icons face down, and the Movement is given the
    space's price in Influence from the supply. Each buy is checked by `rule.movement-buy`.
    """
    if not _movement_turn(state) or len(state.m_hand) >= hand_limit(state):
        return None
    movement = state.game.movement_card
    index = TOKEN_INDEX[TokenKind.INFLUENCE]
    off = sorted({*state.m_deck, *state.m_discard})
    room = state.cards.rules.tableau_limit - len(state.tableau)
    for space, market_card in enumerate(state.market):
        kind = state.cards.market[space].action
        if market_card == NO_CARD or kind not in _ICON_STEPS or room < 2:
            continue
        icon = _ICON_STEPS[kind][0]
        showing = [c for c in off if getattr(movement(c).icons, icon)]
        if len(showing) < 2:
            continue
        most = max(getattr(movement(c).icons, icon) for c in showing)
        strong = [c for c in showing if getattr(movement(c).icons, icon) == most]
        up = strong[state.round % len(strong)]
        rest = [c for c in showing if c != up]
        down = rest[state.round % len(rest)]
        price = state.cards.market[space].cost + state.market_profit[space]
        short = max(0, price - state.influence)
        if short > state.supply[index]:
            continue
        supply = list(state.supply)
        supply[index] -= short
        probe = replace(state, tableau=(*state.tableau, (down, False), (up, True)),
                        m_deck=minus(state.m_deck, (up, down)), m_discard=minus(state.m_discard, (up, down)),
                        influence=state.influence + short, supply=tuple(supply))
        flipped = len(probe.tableau) - 1
        offered = [a for a in engine.legal_actions(probe) if isinstance(a, MovementBuy) and a.space == space
                   and a.flip in ((), (flipped,))]
        for buy in offered:
            message = _movement_buy(probe, buy, engine.apply(probe, buy))
            if message is not None:
                return (f"what if the Tableau were {list(probe.tableau)} with {probe.influence} Influence: "
                        f"{message}")
    return None


def _refresh_offers(state: GameState) -> str | None:
    """On each Movement turn below the hand limit, buy each Refresh space by flipping the leftmost face-up card that
    can pay for it.

    Buying a Card: Refresh turns the leftmost face-down card of the Tableau face up, once the buy is paid for, so a
    card just flipped to pay is refreshed at once when no face-down card lies to its left. Generated games pick a
    Refresh buy paid so only now and then; the buy offered with the leftmost flip (and the fewest cards flipped
    with it) is made as a what-if and checked by `rule.movement-buy`.
    """
    if not _movement_turn(state) or len(state.m_hand) >= hand_limit(state):
        return None
    spaces = state.cards.market
    for space, card in enumerate(state.market):
        if card == NO_CARD or spaces[space].action is not MarketAction.REFRESH:
            continue
        flipped = [a for a in legal(state) if isinstance(a, MovementBuy) and a.space == space and a.flip]
        if not flipped:
            continue
        buy = min(flipped, key=lambda a: (min(a.flip), len(a.flip), a.flip))
        message = _movement_buy(state, buy, engine.apply(state, buy))
        if message is not None:
            return f"what if the Movement bought the Refresh space {space} by flipping {list(buy.flip)}: {message}"
    return None


def _lobbied_buy_offers(state: GameState) -> str | None:
    """On each Movement turn below the hand limit, buy each Market card with one, two and three Profit on it.

    Buying a Card: a card costs its space's cost plus one Influence per Profit the Company lobbied onto
    it, and that Profit goes back. Generated games seldom have the Movement buy a lobbied card, so the
    Profit is put on from the supply and the Movement given exactly the price in Influence tokens (no
    Flight): the buy paid with tokens alone must be offered at the price, not at one less, and do what
    `rule.movement-buy` says. Two Market cards a turn, in turn with the round, so that every space is
    bought within a few rounds at a third of the cost; the hand goes to the discard pile first (a buy does
    not depend on it, and without it the engine lists no plays).
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN or len(state.m_hand) >= hand_limit(state):
        return None
    state = replace(state, m_hand=(), m_discard=sorted_cards(state.m_discard + state.m_hand))
    profit, influence, flight = (TOKEN_INDEX[k] for k in (TokenKind.PROFIT, TokenKind.INFLUENCE, TokenKind.FLIGHT))
    spaces = [space for space, card in enumerate(state.market) if card != NO_CARD]
    for space in sorted({spaces[(2 * state.round + k) % len(spaces)] for k in range(min(2, len(spaces)))}):
        for lobbied in range(1, 4):
            price = state.cards.market[space].cost + lobbied
            supply = list(state.supply)
            supply[profit] -= lobbied - state.market_profit[space]
            supply[influence] -= price - state.influence
            supply[flight] += state.flight
            if supply[profit] < 0 or supply[influence] < 0:
                continue
            probe = replace(
                state, market_profit=(*state.market_profit[:space], lobbied, *state.market_profit[space + 1:]),
                influence=price, flight=0, supply=tuple(supply))
            buy = MovementBuy(space, ())
            if buy not in engine.legal_actions(probe):
                return (f"with {lobbied} Profit on space {space} (cost {state.cards.market[space].cost}), buying "
                        f"it with {price} Influence tokens is not offered")
            supply[influence] += 1
            short = replace(probe, influence=price - 1, supply=tuple(supply))
            if buy in engine.legal_actions(short):
                return (f"with {lobbied} Profit on space {space} (cost {state.cards.market[space].cost}), buying "
                        f"it with {price - 1} Influence tokens is offered")
            message = _movement_buy(probe, buy, engine.apply(probe, buy))
            if message is not None:
                return f"buying space {space} with {lobbied} Profit on it: {message}"
    return None


def _pass(before: GameState, action: Action, after: GameState) -> str | None:
    """On Your Go, Pass: one Influence, two with none at all (ruling pass-bonus)."""
    if not isinstance(action, Pass):
        return None
    none = before.influence == 0
    if before.rulings.get("pass-bonus") == "no-influence":
        none = none and not any(up for _, up in before.tableau)
    table = _Table.of(before)
    table.gain(TokenKind.INFLUENCE, 2 if none else 1)
    if after.influence != table.influence:
        return f"passing with {before.influence} Influence left {after.influence}; the rule gives {table.influence}"
    return unchanged_except(before, after, ("influence", "supply", *TURN_START), action)


def _pass_offers(state: GameState) -> str | None:
    """On each Movement turn, Pass is offered; and Pass with no Influence token, once with every Tableau card face
    down and once with only its first card face up, as a what-if.

    Ruling pass-bonus: under no-tokens (the default) both Passes gain two Influence, the Tableau aside; under
    no-influence only the first does, a face-up card being Influence held. A Movement that runs out of tokens
    with its whole Tableau spent is rare in generated games (and the no-influence reading is only played in the
    ruling variants), so the situation is built: the Influence tokens go back to the supply and the Tableau is
    turned over, nothing else changed.
    """
    if not _movement_turn(state):
        return None
    if Pass() not in engine.legal_actions(state):
        # Movement On Your Go: Pass is one of the three actions, open on every turn (not only when nothing else is)
        return "the Movement's turn does not offer Pass"
    if not state.tableau:
        return None
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] += state.influence
    down = tuple((card, False) for card, _ in state.tableau)
    for tableau in (down, ((down[0][0], True), *down[1:])):
        # `rule.pass` holds each to what the ruling gives, from the state before
        probe = replace(state, influence=0, supply=tuple(supply), tableau=tableau)
        message = _pass(probe, Pass(), engine.apply(probe, Pass()))
        if message is not None:
            shown = "".join("U" if up else "D" for _, up in tableau)
            return (f"what if the Movement passed with no Influence token and the Tableau {shown} (U face up), "
                    f"ruling pass-bonus={state.rulings.get('pass-bonus')}: {message}")
    return None


def _cheapest_message(state: GameState) -> float:
    """Messaging: the least a Message costs in `state` (the bottom Doubt of a column, or one for a Victim of a
    Zone with no Doubt left); infinite when there is nothing to remove."""
    cheapest = [Message(zone, 1, 0) if state.doubt[zone] else Message(zone, 0, 1) for zone in Zone
                if state.doubt[zone] or state.victims[zone]]
    return min((messaging_price(state, message) for message in cheapest), default=float("inf"))


def messaging_check(before: GameState, action: Action, after: GameState) -> str | None:
    """Messaging: each Victim removed goes back to the Company's supply and gains the Movement one Influence;
    under ruling messaging-zones=one-zone the action then ends (one Messaging targets one Zone), under
    any-zones it goes on with the icon Messaging this Zone left unused."""
    if not isinstance(action, Message) or not before.pending or not isinstance(before.pending[0], Messaging):
        return None
    zone, victims = action.zone, action.victims
    if before.rulings.get("messaging-zones") == "one-zone" and any(isinstance(s, Messaging) for s in after.pending):
        return (f"{action} targeted {zone.key}, yet the Messaging goes on with another choice: it targets one Zone "
                "(ruling messaging-zones=one-zone)")
    if before.rulings.get("messaging-zones") == "any-zones":
        # The same Messaging goes on to another Zone, with the icon Messaging this Zone did not use.
        icons, price = before.pending[0].icons, messaging_price(before, action)
        left = max(0, icons - price)
        follow = after.pending[0] if after.pending else None
        if isinstance(follow, Messaging):
            if follow.icons != left:
                return (f"{action} cost {price}, paid first from the {icons} icon Messaging: the Messaging goes on "
                        f"with {left} icons (ruling messaging-zones=any-zones), not {follow.icons}")
        elif _cheapest_message(after) <= left + after.messaging:
            # A choice with nothing to choose passes by itself, so the Messaging may end only if nothing is affordable.
            return (f"{action} ended the Messaging, yet {left} icon Messaging and {after.messaging} tokens still pay "
                    f"for a Message costing {_cheapest_message(after)} (ruling messaging-zones=any-zones)")
    if after.victims[zone] != before.victims[zone] - victims or any(
            after.victims[z] != before.victims[z] for z in range(len(before.victims)) if z != zone):
        return f"{action} took the Victims from {list(before.victims)} to {list(after.victims)}"
    if in_supply(after, TokenKind.VICTIMS) != in_supply(before, TokenKind.VICTIMS) + victims:
        return f"{action}: the {victims} Victims go back to the Company's supply"
    table = _Table.of(before)
    table.gain(TokenKind.INFLUENCE, victims)
    if after.influence != table.influence:
        return f"{action} left {after.influence} Influence; removing {victims} Victims gives {table.influence}"
    return unchanged_except(before, after, ("victims", "doubt", "messaging", "influence", "supply", "m_hand", "market",
                                  *TURN_START), action)


def _goal(before: GameState, action: Action, after: GameState) -> str | None:
    """Agitation and Goals: achieve the Goal when icons and tokens cover its cost (plus its Profit, less the
    Agitation on it), with exactly its effects; otherwise the Agitation stays on it as progress
    (`_goal_progress`)."""
    if not isinstance(action, Agitate) or not before.pending or not isinstance(before.pending[0], Agitation):
        return None
    icons, slot = before.pending[0].icons, action.slot
    number = before.goals[slot]
    goal = before.game.goal(number)
    need = goal.cost + before.goal_profit[slot] - before.goal_agitation[slot]
    if after.agitation != before.agitation - action.tokens:
        return f"{action} left {after.agitation} Agitation tokens; {action.tokens} were spent"
    frame = ["goals", "goal_profit", "goal_agitation", "achieved", "agitation", "supply", "m_hand", "market",
             *TURN_START]
    if icons + action.tokens < need:
        if after.goals != before.goals or after.achieved != before.achieved:
            return f"{action} achieved Goal {number} with {icons + action.tokens} Agitation of the {need} it needs"
        return _goal_progress(before, action, after, icons) or unchanged_except(
            before, after, ("goal_agitation", "agitation", "supply", "m_hand", "market", *TURN_START), action)
    if after.goals[slot] != NO_CARD or after.achieved != (*before.achieved, number):
        return f"{action} with {icons + action.tokens} Agitation of {need} did not achieve Goal {number}"
    if after.goal_profit[slot] or after.goal_agitation[slot] or after.profit != before.profit:
        return f"{action}: achieving Goal {number} returns its Profit to the Company's supply and clears its Agitation"
    # The tokens spent now and those left on the Goal as progress all go back to the supply.
    agitation = TOKEN_INDEX[TokenKind.AGITATION]
    returned = action.tokens + before.goal_agitation[slot]
    if after.supply[agitation] - before.supply[agitation] != returned:
        return (f"{action}: achieving Goal {number} put {after.supply[agitation] - before.supply[agitation]} "
                f"Agitation back in the supply; the {action.tokens} spent and the {before.goal_agitation[slot]} on "
                f"the Goal make {returned}")
    # Exactly the Goal's effects: its bans, its Restriction cards, its Flight and Influence.
    bans: list[str] = []
    for effect in goal.effects:
        if isinstance(effect, Ban) and effect.kind not in before.banned and effect.kind not in bans:
            bans.append(effect.kind)
    bans = bans[:in_supply(before, TokenKind.BANS)]
    if after.banned != tuple(sorted((*before.banned, *bans))):
        return f"achieving Goal {number} ({goal.name}) banned {list(after.banned)}; it bans {sorted(bans)} more"
    restrictions = sum(e.count for e in goal.effects if isinstance(e, AddRestriction))
    piles, discard = list(before.piles), list(before.c_discard)
    pile = next((i for i, p in enumerate(before.cards.piles) if p.kind == "restriction"), None)
    if pile is not None:
        for _ in range(restrictions):
            if piles[pile]:
                discard.append(piles[pile][-1])
                piles[pile] = piles[pile][:-1]
    if after.trash != before.trash:
        return (f"achieving Goal {number} ({goal.name}) took the trash pile {list(before.trash)} to "
                f"{list(after.trash)}; its Restriction cards come from the Restrictions pile only")
    if after.piles != tuple(piles) or after.c_discard != sorted_cards(discard):
        return (f"achieving Goal {number} ({goal.name}) left the discard pile {list(after.c_discard)}; "
                f"it adds {restrictions} Restriction card(s) from the pile: {sorted_cards(discard)}")
    table = _Table.of(before)
    table.gain(TokenKind.FLIGHT, sum(e.count for e in goal.effects if isinstance(e, GainFlight)))
    table.gain(TokenKind.INFLUENCE, sum(e.count for e in goal.effects if isinstance(e, GainInfluence)))
    if after.flight != table.flight or after.influence != table.influence:
        return (f"achieving Goal {number} left Flight {after.flight} and Influence {after.influence}; "
                f"its effects give {table.flight} and {table.influence}")
    points = sum(before.game.goal(g).points for g in after.achieved)
    won = after.outcome is not None and after.outcome.reason is OutcomeReason.GOAL_VICTORY
    if won is not (points >= before.cards.rules.goal_points_to_win):
        return f"with {points} Goal points achieved the game {'ended' if won else 'went on'}"
    return unchanged_except(before, after, (*frame, "banned", "piles", "c_discard", "flight", "influence"), action)


def _goal_progress(before: GameState, action: Agitate, after: GameState, icons: int) -> str | None:
    """Agitation and Goals, a Goal not achieved: the icon Agitation is converted to tokens (as far as the supply
    holds them, ruling supply-exhausted) and left on the Goal with the tokens spent, as progress for a later
    Agitation; no Agitation goes back to the supply."""
    slot, index = action.slot, TOKEN_INDEX[TokenKind.AGITATION]
    converted = min(icons, before.supply[index])
    progress = before.goal_agitation[slot] + converted + action.tokens
    expected = (*before.goal_agitation[:slot], progress, *before.goal_agitation[slot + 1:])
    if after.goal_agitation != expected:
        return (f"{action} left the Agitation on the Goals at {list(after.goal_agitation)}; Goal place {slot} "
                f"holds {before.goal_agitation[slot]}, gains {converted} converted from the {icons} icons and the "
                f"{action.tokens} tokens spent: {list(expected)}")
    supply = list(before.supply)
    supply[index] -= converted
    if after.supply != tuple(supply):
        return (f"{action} took the supply from {list(before.supply)} to {list(after.supply)}; converting "
                f"{converted} icon Agitation to tokens takes exactly those from it: {supply}")
    return None


def _pacing(before: GameState, action: Action, after: GameState) -> str | None:
    """Pacing, after the Company's Reshuffle Sequence: passives (and Refresh passives), the Market's shift, Flight.

    Checked on the step that ends the Company's turn after a Reshuffle (its last draw): it runs step 1
    and the shift of step 2, and stops at the refill's first draw, or, with nothing to refill, runs on
    to step 3 and the Movement's turn.
    """
    if (before.phase is not Phase.COMPANY_DRAW or after.outcome is not None
            or after.phase not in (Phase.PACING, Phase.MOVEMENT_TURN) or not _reshuffled_this_turn(before)):
        return None
    table = _Table.of(before)
    influence = messaging = agitation = refreshes = 0
    for card, up in before.tableau:
        if up:
            passive = before.game.movement_card(card).passive
            influence, messaging = influence + passive.influence, messaging + passive.messaging
            agitation, refreshes = agitation + passive.agitation, refreshes + passive.refresh
    for goal in before.achieved:
        passive = before.game.goal(goal).passive
        influence, messaging = influence + passive.influence, messaging + passive.messaging
        agitation += passive.agitation
    table.gain(TokenKind.INFLUENCE, influence)
    table.gain(TokenKind.MESSAGING, messaging)
    table.gain(TokenKind.AGITATION, agitation)
    table.refresh(refreshes)
    if after.phase is Phase.MOVEMENT_TURN:
        table.flight, table.flight_spent = table.flight + table.flight_spent, 0
    problem = table.compare(after, action)
    if problem is not None:
        return f"Pacing: {problem}"
    # Step 2: the cards close up in reading order and keep their Lobbying; the refill draws come later.
    held = [(c, p) for c, p in zip(before.market, before.market_profit, strict=True) if c != NO_CARD]
    shifted = [(c, p) for c, p in zip(after.market, after.market_profit, strict=True)][:len(held)]
    if shifted != held:
        return f"Pacing shifted the Market {list(before.market)} to {list(after.market)}; the cards close up in order"
    return None


def _reshuffled_this_turn(state: GameState) -> bool:
    """Whether the Company's Draw Phase in progress ran the Reshuffle Sequence (Pacing follows it)."""
    return state.phase is Phase.COMPANY_DRAW and _sequence_ran(state)


def _sequence_ran(state: GameState) -> bool:
    """Whether the Company's last Draw Phase (or the one in progress) ran the Reshuffle Sequence.

    Read from the Company's discard pile, not from the engine's pending steps (an engine that forgot
    Pacing would say no): the Sequence shuffles the discards into the deck, while any other Draw
    Phase discards at least the card bought that turn (a turn without a buy is an Economic Defeat).
    """
    return not state.c_discard


def _pacing_refill(before: GameState, action: Action, after: GameState) -> str | None:
    """Pacing: after the Company's Reshuffle Sequence and before the Movement's turn, the Market moves up
    and is refilled and the spent Flight comes back; after any other Draw Phase none of Pacing happens: no
    passive gains or refreshes, no shift, no Flight back, the step that draws the last card changing nothing
    but the Company's deck and hand and the turn (`rule.pacing` checks the passives and the shift on the step
    that starts Pacing).

    Checked on the step that starts the Movement's turn; whether a Sequence ran: `_sequence_ran`.
    """
    if (after.outcome is not None or after.phase is not Phase.MOVEMENT_TURN
            or before.phase not in (Phase.COMPANY_DRAW, Phase.PACING) or after.round != before.round + 1):
        return None
    if not _sequence_ran(after):
        if before.phase is Phase.PACING:
            return "Pacing ran after a Draw Phase without the Reshuffle Sequence"
        if after.market != before.market or after.flight_spent != before.flight_spent:
            return ("a Draw Phase without the Reshuffle Sequence changed the Market or the spent Flight, which "
                    "only Pacing does")
        # Nor do the passives act (step 1): the last card drawn hands the turn over and changes nothing else.
        changed = unchanged_except(before, after, ("c_deck", "c_hand", "phase", "pending", "round"), action)
        if changed is not None:
            return f"a Draw Phase without the Reshuffle Sequence ended as only Pacing may: {changed}"
        return None
    if after.flight_spent:
        return f"after Pacing {after.flight_spent} spent Flight tokens were not reclaimed"
    held = [card for card in after.market if card != NO_CARD]
    empty = len(after.market) - len(held)
    if after.market != tuple(held) + (NO_CARD,) * empty:
        return f"after Pacing the Market {list(after.market)} has an empty space before a card (ruling market-shift)"
    if empty and (after.m_deck or after.m_discard):
        return (f"after Pacing {empty} Market spaces are empty while the Market deck or the discards hold cards "
                "(ruling market-shift)")
    return None


def _first_buy(state: GameState) -> bool:
    """The Company's first buy of a turn (where `rule.pacing-offers` plays its Reshuffle)."""
    return at_rest(state) and state.phase is Phase.COMPANY_BUY and state.buys == 1


def _movement_turn(state: GameState) -> bool:
    """The Movement's turn, nothing pending (where the Movement's what-ifs build their situations)."""
    return at_rest(state) and state.phase is Phase.MOVEMENT_TURN


def _pacing_offers(state: GameState) -> str | None:
    """At the Company's first buy of a turn, play its Draw Phase through a Reshuffle and the Pacing after it, with
    a Tableau whose first card to be refreshed has a token passive, and the Market deck spent into the discards.

    Pacing step 1 gains the token passives of the cards face up before the Refresh passives flip any
    (`rule.pacing`); step 2 refills the Market, and a spent Market deck is renewed from the Movement's
    discards (Movement Cards > Discard; `rule.pacing-refill`). Generated games reach few Reshuffles, seldom
    with such a Tableau, and never with the Market deck spent: here the Company's deck goes to its
    discards (so the Sequence runs at once), a card with a Refresh passive lies face up and, at the
    Tableau's left end, one with a token passive face down (both taken from the Movement's cards off
    the Market), a Market card without Lobbying goes to the discards as if removed, and the Market deck
    joins them. Each step up to the Movement's turn (first chance outcome and first choice) is checked.
    """
    if not _first_buy(state):
        return None
    probe = _pacing_tableau(state)
    gap = next((i for i, card in enumerate(state.market) if card != NO_CARD and not state.market_profit[i]), None)
    if probe is None or gap is None:
        return None
    market = tuple(NO_CARD if i == gap else card for i, card in enumerate(probe.market))
    probe = replace(probe, c_deck=(), c_discard=sorted_cards(probe.c_deck + probe.c_discard), m_deck=(),
                    m_discard=sorted_cards((*probe.m_deck, *probe.m_discard, probe.market[gap])),
                    market=market)
    action: Action = EndBuy()
    before = probe
    after = engine.apply(before, action)
    for _ in range(100):
        message = _pacing(before, action, after) or _pacing_refill(before, action, after)
        if message is not None:
            return (f"what if the Tableau were {list(probe.tableau)} and the Market {list(probe.market)} with the "
                    f"Market deck spent into the discards: {message}")
        if after.outcome is not None or (after.phase is Phase.MOVEMENT_TURN and not after.pending):
            return None
        before, action = after, engine.legal_actions(after)[0]
        after = engine.apply(before, action)
    return "the Draw Phase and Pacing did not reach the Movement's turn in 100 steps"


def _pacing_tableau(state: GameState) -> GameState | None:
    """`state` with a card with a Refresh passive face up in the Tableau and, at its left end, one with a token
    passive (and no Refresh passive) face down, both taken from the Movement's cards off the Market (in turn
    with the round); None if it has no such two. Tableau cards beyond the limit go to the discards."""
    movement = state.game.movement_card
    cards = sorted({*state.m_deck, *state.m_discard, *state.m_hand, *(c for c, _ in state.tableau)})
    refreshers = [c for c in cards if movement(c).passive.refresh]
    earners = [c for c in cards if not movement(c).passive.refresh and (
        (p := movement(c).passive).influence or p.messaging or p.agitation)]
    if not refreshers or not earners:
        return None
    pair = refresher, earner = refreshers[state.round % len(refreshers)], earners[state.round % len(earners)]
    rest = [(c, up) for c, up in state.tableau if c not in pair]
    keep = state.cards.rules.tableau_limit - 2
    tableau = ((earner, False), *rest[:keep], (refresher, True))
    return replace(
        state, tableau=tableau, m_deck=minus(state.m_deck, pair), m_hand=minus(state.m_hand, pair),
        m_discard=sorted_cards((*minus(state.m_discard, pair), *(c for c, _ in rest[keep:]))))


def _agitation_applies(state: GameState) -> bool:
    """An Agitation choice pending (where `rule.agitation-offers` asks its question)."""
    return state.outcome is None and bool(state.pending) and isinstance(state.pending[0], Agitation)


def _agitation_offers(state: GameState) -> str | None:
    """At an Agitation choice, each Goal offered takes from no tokens up to what it still needs, and with one and
    two Agitation already on it (progress is rare in generated games, and so are tokens to spend: the
    what-if holds nine) one and two tokens fewer.

    The same is asked of an Agitation with no icon and with one (generated games mostly bring two or
    more), and of a Goal already paid for (its Agitation at its cost plus its Profit, or one beyond: the
    Company took back Lobbying after progress was placed), which is claimed with no new Agitation. Spending
    is the player's choice (unspent tokens stay), so declining is offered whenever some Goal is.
    """
    if not _agitation_applies(state):
        return None
    from doubtspec.model.legal import choice_actions

    pending = cast(Agitation, state.pending[0])  # what `_agitation_applies` asked
    slots = sorted({a.slot for a in legal(state) if isinstance(a, Agitate)})
    for slot in slots:
        full = state.game.goal(state.goals[slot]).cost + state.goal_profit[slot]
        for icons in sorted({pending.icons, 0, 1}):
            step = Agitation(icons=icons)
            for progress, held in ((state.goal_agitation[slot], state.agitation), (1, 9), (2, 9), (full, 9),
                                   (full + 1, 9)):
                # With nine tokens held the offer is bounded by the Goal's need, not by the tokens.
                agitation = (*state.goal_agitation[:slot], progress, *state.goal_agitation[slot + 1:])
                probe = replace(state, goal_agitation=agitation, agitation=max(held, state.agitation))
                need = full - progress
                top = min(probe.agitation, max(0, need - icons))
                expected = {t for t in range(top + 1) if icons + t > 0 or need <= 0}
                choices = choice_actions(probe, step)
                offered = {a.tokens for a in choices if isinstance(a, Agitate) and a.slot == slot}
                if (Skip(Side.MOVEMENT) in choices) is not any(isinstance(a, Agitate) for a in choices):
                    return (f"with {progress} Agitation on Goal place {slot} and {icons} from icons the engine "
                            f"offers {[str(a) for a in choices]}: declining (spending nothing) is offered exactly "
                            "when some Goal is")
                if offered != expected:
                    return (f"with {progress} Agitation on Goal place {slot} (needing {need}, {icons} from icons, "
                            f"{probe.agitation} tokens held) the engine offers {sorted(offered)} tokens, not "
                            f"{sorted(expected)}")
    return None


_PYRAMID_ROWS = (4, 3, 2)
"""Movement Set-Up 2 and ruling goal-overlap=pyramid: places 0-3 in the first row, 4-6 on them, 7-8 on top."""


def _pyramid_available(goals: tuple[int, ...]) -> set[int]:
    """The places whose Goal is unobstructed: a card of the next row lies across the two cards it sits between."""
    starts = [sum(_PYRAMID_ROWS[:r]) for r in range(len(_PYRAMID_ROWS))]
    free = set()
    for row, size in enumerate(_PYRAMID_ROWS):
        for i in range(size):
            place = starts[row] + i
            above = [] if row + 1 == len(_PYRAMID_ROWS) else [
                starts[row + 1] + j for j in (i - 1, i) if 0 <= j < _PYRAMID_ROWS[row + 1]]
            if goals[place] != NO_CARD and all(goals[a] == NO_CARD for a in above):
                free.add(place)
    return free


def _goal_structure_applies(state: GameState) -> bool:
    """A Movement turn, nothing pending, with the nine places of a pyramid of Goals (ruling goal-overlap)."""
    return (_movement_turn(state) and state.rulings.get("goal-overlap") == "pyramid"
            and len(state.goals) == sum(_PYRAMID_ROWS))


def _goal_structure_offers(state: GameState) -> str | None:
    """On each Movement turn, the Goals an Agitation may work on are exactly the unobstructed ones.

    Agitation and Goals: only a Goal no other card covers is available (ruling goal-overlap); with
    icons enough for any Goal, the places offered must be the structure's free places.
    """
    if not _goal_structure_applies(state):
        return None
    offered = {a.slot for a in icon_agitations(state)[1]}
    free = _pyramid_available(state.goals)
    if offered != free:
        return (f"with the Goal structure {list(state.goals)}, Agitation was offered places {sorted(offered)}; "
                f"the unobstructed ones are {sorted(free)}")
    return None


def _goal_offers(state: GameState) -> str | None:
    """On each Movement turn, achieve each available Goal with Agitation to spare and check what it does,
    also with the Restrictions pile empty (and, for the Goals that add a Restriction card, with one of its
    cards on the trash pile), and once more with one Agitation already on it and one token spent.

    What a Goal does to the Company (its bans, its Restriction card) happens only when a Goal is
    achieved, which generated games reach late; an Agitation with icons enough for any Goal, answered
    for each available Goal, checks `rule.goal` for every Goal the structure offers, every turn. A Goal
    achieved over several turns (progress on it, then tokens) is rarer still, and it is the one case
    where tokens from two places go back to the supply at once.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN:
        return None
    situations = [("", state, False)]
    pile = next((i for i, p in enumerate(state.cards.piles) if p.kind == "restriction"), None)
    if pile is not None and state.piles[pile]:
        # The Restrictions pile already emptied by earlier Goals (its cards in the Company's discard pile):
        # a Goal's Restriction card then adds nothing, a state generated games hardly ever reach.
        emptied = replace(state, piles=tuple(() if i == pile else p for i, p in enumerate(state.piles)),
                          c_discard=sorted_cards(state.c_discard + state.piles[pile]))
        situations.append((" with the Restrictions pile empty", emptied, False))
    if pile is not None:
        trashed = _restriction_on_trash(state, pile)
        if trashed is not None:
            situations.append((" with the Restrictions pile empty and a Restriction card on the trash pile",
                               trashed, True))
    available: set[int] = set()
    for situation, base, restricting in situations:
        probe, agitations = icon_agitations(base)
        for action in agitations:
            effects = probe.game.goal(probe.goals[action.slot]).effects
            if restricting and not any(isinstance(e, AddRestriction) for e in effects):
                continue  # the trash pile matters only to a Goal that adds a Restriction card
            if action.tokens == 0:
                if not situation:
                    available.add(action.slot)
                try:
                    after = engine.apply(probe, action)
                except Exception as exc:  # the engine failing on a legal Goal is the finding
                    return f"achieving the Goal at place {action.slot}{situation} raised {type(exc).__name__}: {exc}"
                message = _goal(probe, action, after)
                if message is not None:
                    return f"achieving the Goal at place {action.slot}{situation}: {message}"
    return _goal_progress_offers(state, available)


def _lobbied_goal_applies(state: GameState) -> bool:
    """A Movement turn, nothing pending, under a ruling that lets the Company lobby Goals."""
    return _movement_turn(state) and state.rulings.get("lobby-targets") == "market-and-goals"


def _lobbied_goal_offers(state: GameState) -> str | None:
    """On each Movement turn, agitate each available Goal carrying Company Profit with exactly its printed cost
    (less the Agitation on it), and with that cost plus the Profit.

    Agitation and Goals: each Profit the Company lobbied onto a Goal raises its cost by one (the section's
    printed example counts it in the Agitation still needed). Generated games seldom have the Movement
    agitate a lobbied Goal, so one to three Profit (in turn with the round and the place) are put on each
    available Goal from the Company's supply and an Agitation of icons alone is pending: the printed cost
    must leave the Goal in the structure with the Agitation on it (`rule.goal`), the cost plus the Profit
    must achieve it. Not under ruling lobby-targets=market-only, where no Goal carries Profit.
    """
    if not _lobbied_goal_applies(state):
        return None
    from doubtspec.model.legal import choice_actions

    index = TOKEN_INDEX[TokenKind.PROFIT]
    for slot in sorted({a.slot for a in icon_agitations(state)[1]}):
        lobbied = 1 + (state.round + slot) % 3
        printed, progress = state.game.goal(state.goals[slot]).cost, state.goal_agitation[slot]
        if printed - progress < 1 or lobbied - state.goal_profit[slot] > state.supply[index]:
            continue
        supply = list(state.supply)
        supply[index] -= lobbied - state.goal_profit[slot]
        profit = (*state.goal_profit[:slot], lobbied, *state.goal_profit[slot + 1:])
        for icons in (printed - progress, printed - progress + lobbied):
            step = Agitation(icons=icons)
            probe = replace(state, pending=(step,), goal_profit=profit, supply=tuple(supply))
            action = Agitate(slot, 0)
            where = (f"with {lobbied} Profit on Goal {state.goals[slot]} at place {slot} (printed cost {printed}, "
                     f"{progress} Agitation on it), an Agitation of {icons} icons")
            if action not in choice_actions(probe, step):
                return f"{where} is not offered to work on it"
            after = engine.apply(probe, action)
            achieved = after.goals[slot] == NO_CARD
            if achieved is not (icons >= printed - progress + lobbied):
                return (f"{where} {'achieved' if achieved else 'did not achieve'} it; it needs "
                        f"{printed - progress + lobbied}")
            message = _goal(probe, action, after)
            if message is not None:
                return f"{where}: {message}"
    return None


def _restriction_on_trash(state: GameState, pile: int) -> GameState | None:
    """`state` with the Restrictions pile (`pile`) empty and one Restriction card on top of the trash pile.

    Agitation and Goals: a Goal adds a Restriction card only from the Restrictions pile, never from the
    trash pile (ruling restriction-source). Generated games seldom put one there (the Company must buy it,
    under ruling restriction-pile-buy=buyable, and shred it): the pile's top card goes on the trash pile and
    the rest to the Company's discard pile; with the pile spent already, a Restriction card the Company
    holds goes there instead (None if it holds none).
    """
    cards = state.piles[pile]
    if cards:
        return replace(state, piles=tuple(() if i == pile else p for i, p in enumerate(state.piles)),
                       c_discard=sorted_cards(state.c_discard + cards[:-1]),
                       trash=(*state.trash, cards[-1]))
    kind = state.cards.piles[pile].kind
    card = next((c for c in (*state.c_discard, *state.c_deck, *state.c_hand)
                 if state.game.company_card(c).kind == kind), None)
    if card is None:
        return None
    gone = (card,)  # from whichever of the three holds it
    return replace(state, c_discard=minus(state.c_discard, gone), c_deck=minus(state.c_deck, gone),
                   c_hand=minus(state.c_hand, gone), trash=(*state.trash, card))


def _goal_progress_offers(state: GameState, available: set[int]) -> str | None:
    """`_goal_offers` for each `available` Goal place with one Agitation on it, achieved with icons and one
    token (both from the supply)."""
    from doubtspec.model.legal import choice_actions

    index = TOKEN_INDEX[TokenKind.AGITATION]
    short = max(0, 1 - state.agitation)
    if state.supply[index] < 1 + short:
        return None
    supply = list(state.supply)
    supply[index] -= 1 + short
    for slot in sorted(available):
        full = state.game.goal(state.goals[slot]).cost + state.goal_profit[slot]
        if full < 2 or state.goal_agitation[slot]:
            continue  # the progress alone would pay for it, or the Goal has progress of its own already
        step = Agitation(icons=full - 2)
        agitation = (*state.goal_agitation[:slot], 1, *state.goal_agitation[slot + 1:])
        probe = replace(state, pending=(step,), goal_agitation=agitation,
                        agitation=state.agitation + short, supply=tuple(supply))
        action = Agitate(slot, 1)
        if action not in choice_actions(probe, step):
            return (f"with one Agitation on Goal place {slot} (needing {full - 1} more), {full - 2} from icons and "
                    f"{probe.agitation} tokens held, achieving it with one token is not offered")
        try:
            after = engine.apply(probe, action)
        except Exception as exc:
            return f"achieving the Goal at place {slot} over two turns raised {type(exc).__name__}: {exc}"
        message = _goal(probe, action, after)
        if message is not None:
            return f"achieving the Goal at place {slot} with one Agitation already on it: {message}"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.movement-play", "A Movement play pays its Influence (flipped cards, then Flight, then "
                        "tokens), goes to the chosen end and earns the Bonuses aligned with the adjacent face-up card.",
                        (S.PLAYING_A_CARD, S.SPENDING_INFLUENCE), movement_play_check),
    TransitionInvariant("rule.movement-buy", "A Movement buy pays the space's cost plus its Lobbying, returns the "
                        "Profit, resolves the space's Action (Messaging and Agitation with the icons face up after "
                        "the payment) and takes the card into the hand.",
                        (S.BUYING_A_CARD, S.SPENDING_INFLUENCE), _movement_buy),
    StateInvariant("rule.action-icons-offers", "Buying a Messaging or Agitation space works its Action with every "
                   "icon of its kind on the cards face up once the buy is paid for, and none of the face-down ones.",
                   (S.BUYING_A_CARD, S.MOVEMENT_CARDS), _action_icons_offers, _movement_turn),
    StateInvariant("rule.refresh-offers", "Buying a Refresh space by flipping the leftmost face-up card that pays "
                   "for it refreshes the leftmost face-down card once the buy is paid, the card just flipped included.",
                   (S.BUYING_A_CARD, S.SPENDING_INFLUENCE), _refresh_offers, _movement_turn),
    StateInvariant("rule.lobbied-buy-offers", "A Market card with one, two or three Profit on it is offered for "
                   "its space's cost plus its Profit in Influence, not one less, and buying it does what "
                   "`rule.movement-buy` says.", (S.BUYING_A_CARD, S.COMPANY_INTERFERENCE), _lobbied_buy_offers),
    StateInvariant("rule.flip-offers", "A Market card the Movement's tokens cannot pay is offered for one flipped "
                   "face-up card whose Influence covers the rest.", (S.SPENDING_INFLUENCE, S.BUYING_A_CARD),
                   _flip_offers),
    StateInvariant("rule.influence-payment-offers", "Every Movement play and buy is offered with exactly the sets "
                   "of face-up cards to flip that have no superfluous card and leave tokens enough for the rest.",
                   (S.SPENDING_INFLUENCE, S.PLAYING_A_CARD, S.BUYING_A_CARD), influence_payment_check),
    TransitionInvariant("rule.organize-play", "An Organize play puts a card from the hand at the chosen end for free, "
                        "with the Bonuses aligned with the adjacent face-up card.",
                        (S.BUYING_A_CARD, S.PLAYING_A_CARD), _organize_play),
    StateInvariant("rule.organize-offers", "Buying the Organize space's card offers a free play from the hand at "
                   "either end, which does what `rule.organize-play` says; the other empty spaces are refilled, "
                   "from the discards once the Market deck is spent, before the space's card is taken, so it stays "
                   "empty.", (S.BUYING_A_CARD, S.PLAYING_A_CARD, S.MOVEMENT_CARDS), _organize_offers),
    TransitionInvariant("rule.pass", "Passing gains one Influence, or two with none at all; nothing else changes.",
                        (S.MOVEMENT_ON_YOUR_GO,), _pass),
    StateInvariant("rule.pass-offers", "Pass is offered on every Movement turn; with no Influence token, it gains "
                   "two Influence whatever the Tableau shows, or (ruling pass-bonus=no-influence) two only while "
                   "every Tableau card is face down and one otherwise.", (S.MOVEMENT_ON_YOUR_GO,), _pass_offers,
                   _movement_turn),
    TransitionInvariant("rule.messaging", "Messaging returns each Victim removed to the Company's supply and gains "
                        "one Influence for it; it targets one Zone, or (ruling messaging-zones=any-zones) goes on "
                        "with the icon Messaging left.", (S.MESSAGING,), messaging_check),
    TransitionInvariant("rule.pacing", "Pacing after a Reshuffle gains the face-up Tableau's and the Goals' "
                        "passives, refreshes, closes up the Market in order and reclaims Flight.",
                        (S.PACING,), _pacing),
    StateInvariant("rule.pacing-offers", "A Reshuffle's Pacing, with a face-down token-passive card first to be "
                   "refreshed and the Market deck spent, gains only the face-up cards' passives before refreshing "
                   "and refills the Market from the discards (`rule.pacing`, `rule.pacing-refill`).",
                   (S.PACING, S.MOVEMENT_CARDS), _pacing_offers, _first_buy),
    TransitionInvariant("rule.pacing-refill", "The Company's Reshuffle Sequence, and only it, is followed by "
                        "Pacing: the Movement's turn starts with the Market moved up and refilled and the spent "
                        "Flight back; after any other Draw Phase it starts with no passive gained, nothing "
                        "refreshed and the Market as it was.", (S.PACING,), _pacing_refill),
    StateInvariant("rule.agitation-offers", "An Agitation offers each available Goal from no tokens up to what it "
                   "still needs (its cost, plus its Profit, less the Agitation on it, less the icons), and declining "
                   "whenever it offers a Goal.",
                   (S.AGITATION_AND_GOALS,), _agitation_offers, _agitation_applies),
    StateInvariant("rule.lobbied-goal-offers", "An available Goal carrying one, two or three Profit is not "
                   "achieved by Agitation of its printed cost (less the Agitation on it), which stays on it, and is "
                   "achieved by that plus its Profit.", (S.AGITATION_AND_GOALS, S.COMPANY_INTERFERENCE),
                   _lobbied_goal_offers, _lobbied_goal_applies),
    StateInvariant("rule.goal-structure-offers", "Agitation may work on exactly the Goals no other card of the "
                   "structure covers.", (S.AGITATION_AND_GOALS,), _goal_structure_offers,
                   _goal_structure_applies),
    StateInvariant("rule.goal-offers", "Each available Goal, achieved with Agitation to spare, does exactly what "
                   "`rule.goal` says (its bans, Restriction card, gains, points), also with the Restrictions pile "
                   "empty and a Restriction card on the trash pile, which stays there.",
                   (S.AGITATION_AND_GOALS, S.MOVEMENT_INTERFERENCE), _goal_offers),
    TransitionInvariant("rule.goal", "Agitation achieves a Goal exactly when it covers the Goal's cost, with exactly "
                        "the Goal's bans, Restriction cards (never from the trash pile) and gains; otherwise it stays "
                        "on the Goal, its icons converted to tokens from the supply.",
                        (S.AGITATION_AND_GOALS, S.MOVEMENT_INTERFERENCE), _goal),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
