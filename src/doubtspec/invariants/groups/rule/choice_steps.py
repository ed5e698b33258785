"""`rule.choice-step`: a choice answers the pending step at the head of the queue and nothing behind it; and
`rule.effect-amount`: an effect that needs choices is queued with its whole printed amount.

A play's effects, the Reserve cards it activates and the card's discard wait in one queue of steps; an effect
that needs a choice (a Doubt column, a Lobby target, a Market card, a card to trash) stops the queue, and so do the
Movement's Messaging, Agitation and Organize. Each choice must leave the rest of the queue as it was: the effect's
further tokens come next (Standard Effects: an effect of two Doubt places them one after the other), ahead of
everything behind it, and declining (Skip) gives up what is left of that one effect or Action only (ruling
lobby-optional; Buying a Card for the Movement's Actions). A slip in the queue (a remainder pushed to the back,
a Skip that also drops the effects behind it, or one that declines a single token and offers the next) leaves each
effect's own amounts right, so the play's other checks pass; this one asks the engine the same choice with the head
alone pending and compares.
"""

from __future__ import annotations

from collections import Counter

from doubtspec.invariants.derived import legal, replace
from doubtspec.invariants.groups.rule.frame import unchanged_except
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, Skip
from doubtspec.model.cards import AddDoubt, CompanyEffect, Lobby, RemoveMarketCard
from doubtspec.model.state import GameState
from doubtspec.model.steps import Agitation, Messaging, Organize, ResolveEffect
from doubtspec.rulebook import Section

S = Section

_QUEUED_CHOICES = (ResolveEffect, Messaging, Agitation, Organize)
"""The choice steps that can stand ahead of other pending steps."""


def _queued_choice(state: GameState) -> bool:
    """A choice step at the head of the queue (what both checks look at)."""
    return state.outcome is None and bool(state.pending) and isinstance(state.pending[0], _QUEUED_CHOICES)


def choice_step_check(before: GameState, action: Action, after: GameState) -> str | None:
    """The choice resolved with the head alone pending, then the rest of the queue behind what it left, must give
    the state the engine reached; a Skip must leave nothing of its step and change nothing."""
    if not _queued_choice(before):
        return None
    head, behind = before.pending[0], before.pending[1:]
    alone = engine.apply(replace(before, pending=(head,)), action)
    if isinstance(action, Skip):
        if alone.pending:
            return (f"declining {head} left {alone.pending[0]} pending; a Skip gives up the rest of the step "
                    f"(ruling lobby-optional)")
        changed = unchanged_except(before, alone, ("pending",), action)
        if changed is not None:
            return f"declining {head}: {changed}"
    expected = engine.settle(replace(alone, pending=alone.pending + behind))
    if expected.pending != after.pending:
        return (f"{action} answering {head} left the queue {list(after.pending)}; what the choice leaves comes "
                f"first and the {len(behind)} steps behind it follow unchanged: {list(expected.pending)}")
    differs = unchanged_except(expected, after, ("pending",), action)
    if differs is not None:
        return f"{action} answering {head}, against the same choice with the steps behind it resolved after: {differs}"
    return None


def _choice_step_offers(state: GameState) -> str | None:
    """At each queued choice, decline it (where Skip is offered) and take its first option, as what-ifs checked by
    `rule.choice-step`.

    Generated games seldom decline an effect of two or more tokens (a Lobby of two), and a decline with effects
    queued behind it is rarer still; the what-ifs ask both of every such step met.
    """
    offered = legal(state)  # the machine asked for this state's actions just before
    declines: list[Action] = [action for action in offered if isinstance(action, Skip)]
    options = [action for action in offered if not isinstance(action, Skip)]
    tried = declines[:1] + options[:1]
    for action in tried:
        message = choice_step_check(state, action, engine.apply(state, action))
        if message is not None:
            return f"as a what-if: {message}"
    return None


def whole_amount(effect: CompanyEffect) -> int:
    """How many choices an effect that needs them asks for, from the card data: one per Doubt, Lobbying token or
    Market card it prints (Standard Effects > Adding Doubt; Company Rules > Interference), one for a named effect."""
    if isinstance(effect, AddDoubt | Lobby | RemoveMarketCard):
        return effect.count
    return 1


def effect_amount_check(before: GameState, action: Action, after: GameState) -> str | None:
    """An effect that comes to need a choice waits with its whole printed amount, and what an answer leaves of it
    (if anything) is exactly one fewer.

    `rule.choice-step` holds the queue to the engine's own answer with the head alone, and the plays' checks compare
    the effects queued by kind: neither would see an effect queued with part of its amount (a Lobby of two read as
    one token), since the engine then agrees with itself. Declining gives up the rest of the effect.
    """
    fresh = (Counter(step for step in after.pending if isinstance(step, ResolveEffect))
             - Counter(step for step in before.pending if isinstance(step, ResolveEffect)))
    head = before.pending[0] if before.pending else None
    if isinstance(head, ResolveEffect) and not isinstance(action, Skip) and head.remaining > 1:
        # What is left of the answered effect comes next, unless nothing of it can be placed any more (a full
        # Doubt column: ruling doubt-full-column), which the effects' own checks judge.
        rest = [step for step in fresh if step.effect == head.effect and step.remaining == head.remaining - 1]
        if rest:
            fresh[rest[0]] -= 1
    for step in +fresh:
        whole = whole_amount(step.effect)
        if step.remaining != whole or step.used:
            return (f"{action} queued {step}; the effect {step.effect} waits with its whole amount, {whole} "
                    f"choice{'s' if whole > 1 else ''} and none made yet")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.effect-amount", "An effect that needs choices waits with its whole printed amount, one "
                        "choice per Doubt, Lobbying token or Market card, and what an answer leaves of it is one "
                        "fewer.", (S.STANDARD_EFFECTS, S.ADDING_DOUBT, S.COMPANY_INTERFERENCE), effect_amount_check),
    TransitionInvariant("rule.choice-step", "A choice answers only the step at the head of the queue: what is left "
                        "of that effect comes next, the steps behind it follow unchanged, and declining gives up "
                        "that one step and changes nothing.",
                        (S.STANDARD_EFFECTS, S.COMPANY_INTERFERENCE, S.BUYING_A_CARD), choice_step_check),
    StateInvariant("rule.choice-step-offers", "At every queued choice, declining it (where it may be declined) and "
                   "its first option each do what `rule.choice-step` says.",
                   (S.STANDARD_EFFECTS, S.COMPANY_INTERFERENCE, S.BUYING_A_CARD), _choice_step_offers,
                   _queued_choice),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
