"""`rule.skip`, `rule.skip-offers`, `rule.end-play` and `rule.phase-end-offers`: declining a choice, ending a
phase, and when each may be done.

A bought space's Action (Messaging, Agitation, Organize) may be left unused (Buying a Card). Its postconditions
(`rule.messaging`, `rule.goal`, `rule.organize-play`) look at the choices that do something; a decline that still
does something (icon Agitation kept as tokens, a Messaging that removes a Victim anyway) moves pieces by the rules'
own amounts elsewhere and passes every conservation law. So declining is checked on its own: once the choice is
declined, the buy ends as any buy does, with the card taken into the hand and the Company's turn begun, and nothing
else on the table moves.

The Company declines too: its Play Phase and Buy Phase go on, a card at a time, until it ends them, and it must
play and buy at least one card a turn (On Your Go). `rule.phase-end-offers` asks that ending each phase is offered
exactly once a card has been played (bought): a reading that ends the phase after one card, or only when nothing
more can be paid for, leaves every play and buy made correct. `rule.end-play` asks that ending the Play Phase does
nothing but start the Buy Phase: a reset there (a discount cleared a step early) leaves every play and buy correct
by its own check.
"""

from __future__ import annotations

from collections import Counter

from doubtspec.invariants.derived import at_rest, legal
from doubtspec.invariants.groups.rule.frame import TURN_START, unchanged_except
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, EndBuy, EndPlay, Skip
from doubtspec.model.state import NO_CARD, GameState, Phase, Side
from doubtspec.model.steps import Agitation, Messaging, Organize
from doubtspec.rulebook import Section

S = Section

_DECLINABLE = (Agitation, Messaging, Organize)
"""The Movement's choices that Buying a Card lets it leave unused."""


def _declining(state: GameState) -> bool:
    """A Movement choice that may be declined is pending (the game not over)."""
    return state.outcome is None and bool(state.pending) and isinstance(state.pending[0], _DECLINABLE)


def _skip(before: GameState, action: Action, after: GameState) -> str | None:
    """Declining Messaging, Agitation or Organize: the buy's card goes from its Market space into the hand, the
    Company's turn may begin (a further Messaging may follow under ruling messaging-zones=any-zones), and no
    token, card or Goal moves otherwise."""
    if not isinstance(action, Skip) or not _declining(before):
        return None
    step = type(before.pending[0]).__name__
    taken = [card for card, now in zip(before.market, after.market, strict=True) if card != now]
    if any(now != NO_CARD for card, now in zip(before.market, after.market, strict=True) if card != now):
        return f"declining {step} put a card into the Market: {list(before.market)} became {list(after.market)}"
    if Counter(after.m_hand) != Counter(before.m_hand) + Counter(taken):
        return (f"declining {step} left the hand {list(after.m_hand)}; from {list(before.m_hand)} only the card "
                f"bought ({taken or 'none'}) may join it")
    message = unchanged_except(before, after, (*TURN_START, "market", "m_hand"), action)
    return None if message is None else f"declining {step}: {message}"


def _skip_offers(state: GameState) -> str | None:
    """Wherever a Movement choice may be declined, decline it as a what-if and check it with `rule.skip`.

    Generated games decline a choice on a few turns only (the agents mostly use what they bought), and most of those
    with nothing to gain from it; the what-if asks it of every such choice met, icons in hand or not."""
    if not _declining(state):
        return None
    action = Skip(Side.MOVEMENT)
    if action not in engine.legal_actions(state):
        return f"{type(state.pending[0]).__name__} is pending, and declining it (Skip) is not offered"
    after = engine.apply(state, action)
    return _skip(state, action, after)


def _company_phase(state: GameState) -> bool:
    """The Company's Play or Buy Phase with nothing pending (the game not over)."""
    return at_rest(state) and state.phase in (Phase.COMPANY_PLAY, Phase.COMPANY_BUY)


def _phase_end_offers(state: GameState) -> str | None:
    """Ending the Play (Buy) Phase is offered exactly when the turn has played (bought) a card."""
    if not _company_phase(state):
        return None
    playing = state.phase is Phase.COMPANY_PLAY
    made, end = (state.plays, EndPlay()) if playing else (state.buys, EndBuy())
    offered = end in legal(state)  # the machine asked for this state's actions just before
    if offered is not (made > 0):
        done = f"{made} card{'s' if made != 1 else ''} {'played' if playing else 'bought'}"
        return f"with {done} this turn, {end} is {'' if offered else 'not '}offered"
    return None


def _end_play(before: GameState, action: Action, after: GameState) -> str | None:
    """Ending the Play Phase moves the Company into its Buy Phase, or ends the game when no card can be bought
    (Economic Defeat), and changes nothing else: what the turn's plays set up for its buys (a discount, ruling
    discount-scope) is still there."""
    if not isinstance(action, EndPlay):
        return None
    if after.outcome is None and after.phase is not Phase.COMPANY_BUY:
        return f"{action} left the {after.phase.value} phase; the Buy Phase comes next"
    return unchanged_except(before, after, ("phase", "outcome"), action)


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.skip", "Declining a bought space's Messaging, Agitation or Organize only ends the buy: "
                        "the card goes into the hand, the Company's turn may begin, nothing else moves.",
                        (S.BUYING_A_CARD, S.MESSAGING, S.AGITATION_AND_GOALS), _skip),
    StateInvariant("rule.skip-offers", "Every pending Messaging, Agitation or Organize may be declined, and "
                   "declining it does what `rule.skip` says.",
                   (S.BUYING_A_CARD, S.MESSAGING, S.AGITATION_AND_GOALS), _skip_offers, _declining),
    TransitionInvariant("rule.end-play", "Ending the Play Phase starts the Buy Phase (or ends the game by Economic "
                        "Defeat) and changes nothing else.", (S.COMPANY_ON_YOUR_GO, S.BUYING_CARDS), _end_play),
    StateInvariant("rule.phase-end-offers", "The Company may end its Play (Buy) Phase once it has played (bought) a "
                   "card that turn, at every rest after that, and not before.",
                   (S.COMPANY_ON_YOUR_GO,), _phase_end_offers, _company_phase),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
