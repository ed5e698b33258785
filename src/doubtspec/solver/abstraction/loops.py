"""A bound on the plays of draw cards that can loop through a mid-play reshuffle, proved per card file.

A class whose play draws at least as many cards as it uses (the card and its least number of payers:
on the shipped set #5 and #51 draw 2 for a cost of 1, #52 draws 1 for nothing) can be played again and
again once a mid-play reshuffle brings the discards back, in the game and in the abstraction. So no
bound on its plays holds, and `cpsat.prove_box` holds only for rounds without a mid-play reshuffle.

What does hold is a **shrink**: every round of the abstraction with more than `bound` plays of such a
class is still a round of the abstraction, with the same states before and after and the same
Reshuffle Sequence and mid-play reshuffle, after one cycle is taken away: one play of the class and the
copy of it drawn back, and for a class that costs anything, one payer spent and drawn back. Applied
round by round until no looping class has more than `bound` plays, it turns every run into a run with
the same states whose looping plays are at most `bound` a round, so a check asserting that bound in
every round (what CP-SAT is given, see `company_schedules`) loses no run's states.

The shrink is proved by UNSAT checks over the round template (`prove_loop_bounds`), with the proved
lemmas on the state before the round: a round with more than `bound` plays of the class from which no
cycle can be taken away is impossible. A cycle of a class that costs anything is taken with one payer
p (one map per class with Budget); the check is split by the least Budget b of a class whose spent
cards outnumber those in hand and drawn from the deck (so some were drawn back): every class of
Budget below b has no more spent than held or drawn from the deck, and the maps tried are those of
Budget b; a last case has no such class at all. The cases cover every round. Each map changes a few
unknowns, so only the conjuncts that name one of them are copied; the premise keeps only the Play
Phase's conjuncts (a weaker premise makes the check's claim stronger, never wrong).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import z3

from doubtspec.solver.abstraction.company import CardClass, CompanyLayout
from doubtspec.solver.abstraction.system import RoundSystem, StepTemplate, constants
from doubtspec.solver.verdict import Budget

LOOP_BOUND = 20
"""Plays of each looping class a round is shrunk to (on the shipped set 12 is too few: a round may spend
more cards held or drawn from the deck than that before any is drawn back; 20 is proved)."""
PLAY_PHASE = ("play_", "reserveplay_", "spend_", "spendbuy_", "left_", "trashhand_", "drawdeck_", "drawcycle_",
              "midshuffle", "activate_", "restrict_", "deck_after_play_", "discard_after_play_", "msg_")
"""The round's unknowns of the Movement's turn and the Play Phase (what the premise of a shrink check keeps)."""


def looping_classes(layout: CompanyLayout) -> list[CardClass]:
    """Classes whose standard play draws at least the card and its least number of payers."""
    top = max((k.budget for k in layout.classes), default=1) or 1
    looping = []
    for k in layout.classes:
        side = k.standard
        if side is None or not k.standard_totals.draw:
            continue
        payers = -(-side.cost // top) if side.cost > 0 else 0
        if k.standard_totals.draw >= 1 + payers:
            looping.append(k)
    return looping


@dataclass(frozen=True, slots=True)
class LoopBounds:
    """The proved shrink: at most `bound` plays of each class in `classes` per round loses no run's states."""

    bound: int
    classes: tuple[str, ...]
    """The looping classes' names (`CardClass.name`)."""

    def at(self, suffix: str) -> list[z3.BoolRef]:
        """The bound on one round's unknowns (`"@step"` for the template, `"@k"` for round k)."""
        return [z3.Int(f"play_{name}{suffix}") <= self.bound for name in self.classes]


def _flat(e: z3.BoolRef) -> Iterator[z3.BoolRef]:
    if z3.is_and(e):
        for child in e.children():
            yield from _flat(child)
    else:
        yield e


def _names(e: z3.ExprRef) -> frozenset[str]:
    return frozenset(term.decl().name() for term in constants([e]))


def prove_loop_bounds(system: RoundSystem, template: StepTemplate, layout: CompanyLayout, budget: Budget,
                      bound: int = LOOP_BOUND, cap_s: float = 20.0) -> LoopBounds | None:
    """Prove the shrink (see the module's docstring) for every looping class; None if one check is not UNSAT.

    `system` carries the proved lemmas (asserted on the state before the round)."""
    looping = looping_classes(layout)
    if not looping:
        return LoopBounds(bound, ())
    unknowns = {term.decl().name(): term for term in template.fresh if z3.is_int(term)}

    def unknown(name: str) -> z3.ArithRef:
        return unknowns[f"{name}@step"]

    conjuncts = [(c, _names(c)) for c in _flat(template.formula)]
    pre_names = {v.decl().name() for v in template.pre.values()}
    premise = [c for c, names in conjuncts if all(n in pre_names or n.startswith(PLAY_PHASE) for n in names)]

    def without(cycle: dict[str, int]) -> z3.BoolRef:
        """The round's conjuncts that name an unknown of `cycle`, with `cycle` taken away."""
        pairs = [(unknown(n), unknown(n) - d) for n, d in cycle.items()]
        changed = {unknown(n).decl().name() for n in cycle}
        return z3.And([z3.substitute(c, *pairs) for c, names in conjuncts if names & changed])

    levels = sorted({k.budget for k in layout.classes if k.budget > 0})
    for c in looping:
        assert c.standard is not None
        base = [*premise, system.invariant(template.pre), unknown(f"play_{c.name}") > bound]
        cases: list[tuple[list[z3.BoolRef], list[z3.BoolRef]]] = []
        if c.standard.cost == 0:
            cases.append(([], [without({f"play_{c.name}": 1, f"drawcycle_{c.name}": 1})]))
        else:
            def drawn_back(p: CardClass) -> z3.BoolRef:
                return unknown(f"spend_{p.name}") > template.pre[f"hand_{p.name}"] + unknown(f"drawdeck_{p.name}")

            for i, level in enumerate([*levels, None]):
                below = [z3.Not(drawn_back(p)) for p in layout.classes if p.budget in levels[:i]]
                if level is None:
                    cases.append((below, []))
                    continue
                payers = [p for p in layout.classes if p.budget == level]
                maps = []
                for p in payers:
                    cycle = {f"play_{c.name}": 1, f"drawcycle_{c.name}": 1}
                    for name in (f"spend_{p.name}", f"drawcycle_{p.name}"):
                        cycle[name] = cycle.get(name, 0) + 1
                    maps.append(without(cycle))
                cases.append(([*below, z3.Or([drawn_back(p) for p in payers])], maps))
        for condition, maps in cases:
            solver = z3.SolverFor("QF_LIA")
            solver.add(*base, *condition, *[z3.Not(m) for m in maps])
            solver.set("timeout", budget.z3_ms(cap_s))
            if solver.check() != z3.unsat:
                return None
    return LoopBounds(bound, tuple(k.name for k in looping))
