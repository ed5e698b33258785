"""Rulebook sections, by heading, so that every rule, invariant and ruling can cite one.

The rulebook has two parts (Company Rules, Movement Rules) that reuse some headings
(Set-Up, On Your Go, Cards, Interference), so each section is named with its part.
"""

from __future__ import annotations

from enum import Enum


class Section(Enum):
    """A section of the rulebook; the value is its citation, part and heading."""

    COMPANY_RULES = "Company Rules"
    COMPANY_SETUP = "Company Rules > Set-Up"
    COMPANY_ON_YOUR_GO = "Company Rules > On Your Go"
    COMPANY_CARDS = "Company Rules > Cards"
    SPENDING_BUDGET = "Company Rules > Spending Budget"
    STANDARD_EFFECTS = "Company Rules > Standard Effects"
    ADDING_VICTIMS = "Company Rules > Standard Effects > Adding Victims"
    ADDING_DOUBT = "Company Rules > Standard Effects > Adding Doubt"
    PRINT_TRIGGER = "Company Rules > Standard Effects > Print Trigger"
    TELEVISION_TRIGGER = "Company Rules > Standard Effects > Television Trigger"
    RESERVE_EFFECTS = "Company Rules > Reserve Effects"
    BUYING_CARDS = "Company Rules > Buying Cards"
    RESHUFFLE_SEQUENCE = "Company Rules > Reshuffle Sequence"
    SCORING_DEMOGRAPHICS = "Company Rules > Reshuffle Sequence > A. Scoring Demographics"
    SEED_DEMOGRAPHICS = "Company Rules > Reshuffle Sequence > B. Seed Demographics"
    RESOLVE_RESERVE = "Company Rules > Reshuffle Sequence > C. Resolve your Reserve"
    RESHUFFLE_AND_DRAW = "Company Rules > Reshuffle Sequence > D. Reshuffle & Continue Drawing"
    COMPANY_INTERFERENCE = "Company Rules > Interference"
    MOVEMENT_RULES = "Movement Rules"
    PACING = "Movement Rules > Pacing"
    MOVEMENT_INTERFERENCE = "Movement Rules > Interference"
    MESSAGING = "Movement Rules > Messaging"
    AGITATION_AND_GOALS = "Movement Rules > Agitation and Goals"
    BUYING_A_CARD = "Movement Rules > Buying a Card"
    SPENDING_INFLUENCE = "Movement Rules > Spending Influence"
    PLAYING_A_CARD = "Movement Rules > Playing a Card"
    MOVEMENT_CARDS = "Movement Rules > Cards"
    MOVEMENT_ON_YOUR_GO = "Movement Rules > On Your Go"
    MOVEMENT_SETUP = "Movement Rules > Set-Up"

    def __str__(self) -> str:
        return self.value
