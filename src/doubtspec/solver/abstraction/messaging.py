"""How many Victims the Movement can remove before the Company's turn of round t: bounds from the card file.

The Company's abstraction (`company.py`) leaves the Movement's turn free, except for what it can do to the
display: Messaging removes Victims. Without a bound, a run may remove a Victim in round 1, which no game
can (the Movement starts with no Messaging token, and a Zone's Doubt must be paid off first). This module
derives, from the card file and the rulings in force alone, two numbers per round t (the Movement's t-th
turn, which opens round t under turn-numbering=round):

* `action[t]`: the most Messaging one Messaging action of turn t can spend (tokens held plus face-up icons);
* `total[t]`: the most Messaging all Messaging actions of turns 1..t can spend together (tokens are spent
  once, icons are used again on every action).

and, per Zone, `doubt[z]`: the least Messaging that pays off the Doubt that Zone holds at Set-Up. The
round's constraint (`constraint`) is then: the Victims removed in round t are at most `action[t]`, and
those Victims plus the Doubt of every Zone that loses one are at most `total[t]`.

Why each number is an upper bound (the sections named are the rulebook's; every step is a "no more than"):

* Movement Rules > Buying a Card: Victims leave the display only through the Messaging Action of a Market
  space (Movement Rules > Messaging), paid with Messaging tokens and the Messaging icons of face-up Tableau
  cards; a Market with no Messaging space never removes a Victim. Movement Rules > On Your Go: one Action
  per turn (Pass, Play or Buy), so at most one Messaging action per turn (under `messaging-zones=any-zones`
  one action may go on to other Zones, from what is left of the same Messaging).
* Movement Rules > Messaging: a Zone's Victims are open to Messaging only once all of its Doubt tokens are
  removed, bottom to top, each at its printed cost. Doubt is added only by the Company (Company Rules >
  Adding Doubt) and removed only by Messaging, so before a Zone's first Victim is removed the Movement has
  paid for every level from the Set-Up count down to none at least once: the printed costs of the Set-Up
  tokens' spaces, at the least.
* Movement Rules > Set-Up: the Tableau starts with one of the starting cards, face up, the hand empty, and
  Messaging tokens none (only Influence is taken). Cards enter the hand only by buying (Buying a Card), and
  the Tableau only by a Play or an Organize, one per turn; so the first card other than the starting one is
  placed in turn 2 at the earliest, and before turn t at most max(0, t - 2) cards have been placed. While
  the Tableau is not full no card leaves it (Playing a Card: the ninth card removes one), so its face-up
  Messaging icons are at most the starting card's and the largest icons of that many other cards.
* Messaging tokens are gained (1) by an aligned Messaging Bonus when a card is placed (Playing a Card), at
  most the Messaging Bonuses on one edge of the placed card, and (2) in Pacing (Movement Rules > Pacing),
  which runs at most once a round (after the Company's Reshuffle Sequence), from the Passive Abilities of
  the face-up Tableau cards and of the achieved Goals (at most one Goal per turn, Agitation and Goals).
  The supply's piece limit (Set-Up, Form your Supply) caps the tokens held at once.

Every figure is derived in `MessagingBounds.of` from the card file; nothing is specific to one set. The
bound is checked against the engine in `tests/test_solver_messaging.py` (every Messaging choice offered in
simulated games of every agent pairing and in explored first Movement turns stays within it).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import z3

from doubtspec.model.cards import BonusKind, MarketAction, TokenKind, Zone
from doubtspec.model.game import Game

ZONES = tuple(Zone)


def _top(values: list[int], count: int) -> int:
    """The sum of the `count` largest values (all of them when there are fewer)."""
    return sum(sorted(values, reverse=True)[:max(0, count)])


@dataclass(frozen=True, slots=True)
class MessagingBounds:
    """Per round t = 1..len(action): the Messaging one action of turn t can spend, and turns 1..t together.

    Past the last round listed only `every_action` bounds a round.
    """

    doubt: tuple[int, int, int, int]
    """Per Zone: the least Messaging that pays off the Zone's Set-Up Doubt."""
    action: tuple[int, ...]
    total: tuple[int, ...]
    icons: tuple[int, ...]
    """Per round: the most face-up Messaging icons the Tableau can show at turn t's action."""
    tokens: tuple[int, ...]
    """Per round: the most Messaging tokens the Movement can hold at turn t's action."""
    tableau: tuple[int, ...]
    """Per round: the most cards the Tableau can hold at turn t's action."""
    every_action: int
    """The most Messaging one action of any turn can spend: the tokens the supply holds (none when nothing
    gives a token) and the largest icons of a full Tableau."""
    victims_supply: int
    """The Victims' piece limit: no round removes more, so a bound at or above it restricts nothing."""
    costliest: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Per Zone: the dearest of the Doubt tokens the Zone holds at Set-Up (0: none)."""

    @classmethod
    def of(cls, game: Game, rounds: int = 16) -> MessagingBounds:
        data = game.cards
        values = data.display.doubt_values
        setup = data.display.setup_doubt
        doubt = tuple(sum(values[z][:setup[z]]) for z in ZONES)
        limit = data.rules.tableau_limit
        cards = [data.movement[n] for n in sorted(data.movement)]
        starting = [data.movement[n] for n in data.movement_starting]
        icons_all = [c.icons.messaging for c in cards]
        start_icons = max((c.icons.messaging for c in starting), default=0)
        passive_all = [c.passive.messaging for c in cards]
        start_passive = max((c.passive.messaging for c in starting), default=0)
        goal_passive = [g.passive.messaging for g in data.goals.values()]
        bonus = max((max(c.left.count(BonusKind.MESSAGING), c.right.count(BonusKind.MESSAGING)) for c in cards),
                    default=0)
        supply = data.supply[TokenKind.MESSAGING]
        has_space = any(space.action is MarketAction.MESSAGING for space in data.market)
        any_token = bool(bonus or any(passive_all) or any(goal_passive))
        full = _top(icons_all, limit)
        every = (supply if any_token else 0) + full if has_space else 0

        def placed(t: int) -> int:
            """Cards placed in the Tableau before turn t's action (none in turn 1: the hand starts empty)."""
            return max(0, t - 2)

        def top_of_tableau(per_card: list[int], start: int, t: int) -> int:
            """The most a Tableau at turn t shows of one per-card figure."""
            if 1 + placed(t) <= limit:
                return start + _top(per_card, placed(t))
            return _top(per_card, limit)

        action: list[int] = []
        total: list[int] = []
        icons: list[int] = []
        tokens: list[int] = []
        tableau: list[int] = []
        gained = 0  # tokens gained before turn t's action
        icon_sum = 0
        for t in range(1, rounds + 1):
            if t >= 2:
                # Between turn t-1 and turn t: a placement in turn t-1 (its Bonus), then Pacing after round t-1
                # (Tableau as at turn t, Goals achieved in turns 1..t-1).
                gained += bonus if placed(t) > placed(t - 1) else 0
                gained += top_of_tableau(passive_all, start_passive, t) + _top(goal_passive, t - 1)
            shown = min(full, top_of_tableau(icons_all, start_icons, t))
            held = min(supply, gained)
            icon_sum += shown
            icons.append(shown)
            tokens.append(held)
            tableau.append(min(limit, 1 + placed(t)))
            action.append(min(every, held + shown) if has_space else 0)
            total.append(gained + icon_sum if has_space else 0)
        costliest = tuple(max(values[z][:setup[z]], default=0) for z in ZONES)
        return cls((doubt[0], doubt[1], doubt[2], doubt[3]), tuple(action), tuple(total), tuple(icons),
                   tuple(tokens), tuple(tableau), every, data.supply[TokenKind.VICTIMS],
                   (costliest[0], costliest[1], costliest[2], costliest[3]))

    def with_action_caps(self, caps: dict[int, int]) -> MessagingBounds:
        """These bounds with round t's one-action figure lowered to `caps[t]` where that is lower (caps proved
        elsewhere, `messaging_caps`)."""
        action = tuple(min(a, caps.get(t, a)) for t, a in enumerate(self.action, start=1))
        return dataclasses.replace(self, action=action)

    def closed(self, t: int) -> tuple[Zone, ...]:
        """The Zones no Victim can leave in round t: their dearest Set-Up Doubt token is dearer than any action
        before turn t can pay, and turn t's action cannot pay it and one Victim more.

        Movement Rules > Messaging: a Zone's Victims are open only once all of its Doubt is removed, and a Doubt
        token is removed by paying its printed cost from the one action's Messaging (the rules give no way to pay
        it over several actions, as Agitation and Goals allows for Goals); Doubt only the Company adds (Adding
        Doubt) makes a Zone dearer still. So the first Victim of such a Zone needs one action with that token's
        cost plus one: none before turn t has its cost, and turn t's has less than that plus one."""
        if t < 1 or t > len(self.action):
            return ()
        before = max(self.action[: t - 1], default=0)
        return tuple(z for z in ZONES if self.costliest[z] > before and self.action[t - 1] < self.costliest[z] + 1)

    def rounds_bounded(self) -> int:
        """The last round whose own bound can restrict a run: later rounds get `every_action` alone."""
        if self.every_action == 0:
            return 0  # no round removes a Victim: `every_action` says so for all of them
        free = sum(self.doubt) + self.victims_supply
        most = min(self.every_action, self.victims_supply)
        last = 0
        for t, (a, s) in enumerate(zip(self.action, self.total, strict=True), start=1):
            if a < most or s < free:
                last = t
        return last

    def admits(self, t: int, removed: tuple[int, ...] | list[int]) -> bool:
        """Whether removing `removed` (per Zone) in round t is within the bound (for the engine checks)."""
        spent = sum(removed)
        if self.every_action < self.victims_supply and spent > self.every_action:
            return False
        if any(removed[z] > 0 for z in self.closed(t)):
            return False
        if t > self.rounds_bounded():
            return True
        opened = sum(self.doubt[z] for z in ZONES if removed[z] > 0)
        return spent <= self.action[t - 1] and spent + opened <= self.total[t - 1]

    def at(self, t: int, removed: list[z3.ArithRef]) -> z3.BoolRef:
        """Round t's removals (per Zone) within the bound: what `constraint` says once the round is known."""
        spent = z3.Sum(removed)
        clauses: list[z3.BoolRef] = []
        if self.every_action < self.victims_supply:
            clauses.append(spent <= self.every_action)
        clauses += [removed[z] == 0 for z in self.closed(t)]
        if t <= self.rounds_bounded():
            opened = z3.Sum([z3.If(removed[z] >= 1, z3.IntVal(self.doubt[z]), z3.IntVal(0)) for z in ZONES])
            clauses += [spent <= self.action[t - 1], spent + opened <= self.total[t - 1]]
        return z3.And(*clauses) if clauses else z3.BoolVal(True)

    def constraint(self, removed: list[z3.ArithRef], turn: z3.ArithRef) -> z3.BoolRef:
        """Round `turn`'s removals within the bound (past the rounds listed, within `every_action`).

        A `turn` below 1 (never a round of a run) gets round 1's bound."""
        last = self.rounds_bounded()
        spent = z3.Sum(removed)
        opened = z3.Sum([z3.If(removed[z] >= 1, z3.IntVal(self.doubt[z]), z3.IntVal(0)) for z in ZONES])
        clauses: list[z3.BoolRef] = []
        if self.every_action < self.victims_supply:
            clauses.append(spent <= self.every_action)
        for t in range(1, max(last, len(self.action)) + 1):
            here = turn <= 1 if t == 1 else turn == t
            shut = [removed[z] == 0 for z in self.closed(t)]
            if t <= last:
                clauses.append(z3.Implies(here, z3.And(spent <= self.action[t - 1],
                                                       spent + opened <= self.total[t - 1], *shut)))
            elif shut:
                clauses.append(z3.Implies(here, z3.And(*shut)))
        return z3.And(*clauses) if clauses else z3.BoolVal(True)
