"""The `rulings` invariants: the game plays the readings the project decided for the rulebook's open choices.

Every other check reads the rulings in force from the game (`Game.rulings`) and holds the engine to that reading, so
a registry whose default changed (its readings listed in another order, a default edited) changes every default game
and no check notices: both the engine and the checks follow the new default. The decided defaults are written here a
second time, so that such a change is a failure naming the ruling. A deliberate change of a default updates both
places.
"""

from __future__ import annotations

from collections.abc import Mapping

from doubtspec.invariants.shapes import Invariant, StateInvariant
from doubtspec.model import rulings
from doubtspec.model.rulings import Rulings
from doubtspec.model.state import GameState

DECIDED: Mapping[str, str] = {
    "draw-order": "draw-first",
    "economic-defeat": "at-need",
    "budget-payment": "minimal",
    "trigger-match": "trigger-and-icon",
    "trigger-timing": "after-effects",
    "trash-buy": "top-only",
    "stack-buy": "top-only",
    "restriction-pile-buy": "not-buyable",
    "doubt-full-column": "lost",
    "doubt-values": "visible-digits",
    "scoring-arithmetic": "as-printed",
    "star-timing": "immediately",
    "profit-victory": "held-after-sequence",
    "reshuffle-draw": "up-to-hand-size",
    "mid-play-reshuffle": "silent",
    "lobby-targets": "market-and-goals",
    "lobby-optional": "optional",
    "unlobby": "one-card-before-first-play",
    "banned-reserve": "no-effect",
    "ban-scope": "kind",
    "discount-scope": "next-buy",
    "remove-market-destination": "movement-discard",
    "restriction-source": "pile-only",
    "pile-order": "lowest-on-top",
    "named-effects": "registry",
    "tableau-geometry": "ends",
    "bonus-alignment": "facing-edges",
    "refresh-bonus": "nothing",
    "influence-payment": "shortfall-tokens",
    "refresh-passives": "face-up-tableau",
    "pass-bonus": "no-tokens",
    "hand-limit": "three-plus-goals",
    "messaging-zones": "one-zone",
    "messaging-spend-order": "icons-first",
    "agitation-progress": "icons-then-tokens",
    "goal-split": "even",
    "goal-overlap": "pyramid",
    "market-shift": "reading-order",
    "organize": "optional-play",
    "flight": "wild-influence",
    "supply-exhausted": "take-what-remains",
    "turn-numbering": "round",
}
"""Each ruling's default reading, as decided (the registry, `doubtspec.model.rulings`, says the same)."""


def defaults_report(registry: Mapping[str, rulings.Ruling], in_force: Rulings) -> str | None:
    """Where the registry or the rulings in force depart from `DECIDED`; None when they agree.

    A ruling chosen explicitly (`--ruling ID=CHOICE`, a fuzz variant) is the user's reading, not a default, and is
    not compared.
    """
    problems = []
    for ruling_id in sorted(registry.keys() - DECIDED.keys()):
        problems.append(f"ruling {ruling_id} has no decided default here (a new ruling: record its default in "
                        f"{__name__}.DECIDED)")
    for ruling_id in sorted(DECIDED.keys() - registry.keys()):
        problems.append(f"ruling {ruling_id} is decided here but missing from the registry")
    chosen = dict(in_force.choices)
    for ruling_id, ruling in registry.items():
        decided = DECIDED.get(ruling_id)
        if decided is None or ruling_id in chosen:
            continue
        played = in_force.get(ruling_id)
        if played != decided:
            problems.append(f"ruling {ruling_id} ({ruling.section.value}): a default game plays {played!r}, the "
                            f"decided default is {decided!r} (the registry's readings: "
                            f"{', '.join(ruling.choice_names)})")
    return "; ".join(problems) if problems else None


_verdicts: dict[tuple[int, Rulings], tuple[object, str | None]] = {}


def _defaults(state: GameState) -> str | None:
    """`defaults_report` for the state's rulings, worked out once per registry and rulings (the registry by
    identity, kept beside the verdict, so a registry replaced in a test is read again)."""
    registry = rulings.BY_ID
    in_force = state.game.rulings
    key = (id(registry), in_force)
    known = _verdicts.get(key)
    if known is None or known[0] is not registry:
        known = _verdicts[key] = (registry, defaults_report(registry, in_force))
    return known[1]


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rulings.defaults", "A default game plays each ruling's decided default reading.",
                   tuple(dict.fromkeys(r.section for r in rulings.REGISTRY)), _defaults),
)
"""The `rulings.*` invariants, in the order they are checked and listed."""
