"""A game definition: a validated card set, the rulings in force, and lookups derived from them.

Every state carries its `Game` (excluded from equality and hashing), so the engine's pure
functions need nothing but the state. The derived tables exist for speed: the engine's
legal-actions/apply loop is the hot path of fuzzing, simulation and exhaustive search.
"""

from __future__ import annotations

from itertools import combinations

from doubtspec.model.cards import (
    CardSet,
    CompanyCard,
    Goal,
    HandSize,
    MovementCard,
    load_cards,
)
from doubtspec.model.rulings import DEFAULT_RULINGS, Rulings


class Game:
    """The fixed part of a game: cards, rulings and what can be precomputed from them."""

    __slots__ = (
        "_payments",
        "banned_stay",
        "budget",
        "cards",
        "company",
        "draw_first",
        "goal_list",
        "lobby_goals",
        "messaging_any_zones",
        "minimal_payment",
        "movement",
        "pass_counts_cards",
        "restriction_buyable",
        "rulings",
        "trash_any",
        "trigger_after",
    )

    def __init__(self, cards: CardSet, rulings: Rulings = DEFAULT_RULINGS) -> None:
        self.cards = cards
        self.rulings = rulings
        top = max(cards.company)
        self.company: tuple[CompanyCard | None, ...] = tuple(cards.company.get(n) for n in range(top + 1))  # type: ignore[call-overload]
        self.budget: tuple[int, ...] = tuple(c.budget if c else 0 for c in self.company)
        mtop = max(cards.movement)
        self.movement: tuple[MovementCard | None, ...] = tuple(
            cards.movement.get(n) for n in range(mtop + 1)  # type: ignore[call-overload]
        )
        self.goal_list: tuple[Goal | None, ...] = tuple(
            cards.goals.get(n) for n in range(max(cards.goals) + 1)  # type: ignore[call-overload]
        )
        self.draw_first = rulings.get("draw-order") == "draw-first"
        self.minimal_payment = rulings.get("budget-payment") == "minimal"
        self.trigger_after = rulings.get("trigger-timing") == "after-effects"
        self.trash_any = rulings.get("trash-buy") == "any"
        self.restriction_buyable = rulings.get("restriction-pile-buy") == "buyable"
        self.lobby_goals = rulings.get("lobby-targets") == "market-and-goals"
        self.pass_counts_cards = rulings.get("pass-bonus") == "no-influence"
        self.messaging_any_zones = rulings.get("messaging-zones") == "any-zones"
        self.banned_stay = rulings.get("banned-reserve") == "stays-honoured"
        self._payments: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]] = {}

    @classmethod
    def load(cls, path: str | None = None, rulings: Rulings = DEFAULT_RULINGS) -> Game:
        return cls(load_cards(path), rulings)

    def company_card(self, number: int) -> CompanyCard:
        card = self.company[number]
        assert card is not None, number
        return card

    def movement_card(self, number: int) -> MovementCard:
        card = self.movement[number]
        assert card is not None, number
        return card

    def goal(self, number: int) -> Goal:
        goal = self.goal_list[number]
        assert goal is not None, number
        return goal

    def goal_hand_bonus(self, achieved: tuple[int, ...]) -> int:
        return sum(e.amount for g in achieved for e in self.goal(g).effects if isinstance(e, HandSize))

    def payments(self, others: tuple[int, ...], cost: int) -> tuple[tuple[int, ...], ...]:
        """Sets of `others` (sorted card numbers) whose Budget pays `cost` (Spending Budget).

        Under the default ruling `budget-payment=minimal` only sets from which no card can be
        dropped; under `any-cover` every covering set. Cached: hands repeat endlessly.
        """
        key = (others, cost)
        found = self._payments.get(key)
        if found is not None:
            return found
        budget = self.budget
        result: list[tuple[int, ...]] = []
        if cost <= 0:
            result.append(())
            if not self.minimal_payment:
                result.extend(s for k in range(1, len(others) + 1) for s in combinations(others, k))
        else:
            for k in range(1, len(others) + 1):
                for subset in combinations(others, k):
                    total = sum(budget[c] for c in subset)
                    if total < cost:
                        continue
                    if self.minimal_payment and any(total - budget[c] >= cost for c in subset):
                        continue
                    result.append(subset)
        frozen = tuple(result)
        if len(self._payments) > 200_000:
            self._payments.clear()
        self._payments[key] = frozen
        return frozen

    def can_pay(self, others: tuple[int, ...], cost: int) -> bool:
        return cost <= 0 or sum(self.budget[c] for c in others) >= cost
