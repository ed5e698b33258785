"""A second reading of a card file: the `CardSet` its text describes, built from `docs/cards.md` alone, and the first
place where a loaded set departs from it (the invariant `cards.file`).

Every other invariant checks the engine's games against the loaded `CardSet`, so a loader that misreads a
field (an Elderly icon taken for Middle Age, a Goal's Flight count taken for a flag) goes unseen: the checks
trust the same wrong card the engine plays. This reading shares nothing with `doubtspec.model.cards`'s loader
but the model's types. It trusts the file, because the loader has accepted it: every required key is there
with the right type, so nothing here validates, tracks lines or names fields for errors.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from doubtspec.model.cards import (
    AddDoubt,
    AddRestriction,
    AddVictims,
    Ban,
    BonusKind,
    CardSet,
    ChartRow,
    CompanyCard,
    CompanyCardId,
    CompanyEffect,
    Counts,
    Discount,
    Display,
    DoubtGroup,
    DrawCards,
    GainFlight,
    GainInfluence,
    GameRules,
    Goal,
    GoalEffect,
    GoalId,
    HandSize,
    Icon,
    Lobby,
    MarketAction,
    MarketSpace,
    MovementCard,
    MovementCardId,
    NamedEffect,
    Pile,
    RemoveMarketCard,
    ReserveSide,
    ScoreProfit,
    StandardSide,
    TokenKind,
    Trigger,
    Zone,
)

Table = dict[str, Any]

# --- the reading ----------------------------------------------------------------------------------------------------

_COMPANY_OPS: dict[str, type[CompanyEffect]] = {
    "victims": AddVictims, "doubt": AddDoubt, "profit": ScoreProfit, "draw": DrawCards, "lobby": Lobby,
    "remove_market": RemoveMarketCard, "discount": Discount, "named": NamedEffect,
}
_GOAL_OPS: dict[str, type[GoalEffect]] = {
    "ban": Ban, "restriction": AddRestriction, "hand_size": HandSize, "flight": GainFlight, "influence": GainInfluence,
}
"""Each effect `op` of docs/cards.md and the effect it makes. The other keys of an effect's inline table are named as
the effect's fields (`zone`, `group`, `count`, `amount`, `name`, `kind`)."""

_MEANING: dict[str, Callable[[Any], object]] = {
    "zone": lambda key: Zone[key.upper()],  # `middle_age` is Zone.MIDDLE_AGE: the keys are the zones' names
    "group": DoubtGroup,
}
"""How an effect key's value becomes the model's: the keys not listed keep the file's number or string."""

_OP_OF: dict[type, str] = {cls: op for ops in (_COMPANY_OPS, _GOAL_OPS) for op, cls in ops.items()}
"""The `op` that names each effect in the file (for messages)."""


def _effect(table: Table, ops: Mapping[str, type[Any]]) -> Any:
    args = {key: _MEANING.get(key, _same)(value) for key, value in table.items() if key != "op"}
    return ops[table["op"]](**args)


def _same(value: object) -> object:
    return value


def _per_zone(table: Table) -> tuple[int, int, int, int]:
    """A zone-keyed table, left to right on the display; a zone it does not name holds 0."""
    children, adults, middle_age, elderly = (table.get(zone.name.lower(), 0) for zone in Zone)
    return children, adults, middle_age, elderly


def _counts(table: Table | None) -> Counts:
    """Icons or Passive Abilities: the keys are `Counts`' own, a missing one (or a missing table) is 0."""
    return Counts(**(table or {}))


def _trigger(side: Table) -> Trigger | None:
    return Trigger(side["trigger"]) if "trigger" in side else None


def _company_card(card: Table) -> CompanyCard:
    standard = reserve = None
    if (side := card.get("standard")) is not None:
        standard = StandardSide(side["cost"], Icon(side["icon"]), _trigger(side),
                                tuple(_effect(e, _COMPANY_OPS) for e in side["effects"]))
    if (side := card.get("reserve")) is not None:
        reserve = ReserveSide(side["cost"], Icon(side["icon"]), _trigger(side),
                              tuple(_effect(e, _COMPANY_OPS) for e in side["effects"]),
                              on_reshuffle=tuple(_effect(e, _COMPANY_OPS) for e in side.get("on_reshuffle", [])),
                              stays=side.get("stays", False), loopholes=side.get("loopholes", False))
    return CompanyCard(CompanyCardId(card["number"]), card["name"], card["kind"], card["budget"], standard, reserve,
                       tuple(card["invented"]))


def _movement_card(card: Table) -> MovementCard:
    edges = card.get("bonuses", {})
    return MovementCard(MovementCardId(card["number"]), card["name"], card["influence"], _counts(card.get("icons")),
                        tuple(map(BonusKind, edges.get("left", []))), tuple(map(BonusKind, edges.get("right", []))),
                        _counts(card.get("passive")), tuple(card["invented"]))


def _goal(goal: Table) -> Goal:
    return Goal(GoalId(goal["number"]), goal["name"], goal["cost"], goal["points"],
                tuple(_effect(e, _GOAL_OPS) for e in goal.get("effects", [])), _counts(goal.get("passive")),
                tuple(goal["invented"]))


def read_card_file(text: str, source: str = "<string>") -> CardSet:
    """The card set that `text`, a card file the loader has accepted, describes by docs/cards.md."""
    doc = tomllib.loads(text)
    meta, display, company, movement = doc["meta"], doc["display"], doc["company"], doc["movement"]
    cards = {c.number: c for c in map(_company_card, company["cards"])}
    # The cards above the five piles (13-32) come in stacks of an odd card and the even one after it, lowest first:
    # the order is the loader's (docs/cards.md now says so); it only numbers the deal's chance outcomes.
    pairs = tuple((CompanyCardId(n), CompanyCardId(n + 1)) for n in sorted(cards) if n > 32 and n % 2 == 1)
    return CardSet(
        name=meta["name"], version=meta["version"], provisional=meta["provisional"], notes=meta.get("notes", ""),
        source=source,
        rules=GameRules(**doc["rules"]),
        display=Display(
            tuple(tuple(display["doubt_values"][zone.name.lower()]) for zone in Zone),
            _per_zone(display["setup_victims"]), _per_zone(display["setup_doubt"]),
            tuple(ChartRow(row["min_profit"], _per_zone(row["victims"])) for row in display["acceptance_chart"]),
        ),
        supply={kind: doc["supply"][kind.value] for kind in TokenKind},
        starting_deck=tuple(map(CompanyCardId, company["starting_deck"])),
        piles=tuple(Pile(p["kind"], p["name"], tuple(map(CompanyCardId, p["cards"]))) for p in company["piles"]),
        company=cards,
        stack_pairs=pairs,
        movement_starting=tuple(map(MovementCardId, movement["starting_cards"])),
        market=tuple(MarketSpace(s["row"], s["cost"], MarketAction(s["action"])) for s in movement["market"]),
        movement={c.number: c for c in map(_movement_card, movement["cards"])},
        goals={g.number: g for g in map(_goal, doc["goals"])},
        fingerprint=fingerprint(text),
        text=text,
    )


def fingerprint(text: str) -> str:
    """The card file's identifier (docs/cards.md, Fingerprint): twelve hex digits of the SHA-256 of its lines."""
    return hashlib.sha256("\n".join(text.splitlines()).encode()).hexdigest()[:12]


# --- the comparison -------------------------------------------------------------------------------------------------

_NOT_READ = frozenset({"source", "text"})
"""`CardSet` fields that say where the set came from, not what the file says."""

_META = {"name": "meta name", "version": "meta version", "provisional": "meta provisional", "notes": "meta notes"}

_SEQUENCES: dict[str, tuple[str, str]] = {
    "starting_deck": ("company starting_deck", "company starting_deck"), "piles": ("company piles", "company pile"),
    "stack_pairs": ("company stack pairs", "company stack pair"),
    "movement_starting": ("movement starting_cards", "movement starting_cards"),
    "market": ("movement market", "movement market space"),
    "effects": ("effects", "effect"), "on_reshuffle": ("on_reshuffle", "on_reshuffle effect"),
    "chart": ("acceptance_chart", "acceptance_chart row"),
    "doubt_values": ("doubt_values", "doubt_values"), "setup_victims": ("setup_victims", "setup_victims"),
    "setup_doubt": ("setup_doubt", "setup_doubt"), "victims": ("victims", "victims"),
}
"""The tuples compared entry by entry: how a message names the whole and each entry in the file's words."""

_PER_ZONE = frozenset({"doubt_values", "setup_victims", "setup_doubt", "victims"})
"""The tuples with one entry per zone, whose entries are named by the zone's key."""

_EFFECTS = tuple(_OP_OF)


def first_difference(loaded: CardSet, read: CardSet) -> str | None:
    """The first place, in file order, where the `loaded` set departs from the `read` one, or None when they agree.

    The message names the card (number and name) or the table, and the field, with what the file says in its own
    words and what the loaded set holds as the model's objects.
    """
    for f in fields(CardSet):
        if f.name not in _NOT_READ:
            path = _SEQUENCES[f.name][0] if f.name in _SEQUENCES else _META.get(f.name, f.name)
            found = _compare(path, getattr(read, f.name), getattr(loaded, f.name), f.name)
            if found is not None:
                return found
    return None


def _compare(path: str, said: object, has: object, field: str = "") -> str | None:
    """The first difference between `said` (read from the file) and `has` (loaded), `path` naming the place."""
    if said == has and type(said) is type(has):
        return None
    if isinstance(said, Mapping) and isinstance(has, Mapping):
        return _compare_entries(field, said, has)
    if isinstance(said, tuple) and isinstance(has, tuple) and field in _SEQUENCES:
        return _compare_sequence(path, field, said, has)
    if type(said) is type(has) and is_dataclass(said) and not isinstance(said, _EFFECTS):
        for f in fields(said):
            name = _SEQUENCES[f.name][0] if f.name in _SEQUENCES else f.name
            found = _compare(f"{path} {name}", getattr(said, f.name), getattr(has, f.name), f.name)
            if found is not None:
                return found
    return f"{path}: the file says {_words(said)}, the loaded set has {_shown(has)}"


def _compare_sequence(path: str, field: str, said: tuple[Any, ...], has: tuple[Any, ...]) -> str | None:
    """Entry by entry (`path` names the whole tuple); an entry on one side only is the first difference too."""
    whole, entry = _SEQUENCES[field]
    stem = path.removesuffix(whole) + entry
    for i, (a, b) in enumerate(itertools.zip_longest(said, has, fillvalue=_NOTHING)):
        where = f"{stem} {Zone(i).name.lower() if field in _PER_ZONE else i + 1}"
        if a is _NOTHING or b is _NOTHING:
            return (f"{path}: the file says {len(said)} entries, the loaded set has {len(has)} ({where}: the file "
                    f"says {'nothing' if a is _NOTHING else _words(a)}, the loaded set has "
                    f"{'nothing' if b is _NOTHING else _shown(b)})")
        found = _compare(where, a, b)
        if found is not None:
            return found
    return None


_NOTHING = object()
"""The entry past the end of the shorter tuple."""


def _compare_entries(field: str, said: Mapping[Any, Any], has: Mapping[Any, Any]) -> str | None:
    """Cards, Goals or supplies by key; a key on one side only is named first."""
    for key, entry in said.items():
        if key not in has:
            return f"{_entry_name(field, key, entry)}: in the file, not in the loaded set"
    for key, entry in has.items():
        if key not in said:
            return f"{_entry_name(field, key, entry)}: in the loaded set, not in the file"
    for key, entry in said.items():
        found = _compare(_entry_name(field, key, entry), entry, has[key])
        if found is not None:
            return found
    return None


def _entry_name(field: str, key: object, entry: object) -> str:
    name = getattr(entry, "name", None)
    match field:
        case "company":
            return f"card {key} ({name})"
        case "movement":
            return f"Movement card {key} ({name})"
        case "goals":
            return f"Goal G{key} ({name})"
    return f"{field} {_words(key)}"


def _words(value: object) -> str:
    """`value` as the card file writes it: `victims zone elderly count 1`, `"Low-Tar Lights"`, `[1, 2]`."""
    if type(value) in _OP_OF and is_dataclass(value):
        return " ".join([_OP_OF[type(value)], *(f"{f.name} {_words(getattr(value, f.name))}" for f in fields(value))])
    if isinstance(value, Zone):
        return value.name.lower()
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if value is None:
        return "nothing"
    if isinstance(value, tuple):
        return "[" + ", ".join(map(_words, value)) + "]"
    if isinstance(value, Counts):  # an inline table of the counts that are not 0
        return "{" + ", ".join(f"{f.name} = {getattr(value, f.name)}" for f in fields(value)
                               if getattr(value, f.name)) + "}"
    if is_dataclass(value) and not isinstance(value, type):
        return "{" + ", ".join(f"{f.name} = {_words(getattr(value, f.name))}" for f in fields(value)) + "}"
    return str(value)


def _shown(value: object) -> str:
    """`value` as the model holds it: `AddVictims(MIDDLE_AGE, 1)`, `'Low-Tar Lights'`, `(1, 2)`."""
    if isinstance(value, Enum):
        return value.name
    if is_dataclass(value) and not isinstance(value, type):
        return f"{type(value).__name__}({', '.join(_shown(getattr(value, f.name)) for f in fields(value))})"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(_shown, value)) + ("," if len(value) == 1 else "") + ")"
    return repr(value)
