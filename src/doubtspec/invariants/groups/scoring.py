"""The `scoring` invariants. Scoring: the Reshuffle Sequence's scoring, shifting and seeding of the Demographics."""

from __future__ import annotations

from doubtspec.invariants.shapes import (
    Invariant,
    TransitionInvariant,
)
from doubtspec.model.actions import (
    Action,
)
from doubtspec.model.cards import TokenKind
from doubtspec.model.state import GameState
from doubtspec.rulebook import Section

S = Section


def scoring_check(before: GameState, action: Action, after: GameState) -> str | None:
    """Reshuffle Sequence A and B, recomputed from the chart: the Victims scored, shifted and seeded."""
    if after.reshuffles != before.reshuffles + 1:
        return None
    cards = before.cards
    for card in before.c_reserve:
        reserve = before.game.company_card(card).reserve
        if reserve is not None and reserve.on_reshuffle and before.game.company_card(card).kind not in before.banned:
            return None  # Reserve effects during the Sequence also move Victims and Profit
    children, adults, middle, elderly = before.victims
    # A. right to left: Elderly all score and leave; Middle Age loses two of every three; Adults one of two.
    middle_keep = middle - 2 * (middle // 3)
    adults_keep = adults - adults // 2
    scored = elderly + middle_keep + adults_keep + children
    returned = elderly + (middle - middle_keep) + (adults - adults_keep)
    victims_supply = before.supply_of(TokenKind.VICTIMS) + returned
    shifted = [0, children, adults_keep, middle_keep]
    # B. seed from the Social Acceptance Chart row of the Profit scored, as far as the supply allows.
    row = cards.display.chart[0]
    for candidate in cards.display.chart:
        if scored >= candidate.min_profit:
            row = candidate
    for zone, count in enumerate(row.victims):
        got = min(count, victims_supply)
        victims_supply -= got
        shifted[zone] += got
    gained = min(scored, before.supply_of(TokenKind.PROFIT))
    if after.victims != tuple(shifted):
        return (f"scoring Victims {list(before.victims)} (Profit {scored}) should leave {shifted}, "
                f"not {list(after.victims)}")
    if after.profit != before.profit + gained:
        return f"scoring Victims {list(before.victims)} should earn {gained} Profit, not {after.profit - before.profit}"
    star = 1 if scored >= cards.rules.star_threshold and before.supply_of(TokenKind.STARS) > 0 else 0
    if after.stars != before.stars + star:
        return f"a Reshuffle scoring {scored} Profit took the stars from {before.stars} to {after.stars}"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("scoring.demographics",
                        "A Reshuffle scores and shifts the Demographics and seeds them from the chart.",
                        (S.SCORING_DEMOGRAPHICS, S.SEED_DEMOGRAPHICS), scoring_check),
)
"""The `scoring.*` invariants, in the order they are checked and listed."""
