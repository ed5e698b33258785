"""The reference engine's public API, OpenSpiel-like and pure.

    state = new_game(cards, rulings)
    while current_actor(state) is not Actor.TERMINAL:
        state = apply(state, choose(legal_actions(state)))

`apply` never changes its input; `play` is the checked form that raises `IllegalActionError`
naming the action, the rule and the state. Chance is an actor: at a chance node
`legal_actions` lists the outcomes and `chance_outcomes` gives their probabilities. Seeds live at
the edge (`doubtspec.model.playout`), never here. `settle` runs a state's automatic steps as `apply` does
after an action, for checks that build the pending steps of a state themselves.
"""

from __future__ import annotations

from fractions import Fraction

from doubtspec.errors import IllegalActionError
from doubtspec.model import company, movement
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
    actor_of,
)
from doubtspec.model.cards import CardSet, TokenKind, load_cards
from doubtspec.model.company import GOAL_TARGET
from doubtspec.model.game import Game
from doubtspec.model.legal import (
    can_buy_any,
    can_play_any,
    chance_actions,
    chance_values,
    choice_actions,
    phase_actions,
)
from doubtspec.model.rulings import DEFAULT_RULINGS, Rulings
from doubtspec.model.state import (
    NO_CARD,
    TOKEN_INDEX,
    Actor,
    GameState,
    Outcome,
    OutcomeReason,
    Phase,
)
from doubtspec.model.steps import (
    Activate,
    Agitation,
    CheckProfitVictory,
    ChooseStartingCard,
    CompanyDraw,
    DealGoal,
    DealStack,
    DrawToHandSize,
    Effect,
    EndCompanyTurn,
    FillMarket,
    FinishPlay,
    GoalSplit,
    Messaging,
    Organize,
    PacingPassives,
    ReclaimFlight,
    ResolveEffect,
    ResolveReserveCard,
    ScoreAndSeed,
    ShiftMarket,
    ShuffleDiscards,
    StartCompanyTurn,
    StartMovementTurn,
    TakeMarketCard,
)
from doubtspec.model.work import Work, replace_at, without
from doubtspec.rulebook import Section

_CHANCE_STEPS = (DealStack, CompanyDraw, DrawToHandSize, GoalSplit, DealGoal, FillMarket)
_CHOICE_STEPS = (ChooseStartingCard, ResolveEffect, Messaging, Agitation, Organize)


def new_game(cards: CardSet | Game | None = None, rulings: Rulings = DEFAULT_RULINGS) -> GameState:
    """The state before Set-Up's first chance event (Company Set-Up, then Movement Set-Up).

    The Company's deck, piles and display are laid out; the stacks' deal, the first hand, the
    Movement's starting card, the Goals and the Market follow as chance events and choices.
    """
    game = cards if isinstance(cards, Game) else Game(cards if cards is not None else load_cards(), rulings)
    data = game.cards
    display = data.display
    supply = [data.supply[kind] for kind in TokenKind]
    supply[TOKEN_INDEX[TokenKind.VICTIMS]] -= sum(display.setup_victims)
    supply[TOKEN_INDEX[TokenKind.DOUBT]] -= sum(display.setup_doubt)
    influence = data.rules.movement_starting_influence
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] -= influence
    if min(supply) < 0:
        raise ValueError("the supply's piece limits cannot cover Set-Up")  # the loader rejects such files
    w = Work(
        game=game, phase=Phase.SETUP, round=0, pending=(), outcome=None,
        c_deck=tuple(sorted(data.starting_deck)), c_hand=(), c_discard=(), c_reserve=(), c_in_play=(),
        # ruling pile-order: the lowest number on top (the top of a pile is its last element)
        piles=tuple(tuple(sorted(p.cards, reverse=True)) for p in data.piles),
        stacks=(), trash=(), c_removed=(),
        victims=display.setup_victims, doubt=display.setup_doubt,
        profit=0, stars=0, banned=(), plays=0, buys=0, unlobbied=False, discount=0, reshuffles=0,
        m_deck=(), market=(NO_CARD,) * len(data.market), market_profit=(0,) * len(data.market),
        m_hand=(), tableau=(), m_discard=(),
        influence=influence, messaging=0, agitation=0, flight=0, flight_spent=0,
        goals=(NO_CARD,) * 9, goal_profit=(0,) * 9, goal_agitation=(0,) * 9, achieved=(),
        supply=tuple(supply),
    )
    odd_cards = tuple(odd for odd, _ in data.stack_pairs)
    if data.rules.stacks_dealt > 0:
        deal: tuple[DealStack, ...] = (DealStack(odd_cards),)
    else:
        # Company Set-Up 2 with no stacks to deal: every pair stays out of the game.
        deal = ()
        w.c_removed = tuple(sorted(odd_cards + tuple(odd + 1 for odd in odd_cards)))
    w.pending = (
        *deal,
        CompanyDraw(data.rules.company_hand_size, silent=False),
        ChooseStartingCard(),
        GoalSplit(),
        FillMarket(),
        StartMovementTurn(),
    )
    _advance(w)
    return w.freeze()


# --- queries --------------------------------------------------------------------------------


def current_actor(state: GameState) -> Actor:
    """Who acts next: a side, chance, or nobody."""
    if state.outcome is not None:
        return Actor.TERMINAL
    if state.pending:
        head = state.pending[0]
        if isinstance(head, _CHANCE_STEPS):
            return Actor.CHANCE
        if isinstance(head, ChooseStartingCard | Messaging | Agitation | Organize):
            return Actor.MOVEMENT
        return Actor.COMPANY
    if state.phase is Phase.MOVEMENT_TURN:
        return Actor.MOVEMENT
    return Actor.COMPANY


def is_terminal(state: GameState) -> bool:
    return state.outcome is not None


def outcome(state: GameState) -> Outcome | None:
    """The game's result, or None while it goes on."""
    return state.outcome


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action, in a deterministic order; the chance outcomes at a chance node."""
    if state.outcome is not None:
        return ()
    if state.pending:
        head = state.pending[0]
        if isinstance(head, _CHANCE_STEPS):
            return tuple(chance_actions(state, head))
        return tuple(choice_actions(state, head))
    return tuple(phase_actions(state))


def is_legal(state: GameState, action: Action) -> bool:
    """Whether `action` may be applied to `state` (by construction, membership in `legal_actions`)."""
    return action in legal_actions(state)


def chance_outcomes(state: GameState) -> tuple[tuple[Chance, Fraction], ...]:
    """At a chance node, each outcome with its exact probability; elsewhere empty."""
    if state.outcome is not None or not state.pending or not isinstance(state.pending[0], _CHANCE_STEPS):
        return ()
    values = chance_values(state, state.pending[0])
    p = Fraction(1, len(values))
    return tuple((Chance(v), p) for v in values)


def play(state: GameState, action: Action) -> GameState:
    """The checked `apply`: raises `IllegalActionError` (the input state is unchanged either way)."""
    if not is_legal(state, action):
        section, reason = explain_illegal(state, action)
        raise IllegalActionError(str(action), section.value, reason, state.summary())
    return apply(state, action)


def apply(state: GameState, action: Action) -> GameState:
    """The successor of `state` after `action`, which must be legal (use `play` to check)."""
    w = Work.of(state)
    if w.pending:
        _apply_to_step(w, action)
    else:
        _apply_free(w, action)
    _advance(w)
    return w.freeze()


def settle(state: GameState) -> GameState:
    """`state` with its automatic steps resolved, up to the next choice, chance or end of the game: what `apply`
    does after each action. For what-ifs that set the pending steps themselves."""
    w = Work.of(state)
    _advance(w)
    return w.freeze()


# --- applying actions -------------------------------------------------------------------------


def _apply_free(w: Work, action: Action) -> None:
    match action:
        case PlayStandard(card=card, pay=pay):
            company.play_standard(w, card, pay)
        case PlayReserve(card=card, pay=pay):
            company.play_reserve(w, card, pay)
        case Unlobby(where=where, index=index):
            company.unlobby(w, index + (GOAL_TARGET if where is LobbyWhere.GOAL else 0))
        case EndPlay():
            w.phase = Phase.COMPANY_BUY
            state = w.freeze()
            if not can_buy_any(state):
                w.outcome = Outcome(OutcomeReason.ECONOMIC_DEFEAT, w.round,
                                    "the Company played but cannot pay for any card in the Buy Phase")
        case Buy(source=source, index=index, pay=pay):
            card = _take_bought_card(w, source, index)
            company.buy(w, card, pay)
        case EndBuy():
            company.start_draw_phase(w)
        case MovementPlay(card=card, flip=flip, end=end, remove=remove):
            movement.play_card(w, card, flip, end is End.RIGHT, remove)
        case MovementBuy(space=space, flip=flip):
            movement.buy_card(w, space, flip)
        case Pass():
            movement.pass_turn(w)
        case _:
            raise AssertionError(f"{action} is not a free action")


def _take_bought_card(w: Work, source: BuySource, index: int) -> int:
    match source:
        case BuySource.PILE:
            pile = w.piles[index]
            w.piles = replace_at(w.piles, index, pile[:-1])
            return pile[-1]
        case BuySource.STACK:
            stack = w.stacks[index]
            w.stacks = replace_at(w.stacks, index, stack[:-1])
            return stack[-1]
        case BuySource.TRASH:
            card = w.trash[index]
            w.trash = w.trash[:index] + w.trash[index + 1:]
            return card


def _apply_to_step(w: Work, action: Action) -> None:
    step = w.pop()
    match step, action:
        case DealStack(pool=pool), Chance(outcome=odd):
            w.stacks = (*w.stacks, (odd, odd + 1))
            rest = without(pool, odd)
            if len(w.stacks) < w.game.cards.rules.stacks_dealt:
                w.push(DealStack(rest))
            else:
                w.c_removed = tuple(sorted(w.c_removed + rest + tuple(o + 1 for o in rest)))
        case CompanyDraw(count=count, silent=silent), Chance(outcome=card):
            company.draw_card(w, card)
            if count > 1:
                w.push(CompanyDraw(count - 1, silent))
        case DrawToHandSize(), Chance(outcome=card):
            company.draw_card(w, card)
            w.push(step)
        case GoalSplit(), Chance(outcome=code):
            lower: tuple[int, ...] = (code // 100, code // 10 % 10, code % 10)
            upper = tuple(sorted(set(range(1, 10)) - set(lower)))
            w.push(DealGoal(0, upper, lower))
        case DealGoal(slot=slot, upper=upper, lower=lower), Chance(outcome=goal):
            w.goals = replace_at(w.goals, slot, goal)
            if slot < movement.UPPER_STACK_PLACES:
                upper = without(upper, goal)
            else:
                lower = without(lower, goal)
            if slot + 1 < len(w.goals):
                w.push(DealGoal(slot + 1, upper, lower))
        case FillMarket(), Chance(outcome=card):
            space = w.market.index(NO_CARD)
            w.market = replace_at(w.market, space, card)
            w.m_deck = without(w.m_deck, card)
            w.push(step)
        case ChooseStartingCard(), ChooseStart(card=card):
            # Movement Set-Up 1 and 3: the chosen card starts the Tableau; the rest form the deck.
            data = w.game.cards
            w.tableau = ((card, True),)
            w.m_deck = tuple(sorted(n for n in data.movement if n != card))
        case ResolveEffect(), Skip():
            pass
        case ResolveEffect(effect=effect, remaining=remaining, used=used), _:
            _resolve_choice(w, action)
            if remaining > 1:
                target = _lobby_target(action)
                w.push(ResolveEffect(effect, remaining - 1, used + ((target,) if target is not None else ())))
        case Messaging(), Skip():
            pass
        case Messaging(icons=icons), Message(zone=zone, doubts=doubts, victims=victims):
            left = movement.message(w, icons, zone, doubts, victims)
            if w.game.messaging_any_zones:
                w.push(Messaging(left))
        case Agitation(), Skip():
            pass
        case Agitation(icons=icons), Agitate(slot=slot, tokens=tokens):
            movement.agitate(w, icons, slot, tokens)
        case Organize(), Skip():
            pass
        case Organize(), OrganizePlay(card=card, end=end, remove=remove):
            movement.organize_play(w, card, end is End.RIGHT, remove)
        case _:
            raise AssertionError(f"{action} does not answer {step}")


def _lobby_target(action: Action) -> int | None:
    if isinstance(action, LobbyOn):
        return action.index + (GOAL_TARGET if action.where is LobbyWhere.GOAL else 0)
    return None


def _resolve_choice(w: Work, action: Action) -> None:
    match action:
        case PlaceDoubt(column=column):
            company.place_doubt(w, column)
        case LobbyOn():
            target = _lobby_target(action)
            assert target is not None
            company.lobby(w, target)
        case RemoveFromMarket(space=space):
            company.remove_market_card(w, space)
        case TrashCard(card=card):
            company.trash_from_hand(w, card)
        case _:
            raise AssertionError(f"{action} is not an effect choice")


# --- automatic steps --------------------------------------------------------------------------


def _advance(w: Work) -> None:
    """Resolve automatic steps until a side or chance must act, or the game is over."""
    while w.outcome is None and w.pending:
        head = w.pending[0]
        if isinstance(head, _CHANCE_STEPS):
            if _chance_ready(w, head):
                return
            continue
        if isinstance(head, _CHOICE_STEPS):
            if choice_actions(w.freeze(), head):
                return
            w.pop()  # nothing to decide: the effect resolves to nothing
            continue
        w.pop()
        _run_auto(w, head)
    if w.outcome is not None:
        w.phase = Phase.OVER
        w.pending = ()


def _chance_ready(w: Work, step: object) -> bool:
    """Whether a chance step has outcomes; if not, resolve what an empty deck means."""
    match step:
        case CompanyDraw(count=count, silent=silent):
            if count <= 0:
                w.pop()
                return False
            if w.c_deck:
                return True
            if silent and w.c_discard:
                # Reshuffle Sequence note: a mid-play draw reshuffles without the Sequence.
                company.shuffle_discards(w)
                return True
            w.pop()
            return False
        case DrawToHandSize():
            if len(w.c_hand) >= w.game.cards.rules.company_hand_size:
                w.pop()
                return False
            if w.c_deck:
                return True
            company.marginalize(w)
            return False
        case FillMarket():
            if NO_CARD not in w.market:
                w.pop()
                return False
            if not w.m_deck:
                if not w.m_discard:
                    w.pop()
                    return False
                # Movement Cards, Discard: an empty Market deck reshuffles the discards.
                w.m_deck = w.m_discard
                w.m_discard = ()
            return True
    return True


def _run_auto(w: Work, step: object) -> None:
    match step:
        case Effect(effect=effect):
            company.resolve_effect(w, effect)
        case Activate(trigger=trigger, icon=icon):
            company.activate_reserve(w, trigger, icon)
        case FinishPlay(card=card):
            company.finish_play(w, card)
        case ScoreAndSeed():
            company.score_and_seed(w)
        case ResolveReserveCard(index=index):
            company.resolve_reserve_card(w, index)
        case ShuffleDiscards():
            company.shuffle_discards(w)
        case CheckProfitVictory():
            company.check_profit_victory(w)
        case EndCompanyTurn(pacing=pacing):
            if pacing:
                # Pacing: only after the Company's Reshuffle Sequence, before the Movement's turn.
                w.phase = Phase.PACING
                w.push(PacingPassives(), ShiftMarket(), FillMarket(), ReclaimFlight(), StartMovementTurn())
            else:
                w.push(StartMovementTurn())
        case PacingPassives():
            movement.pacing_passives(w)
        case ShiftMarket():
            movement.shift_market(w)
        case ReclaimFlight():
            movement.reclaim_flight(w)
        case StartMovementTurn():
            w.round += 1
            w.phase = Phase.MOVEMENT_TURN
        case StartCompanyTurn():
            w.phase = Phase.COMPANY_PLAY
            w.plays = w.buys = w.discount = 0
            w.unlobbied = False
            if not can_play_any(w.freeze()):
                w.outcome = Outcome(OutcomeReason.ECONOMIC_DEFEAT, w.round,
                                    "the Company cannot play any card at the start of its turn")
        case TakeMarketCard(space=space):
            movement.take_market_card(w, space)
        case _:
            raise AssertionError(f"unknown step {step!r}")


def explain_illegal(state: GameState, action: Action) -> tuple[Section, str]:
    """Why `action` is not legal in `state`: the rulebook section and a reason for people."""
    actor = current_actor(state)
    side = actor_of(action)
    if actor is Actor.TERMINAL:
        return Section.COMPANY_RULES, "the game is over"
    if actor is Actor.CHANCE:
        if not isinstance(action, Chance):
            return Section.COMPANY_SETUP, "a chance event (a draw or a deal) must be resolved first"
        return Section.COMPANY_SETUP, f"{action.outcome} is not a possible outcome of this chance event"
    if side is None or side.value != actor.value:
        return (Section.COMPANY_ON_YOUR_GO if actor is Actor.COMPANY else Section.MOVEMENT_ON_YOUR_GO,
                f"it is the {actor.value}'s turn to act")
    game = state.game
    match action:
        case PlayStandard(card=card) | PlayReserve(card=card):
            if state.pending or state.phase is not Phase.COMPANY_PLAY:
                return Section.COMPANY_ON_YOUR_GO, "cards are played only in the Play Phase"
            if card not in state.c_hand:
                return Section.COMPANY_CARDS, f"card {card} is not in the Company's hand"
            data = game.company_card(card)
            if data.kind in state.banned and not (
                isinstance(action, PlayStandard) and company.loopholes_active(game, state.c_reserve, state.banned)
            ):
                return Section.COMPANY_INTERFERENCE, f"card {card} ({data.name}) is banned ({data.kind})"
            side_data = data.standard if isinstance(action, PlayStandard) else data.reserve
            if side_data is None:
                return Section.COMPANY_CARDS, f"card {card} ({data.name}) has no such effect"
            return Section.SPENDING_BUDGET, (f"the payment {list(action.pay)} does not cover the cost "
                                             f"{side_data.cost} with hand cards (ruling budget-payment)")
        case EndPlay():
            return Section.COMPANY_ON_YOUR_GO, "the Company must play at least one card each turn"
        case EndBuy():
            return Section.COMPANY_ON_YOUR_GO, "the Company must buy at least one card each turn"
        case Buy():
            if state.pending or state.phase is not Phase.COMPANY_BUY:
                return Section.COMPANY_ON_YOUR_GO, "cards are bought only in the Buy Phase"
            return Section.BUYING_CARDS, "that card cannot be bought from there, or the payment does not cover it"
        case MovementBuy(space=space):
            if len(state.m_hand) >= state.hand_limit():
                return Section.MOVEMENT_CARDS, f"the hand is full ({len(state.m_hand)} of {state.hand_limit()})"
            if space >= len(state.market) or state.market[space] == NO_CARD:
                return Section.BUYING_A_CARD, f"Market space {space} holds no card"
            return Section.SPENDING_INFLUENCE, "the flipped cards and tokens do not pay the cost"
        case MovementPlay(card=card):
            if card not in state.m_hand:
                return Section.PLAYING_A_CARD, f"card {card} is not in the Movement's hand"
            return Section.PLAYING_A_CARD, "the payment, the end or the removed card is not allowed"
        case Message():
            return Section.MESSAGING, "Doubt must be removed bottom-up before Victims, within the Messaging held"
        case Agitate():
            return Section.AGITATION_AND_GOALS, "that Goal is not available, or the Agitation does not fit"
    return Section.COMPANY_ON_YOUR_GO, "not among the legal actions here"
