"""The `doubt` invariants. Doubt: column bounds, placing and removing one space at a time, and the Messaging offered."""

from __future__ import annotations

import dataclasses

from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
    TransitionInvariant,
)
from doubtspec.model import legal as legality
from doubtspec.model.actions import (
    Action,
    Message,
    PlaceDoubt,
)
from doubtspec.model.cards import Zone
from doubtspec.model.state import GameState, Phase
from doubtspec.model.steps import (
    Messaging,
)
from doubtspec.rulebook import Section

S = Section


def _doubt_bounds(state: GameState) -> str | None:
    values = state.cards.display.doubt_values
    for column, count in enumerate(state.doubt):
        if not 0 <= count <= len(values[column]):
            return f"Doubt column {column} holds {count} tokens; it has {len(values[column])} spaces"
    return None


def _doubt_steps(before: GameState, action: Action, after: GameState) -> str | None:
    b, a = before.doubt, after.doubt
    match action:
        case PlaceDoubt(column=column):
            expected = tuple(n + 1 if i == column else n for i, n in enumerate(b))
            if a != expected:
                return f"placing one Doubt in column {column.key} changed the columns from {list(b)} to {list(a)}"
        case Message(zone=zone, doubts=doubts, victims=victims):
            expected = tuple(n - doubts if i == zone else n for i, n in enumerate(b))
            if a != expected:
                return f"removing {doubts} Doubt from {zone.key} changed the columns from {list(b)} to {list(a)}"
            if victims and doubts != b[zone]:
                return f"{victims} Victims removed from {zone.key} while {b[zone] - doubts} Doubt remain there"
            step = before.pending[0] if before.pending else None
            if isinstance(step, Messaging):
                values = before.cards.display.doubt_values[zone]
                # Bottom-up: the lowest occupied space goes first, each at its own printed cost.
                cost = sum(values[b[zone] - 1 - i] for i in range(doubts)) + victims
                tokens = max(0, cost - step.icons)
                if before.messaging - after.messaging != tokens:
                    return (f"removing {doubts} Doubt bottom-up and {victims} Victims from {zone.key} costs {cost} "
                            f"({step.icons} from icons, {tokens} tokens), but {before.messaging - after.messaging} "
                            "Messaging tokens were spent")
        case _:
            if a != b:
                return f"Doubt changed from {list(b)} to {list(a)} by {action}"
    return None


def _messaging_offers(state: GameState) -> str | None:
    """Price every Messaging the engine would offer against deep columns, bottom-up, from the card data.

    Messaging against a column of two or three Doubt is rare in generated games, so instead of waiting
    for one, ask the engine's own legality layer what it would offer at the budgets around each price.
    """
    if state.outcome is not None or state.pending or state.phase is not Phase.MOVEMENT_TURN:
        return None
    # Tokens held would add to the budget; ask with icons alone.
    bare = dataclasses.replace(state, messaging=0)
    # Victims: once a zone's Doubt is all removed, each further Messaging removes one of its Victims.
    for zone in Zone:
        if not state.victims[zone]:
            continue
        present = state.doubt[zone]
        values = state.cards.display.doubt_values[zone]
        price = sum(values[present - 1 - i] for i in range(present))
        for budget, offered in ((price, False), (price + 1, True)):
            choices = legality.messaging_choices(bare, Messaging(icons=budget))
            if (Message(zone, present, 1) in choices) is not offered:
                return (f"with {budget} Messaging, removing {present} Doubt (price {price}) and one Victim from "
                        f"{zone.key} was {'not ' if offered else ''}offered")
    deep = [zone for zone in Zone if state.doubt[zone] >= 2]
    if not deep:
        return None
    for zone in deep:
        present = state.doubt[zone]
        values = state.cards.display.doubt_values[zone]
        for doubts in range(1, present + 1):
            price = sum(values[present - 1 - i] for i in range(doubts))
            for budget, offered in ((price - 1, False), (price, True)):
                if budget < 0:
                    continue
                choices = legality.messaging_choices(bare, Messaging(icons=budget))
                if (Message(zone, doubts, 0) in choices) is not offered:
                    return (f"with {budget} Messaging, removing {doubts} of {present} Doubt from {zone.key} "
                            f"(bottom-up price {price}) was {'not ' if offered else ''}offered")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("doubt.bounds", "Each Doubt column holds between zero and its number of spaces.",
                   (S.COMPANY_ON_YOUR_GO, S.ADDING_DOUBT, S.MESSAGING), _doubt_bounds),
    TransitionInvariant("doubt.order",
                        "Doubt is placed one space at a time and removed bottom-up at each space's printed cost.",
                        (S.ADDING_DOUBT, S.MESSAGING), _doubt_steps),
    StateInvariant("doubt.messaging-offers",
                   "Messaging is offered exactly when its budget covers the bottom-up price of the Doubt removed, "
                   "and one more for each Victim.",
                   (S.MESSAGING,), _messaging_offers),
)
"""The `doubt.*` invariants, in the order they are checked and listed."""
