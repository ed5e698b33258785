"""The card data a page needs, read from the card file in force: names, numbers and what is printed.

The page never knows a card by anything but its number; every name, cost, icon, Bonus, Goal and
Market space comes from here, so a designer's own card file is drawn as faithfully as the shipped one.
"""

from __future__ import annotations

from typing import Any

from doubtspec.describe import ZONE_NAMES
from doubtspec.model.cards import (
    AddDoubt,
    AddRestriction,
    AddVictims,
    Ban,
    CompanyCard,
    CompanyEffect,
    Counts,
    Discount,
    DrawCards,
    GainFlight,
    GainInfluence,
    GoalEffect,
    HandSize,
    Lobby,
    NamedEffect,
    RemoveMarketCard,
    ReserveSide,
    ScoreProfit,
    StandardSide,
    Zone,
)
from doubtspec.model.game import Game
from doubtspec.model.movement import COVERED_BY, GOAL_ROWS


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def effect_text(effect: CompanyEffect | GoalEffect) -> str:
    """A short phrase for one printed effect."""
    match effect:
        case AddVictims(zone=zone, count=count):
            return f"+{_plural(count, 'Victim')} ({ZONE_NAMES[zone]})"
        case AddDoubt(group=group, count=count):
            return f"+{count} Doubt (zone {group.value})"
        case ScoreProfit(count=count):
            return f"+{count} Profit"
        case DrawCards(count=count):
            return f"draw {count}"
        case Lobby(count=count):
            return f"Lobby {count}"
        case RemoveMarketCard(count=count):
            return f"remove {count} Market card" + ("s" if count != 1 else "")
        case Discount(amount=amount):
            return f"discount {amount}"
        case NamedEffect(name=name):
            return name.replace("_", " ")
        case Ban(kind=kind):
            return f"ban {kind.replace('_', ' ')}"
        case AddRestriction(count=count):
            return f"+{count} Restriction"
        case HandSize(amount=amount):
            return f"hand limit +{amount}"
        case GainFlight(count=count):
            return f"+{count} Flight"
        case GainInfluence(count=count):
            return f"+{count} Influence"
    return str(effect)


def counts_text(counts: Counts) -> str:
    """Icons or passive gains as `Research 1, Messaging 2`; empty when there are none."""
    parts = [f"{name} {n}" for name, n in (("Research", counts.research), ("Messaging", counts.messaging),
                                           ("Agitation", counts.agitation), ("Influence", counts.influence),
                                           ("Refresh", counts.refresh)) if n]
    return ", ".join(parts)


def _side_text(side: StandardSide | ReserveSide | None) -> str | None:
    if side is None:
        return None
    parts = [f"cost {side.cost}", side.icon.value]
    if side.trigger is not None:
        parts.append(f"{side.trigger.value} trigger")
    parts.append("; ".join(effect_text(e) for e in side.effects) or "no effect")
    if isinstance(side, ReserveSide):
        if side.on_reshuffle:
            parts.append("at Reshuffle: " + "; ".join(effect_text(e) for e in side.on_reshuffle))
        if side.stays:
            parts.append("stays")
        if side.loopholes:
            parts.append("Loopholes")
    return " · ".join(parts)


def _company(card: CompanyCard) -> dict[str, Any]:
    return {"name": card.name, "kind": card.kind, "budget": card.budget,
            "standard": _side_text(card.standard), "reserve": _side_text(card.reserve)}


def catalogue_of(game: Game) -> dict[str, Any]:
    """Everything printed that the page draws, keyed by card number (as text, JSON's only key type)."""
    cards = game.cards
    rules = cards.rules
    return {
        "set": {"name": cards.name, "version": cards.version, "source": cards.source,
                "fingerprint": cards.fingerprint, "provisional": cards.provisional},
        "rulings": dict(game.rulings.choices),
        "rules": {"hand_size": rules.company_hand_size, "profit_to_win": rules.profit_to_win,
                  "star_threshold": rules.star_threshold, "stars_to_win": rules.stars_to_win,
                  "movement_hand_limit": rules.movement_hand_limit, "tableau_limit": rules.tableau_limit,
                  "goal_points_to_win": rules.goal_points_to_win},
        "zones": [{"name": ZONE_NAMES[zone], "doubt_values": list(cards.display.doubt_values[zone])}
                  for zone in Zone],
        "company": {str(n): _company(card) for n, card in sorted(cards.company.items())},
        "piles": [{"name": pile.name, "kind": pile.kind} for pile in cards.piles],
        "movement": {str(n): {"name": card.name, "influence": card.influence, "icons": counts_text(card.icons),
                              "left": [b.value for b in card.left], "right": [b.value for b in card.right],
                              "passive": counts_text(card.passive)}
                     for n, card in sorted(cards.movement.items())},
        "market": [{"row": space.row, "cost": space.cost, "action": space.action.value} for space in cards.market],
        "goals": {str(n): {"name": goal.name, "cost": goal.cost, "points": goal.points,
                           "effects": "; ".join(effect_text(e) for e in goal.effects),
                           "passive": counts_text(goal.passive)}
                  for n, goal in sorted(cards.goals.items())},
        "goal_rows": [list(row) for row in GOAL_ROWS],
        "covered_by": [list(places) for places in COVERED_BY],
        "supply": {kind.value: limit for kind, limit in cards.supply.items()},
    }
