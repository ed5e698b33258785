"""`rule.messaging`: a Message removes Victims for Influence, then ends or goes on as ruling messaging-zones says."""

from __future__ import annotations

from doubtspec.invariants.derived import messaging_price
from doubtspec.invariants.groups.rule.frame import TURN_START, in_supply, unchanged_except
from doubtspec.invariants.groups.rule.movement_play import Table
from doubtspec.invariants.shapes import Invariant, TransitionInvariant
from doubtspec.model.actions import Action, Message
from doubtspec.model.cards import TokenKind, Zone
from doubtspec.model.state import GameState
from doubtspec.model.steps import Messaging
from doubtspec.rulebook import Section

S = Section


def _cheapest_message(state: GameState) -> float:
    """Messaging: the least a Message costs in `state` (the bottom Doubt of a column, or one for a Victim of a
    Zone with no Doubt left); infinite when there is nothing to remove."""
    cheapest = [Message(zone, 1, 0) if state.doubt[zone] else Message(zone, 0, 1) for zone in Zone
                if state.doubt[zone] or state.victims[zone]]
    return min((messaging_price(state, message) for message in cheapest), default=float("inf"))


def messaging_check(before: GameState, action: Action, after: GameState) -> str | None:
    """Messaging: each Victim removed goes back to the Company's supply and gains the Movement one Influence, and
    each Messaging token spent goes back to the supply;
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
    spent = before.messaging - after.messaging
    if in_supply(after, TokenKind.MESSAGING) != in_supply(before, TokenKind.MESSAGING) + spent:
        return (f"{action}: the {spent} Messaging tokens spent go back to the supply, which went from "
                f"{in_supply(before, TokenKind.MESSAGING)} to {in_supply(after, TokenKind.MESSAGING)}")
    table = Table.of(before)
    table.gain(TokenKind.INFLUENCE, victims)
    if after.influence != table.influence:
        return f"{action} left {after.influence} Influence; removing {victims} Victims gives {table.influence}"
    return unchanged_except(before, after, ("victims", "doubt", "messaging", "influence", "supply", "m_hand", "market",
                                  *TURN_START), action)


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.messaging", "Messaging returns each Victim removed to the Company's supply and gains "
                        "one Influence for it, and returns the tokens it spends to the supply; it targets one Zone, or "
                        "(ruling messaging-zones=any-zones) goes on with the icon Messaging left.", (S.MESSAGING,),
                        messaging_check),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
