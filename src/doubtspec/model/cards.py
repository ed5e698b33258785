"""Card data: the typed model of a card file and its validating loader.

Cards are data, not code. A card file (TOML, format in `docs/cards.md`) describes both sides'
cards, the Goals, the Movement's Market spaces, the Company's display and every supply's piece
limit. Effects are a small closed vocabulary of primitives; text effects that must be code are
referenced by name (`op = "named"`) and implemented once in the engine.

`load_cards` validates everything and raises `CardFileError` naming the file, the line where it
can be found, the card and the field.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum
from importlib import resources
from pathlib import Path
from typing import Any, NewType, TypeVar

from doubtspec.errors import CardFileError
from doubtspec.inputs import parse_toml, read_text

CompanyCardId = NewType("CompanyCardId", int)
MovementCardId = NewType("MovementCardId", int)
GoalId = NewType("GoalId", int)


class Zone(IntEnum):
    """A demographic zone of the Company's display, left to right; also its Doubt column."""

    CHILDREN = 0
    ADULTS = 1
    MIDDLE_AGE = 2
    ELDERLY = 3

    @property
    def key(self) -> str:
        return self.name.lower()


ZONE_BY_KEY: Mapping[str, Zone] = {z.key: z for z in Zone}


class DoubtGroup(Enum):
    """The two larger zones for Doubt (Standard Effects): I covers Children and Adults, II the rest."""

    I = "I"  # noqa: E741 - the rulebook's own name
    II = "II"

    @property
    def columns(self) -> tuple[Zone, Zone]:
        return (Zone.CHILDREN, Zone.ADULTS) if self is DoubtGroup.I else (Zone.MIDDLE_AGE, Zone.ELDERLY)


class Icon(Enum):
    """The large icon of a Company card: its action type, which triggers match against."""

    VICTIMS = "victims"
    DOUBT = "doubt"
    PROFIT = "profit"
    TEXT = "text"


class Trigger(Enum):
    PRINT = "print"
    TELEVISION = "television"


class MarketAction(Enum):
    """The Action of a Movement Market space (Buying a Card)."""

    REFRESH = "refresh"
    RESEARCH = "research"
    MESSAGING = "messaging"
    AGITATION = "agitation"
    ORGANIZE = "organize"


class BonusKind(Enum):
    """A Bonus on a Movement card's edge (Playing a Card); also the kinds of Passive Abilities."""

    INFLUENCE = "influence"
    MESSAGING = "messaging"
    AGITATION = "agitation"
    REFRESH = "refresh"


class TokenKind(Enum):
    """Every kind of token, each with a piece-limited supply."""

    PROFIT = "profit"
    VICTIMS = "victims"
    DOUBT = "doubt"
    STARS = "stars"
    INFLUENCE = "influence"
    MESSAGING = "messaging"
    AGITATION = "agitation"
    BANS = "bans"
    FLIGHT = "flight"


# --- Company effects ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AddVictims:
    zone: Zone
    count: int


@dataclass(frozen=True, slots=True)
class AddDoubt:
    group: DoubtGroup
    count: int


@dataclass(frozen=True, slots=True)
class ScoreProfit:
    count: int


@dataclass(frozen=True, slots=True)
class DrawCards:
    count: int


@dataclass(frozen=True, slots=True)
class Lobby:
    count: int


@dataclass(frozen=True, slots=True)
class RemoveMarketCard:
    count: int


@dataclass(frozen=True, slots=True)
class Discount:
    amount: int


@dataclass(frozen=True, slots=True)
class NamedEffect:
    name: str


CompanyEffect = AddVictims | AddDoubt | ScoreProfit | DrawCards | Lobby | RemoveMarketCard | Discount | NamedEffect

NAMED_EFFECTS: frozenset[str] = frozenset({"trash_from_hand"})
"""Text effects implemented in the engine (`doubtspec.model.engine`), by name."""


@dataclass(frozen=True, slots=True)
class StandardSide:
    cost: int
    icon: Icon
    trigger: Trigger | None
    effects: tuple[CompanyEffect, ...]


@dataclass(frozen=True, slots=True)
class ReserveSide:
    cost: int
    icon: Icon
    trigger: Trigger | None
    effects: tuple[CompanyEffect, ...]
    on_reshuffle: tuple[CompanyEffect, ...] = ()
    stays: bool = False
    loopholes: bool = False


@dataclass(frozen=True, slots=True)
class CompanyCard:
    number: CompanyCardId
    name: str
    kind: str
    budget: int
    standard: StandardSide | None
    reserve: ReserveSide | None
    invented: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Pile:
    kind: str
    name: str
    cards: tuple[CompanyCardId, ...]


# --- Movement -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Counts:
    """Counts per bonus kind; used for icons, passives and gains."""

    influence: int = 0
    messaging: int = 0
    agitation: int = 0
    refresh: int = 0
    research: int = 0

    def any(self) -> bool:
        return bool(self.influence or self.messaging or self.agitation or self.refresh or self.research)


@dataclass(frozen=True, slots=True)
class MovementCard:
    number: MovementCardId
    name: str
    influence: int
    icons: Counts
    left: tuple[BonusKind, ...]
    right: tuple[BonusKind, ...]
    passive: Counts
    invented: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MarketSpace:
    row: int
    cost: int
    action: MarketAction


@dataclass(frozen=True, slots=True)
class Ban:
    kind: str


@dataclass(frozen=True, slots=True)
class AddRestriction:
    count: int


@dataclass(frozen=True, slots=True)
class HandSize:
    amount: int


@dataclass(frozen=True, slots=True)
class GainFlight:
    count: int


@dataclass(frozen=True, slots=True)
class GainInfluence:
    count: int


GoalEffect = Ban | AddRestriction | HandSize | GainFlight | GainInfluence


@dataclass(frozen=True, slots=True)
class Goal:
    number: GoalId
    name: str
    cost: int
    points: int
    effects: tuple[GoalEffect, ...]
    passive: Counts
    invented: tuple[str, ...]


# --- The whole set ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRules:
    """The numbers of the rules that a card file may change (a designer's variant)."""

    company_hand_size: int
    stacks_dealt: int
    profit_to_win: int
    star_threshold: int
    stars_to_win: int
    movement_hand_limit: int
    tableau_limit: int
    movement_starting_influence: int
    goal_points_to_win: int


@dataclass(frozen=True, slots=True)
class ChartRow:
    min_profit: int
    victims: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Display:
    doubt_values: tuple[tuple[int, ...], ...]
    """Per column (Zone order), the values of its spaces from top to bottom."""
    setup_victims: tuple[int, int, int, int]
    setup_doubt: tuple[int, int, int, int]
    chart: tuple[ChartRow, ...]

    def seed_for(self, profit: int) -> tuple[int, int, int, int]:
        """The Social Acceptance Chart row for a Reshuffle that scored `profit`."""
        row = self.chart[0]
        for candidate in self.chart:
            if profit >= candidate.min_profit:
                row = candidate
        return row.victims


@dataclass(frozen=True, slots=True)
class CardSet:
    """A whole validated card file."""

    name: str
    version: str
    provisional: bool
    notes: str
    source: str
    rules: GameRules
    display: Display
    supply: Mapping[TokenKind, int]
    starting_deck: tuple[CompanyCardId, ...]
    piles: tuple[Pile, ...]
    company: Mapping[CompanyCardId, CompanyCard]
    stack_pairs: tuple[tuple[CompanyCardId, CompanyCardId], ...]
    """(odd, even) pairs of the cards numbered above the piles."""
    movement_starting: tuple[MovementCardId, ...]
    market: tuple[MarketSpace, ...]
    movement: Mapping[MovementCardId, MovementCard]
    goals: Mapping[GoalId, Goal]
    fingerprint: str = field(default="")
    text: str = field(default="", repr=False, compare=False)
    """The text the set was read from ("" for a set built by hand). `dataclasses.replace` keeps it, so a set changed
    after loading no longer agrees with it: the invariant `cards.file` reads it a second time to check the loader."""

    def restriction_pile(self) -> int | None:
        """Index of the Restrictions pile in `piles`, if there is one."""
        for i, pile in enumerate(self.piles):
            if pile.kind == "restriction":
                return i
        return None

    def company_kinds(self) -> frozenset[str]:
        return frozenset(card.kind for card in self.company.values())


DEFAULT_CARDS_PATH = "provisional.toml"


def default_cards_path() -> Path:
    """The shipped provisional set."""
    return Path(str(resources.files("doubtspec.data").joinpath(DEFAULT_CARDS_PATH)))


def load_cards(path: Path | str | None = None) -> CardSet:
    """Read and validate a card file; `None` loads the shipped provisional set."""
    path = default_cards_path() if path is None else Path(path)
    return parse_cards(read_text(path, error=CardFileError, what="card file"), path)


def parse_cards(text: str, path: Path | str = "<string>") -> CardSet:
    """Validate the text of a card file (see `load_cards`)."""
    raw = parse_toml(text, path, error=CardFileError, what="card file")
    return replace(_Loader(raw, text, str(path)).load(), text=text)


# --- Validation ---------------------------------------------------------------------------

_E = TypeVar("_E", bound=Enum)
_KIND_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_PILE_SETUP: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("print_media", tuple(range(13, 17))),
    ("television", tuple(range(17, 21))),
    ("culture", tuple(range(21, 25))),
    ("doubt", tuple(range(25, 29))),
    ("restriction", tuple(range(29, 33))),
)
"""The five Market piles by the Company's Set-Up: kinds and card numbers."""


class _Loader:
    """One validation pass over a parsed card file; every error names file, line and field."""

    def __init__(self, raw: dict[str, Any], text: str, path: str) -> None:
        self.raw = raw
        self.lines = text.splitlines()
        self.path = path

    # -- error helpers --
    def fail(self, message: str, field: str, line: int | None = None) -> CardFileError:
        """The error for `field`, at `line` or else where the file writes the field (`line_of_field`)."""
        return CardFileError(message, path=self.path, line=line if line is not None else self.line_of_field(field),
                             field=field)

    def line_of_field(self, field: str) -> int | None:
        """Where the file writes `field`: `movement.market[3].row` at that key of the fourth `[[movement.market]]`
        (or the entry's header), `meta.notes` at that key of `[meta]`, `movement.market` or `rules` at the first
        header of that name; None when the file writes none of them (a missing table, an inline array)."""
        indexed = re.fullmatch(r"([A-Za-z_.]+)\[(\d+)\](?:\.([A-Za-z_]+))?.*", field)
        if indexed:
            header, index, key = indexed.group(1), int(indexed.group(2)), indexed.group(3)
            return self.entry_line(header, index, key, None) if key else self.header_line(header, index)
        found = self.header_line(field, 0)
        if found is not None or "." not in field:
            return found
        table, _, key = field.rpartition(".")
        return self.key_in_table(table, key) or self.header_line(table, 0)

    def header_line(self, header: str, index: int) -> int | None:
        """The line of the `index`-th `[[header]]` (or, for index 0, of `[header]`); None if there is none."""
        array_re = re.compile(r"^\s*\[\[\s*" + re.escape(header) + r"\s*\]\]")
        starts = [i for i, line in enumerate(self.lines, start=1) if array_re.match(line)]
        if index < len(starts):
            return starts[index]
        table_re = re.compile(r"^\s*\[\s*" + re.escape(header) + r"\s*\](?!\])")
        if index == 0:
            return next((i for i, line in enumerate(self.lines, start=1) if table_re.match(line)), None)
        return None

    def line_of_entry(self, header: str, key: str, value: object) -> int | None:
        """The line of `key = value` inside the first `[[header]]` block that holds it (its sub-tables included)."""
        header_re = re.compile(r"^\s*\[\[\s*" + re.escape(header) + r"\s*\]\]")
        key_re = re.compile(r"^\s*" + re.escape(key) + r"\s*=\s*" + re.escape(str(value)) + r"\s*(#.*)?$")
        inside = False
        for i, line in enumerate(self.lines, start=1):
            if header_re.match(line):
                inside = True
            elif line.lstrip().startswith("["):
                # Any other header ends the block, but a sub-table of the entry (`[company.cards.standard]`).
                inside = inside and line.lstrip().startswith("[" + header + ".")
            if inside and key_re.match(line):
                return i
        return None

    def entry_line(self, header: str, index: int, key: str, value: object) -> int | None:
        """The line of `key` in the `index`-th `[[header]]` table (its header line if the key is absent).

        Counting tables rather than searching for the value keeps the line right when two entries
        share a value (a duplicate card number) or the value is of the wrong type. Arrays written
        inline have no headers; then the first `key = value` line is the best guess, or else the line
        that writes the array (an entry that is not a table has no keys).
        """
        header_re = re.compile(r"^\s*\[\[\s*" + re.escape(header) + r"\s*\]\]")
        starts = [i for i, line in enumerate(self.lines) if header_re.match(line)]
        if index >= len(starts):
            return self.line_of_entry(header, key, value) or self.line_of_key(header.rsplit(".", 1)[-1])
        key_re = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for i in range(starts[index] + 1, len(self.lines)):
            line = self.lines[i].lstrip()
            if line.startswith("[") and not line.startswith("[" + header + "."):
                break  # the next table: the key is not in this entry
            if key_re.match(line):
                return i + 1
        return starts[index] + 1

    def line_in_table(self, table: str, key: str) -> int | None:
        """The line of `key = ...` inside the `[table]` section (keys such as `victims` recur elsewhere), or else
        its first line anywhere."""
        return self.key_in_table(table, key) or self.line_of_key(key)

    def key_in_table(self, table: str, key: str) -> int | None:
        """The line of `key = ...` inside the `[table]` section; None if the section does not write it."""
        header_re = re.compile(r"^\s*\[\s*" + re.escape(table) + r"\s*\]")
        key_re = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        inside = False
        for i, line in enumerate(self.lines, start=1):
            if header_re.match(line):
                inside = True
            elif inside and line.lstrip().startswith("["):
                break
            elif inside and key_re.match(line):
                return i
        return None

    def line_of_key(self, key: str) -> int | None:
        key_re = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for i, line in enumerate(self.lines, start=1):
            if key_re.match(line):
                return i
        return None

    def table(self, data: object, field: str, line: int | None = None) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(f"expected a table, got {type(data).__name__}", field, line)
        return data

    def keys(self, data: dict[str, Any], allowed: set[str], required: set[str], field: str,
             line: int | None = None) -> None:
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise self.fail(f"unknown key {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})",
                            f"{field}.{unknown[0]}", line)
        missing = sorted(required - set(data))
        if missing:
            raise self.fail(f"missing required key {missing[0]!r}", f"{field}.{missing[0]}", line)

    def integer(self, data: dict[str, Any], key: str, field: str, line: int | None = None,
                minimum: int = 0, default: int | None = None) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"expected an integer, got {value!r}", f"{field}.{key}", line)
        if value < minimum:
            raise self.fail(f"must be at least {minimum}, got {value}", f"{field}.{key}", line)
        return value

    def string(self, data: dict[str, Any], key: str, field: str, line: int | None = None,
               default: str | None = None) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or not value:
            raise self.fail(f"expected a non-empty string, got {value!r}", f"{field}.{key}", line)
        return value

    def boolean(self, data: dict[str, Any], key: str, field: str, line: int | None, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"expected true or false, got {value!r}", f"{field}.{key}", line)
        return value

    def enum(self, cls: type[_E], value: object, field: str, line: int | None) -> _E:
        for member in cls:
            if member.value == value:
                return member
        choices = ", ".join(repr(m.value) for m in cls)
        raise self.fail(f"unknown value {value!r}; expected one of {choices}", field, line)

    def int_list(self, value: object, field: str, line: int | None) -> tuple[int, ...]:
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise self.fail(f"expected a list of integers, got {value!r}", field, line)
        return tuple(value)

    def invented(self, data: dict[str, Any], field: str, line: int | None) -> tuple[str, ...]:
        value = data.get("invented")
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail("expected a list of invented field paths ([\"*\"] for all, [] for none)",
                            f"{field}.invented", line)
        return tuple(value)

    def counts(self, value: object, allowed: set[str], field: str, line: int | None) -> Counts:
        data = self.table(value if value is not None else {}, field, line)
        self.keys(data, allowed, set(), field, line)
        return Counts(**{k: self.integer(data, k, field, line) for k in data})

    # -- sections --
    def load(self) -> CardSet:
        raw = self.raw
        self.keys(raw, {"meta", "rules", "display", "supply", "company", "movement", "goals"},
                  {"meta", "rules", "display", "supply", "company", "movement", "goals"}, "file")
        meta = self.table(raw["meta"], "meta", self.line_of_key("name"))
        self.keys(meta, {"name", "version", "provisional", "notes"}, {"name", "version", "provisional"}, "meta")
        rules = self.load_rules()
        display = self.load_display()
        supply = self.load_supply()
        self.check_setup_pieces(supply, display, rules)
        company, deck, piles, pairs = self.load_company(rules)
        movement, starting, market = self.load_movement()
        goals = self.load_goals(company)
        notes = meta.get("notes", "")
        if not isinstance(notes, str):
            raise self.fail("expected a string", "meta.notes")
        return CardSet(
            name=self.string(meta, "name", "meta"),
            version=self.string(meta, "version", "meta"),
            provisional=self.boolean(meta, "provisional", "meta", None, True),
            notes=notes,
            source=self.path,
            rules=rules,
            display=display,
            supply=supply,
            starting_deck=deck,
            piles=piles,
            company=company,
            stack_pairs=pairs,
            movement_starting=starting,
            market=market,
            movement=movement,
            goals=goals,
            fingerprint=_fingerprint(self.lines),
        )

    def load_rules(self) -> GameRules:
        data = self.table(self.raw["rules"], "rules")
        names = set(GameRules.__dataclass_fields__)
        self.keys(data, names, names, "rules")
        values = {k: self.integer(data, k, "rules", self.line_in_table("rules", k),
                                  minimum=1 if k != "stacks_dealt" else 0)
                  for k in names}
        return GameRules(**values)

    def load_display(self) -> Display:
        data = self.table(self.raw["display"], "display")
        self.keys(data, {"doubt_values", "setup_victims", "setup_doubt", "acceptance_chart"},
                  {"doubt_values", "setup_victims", "setup_doubt", "acceptance_chart"}, "display")
        zone_keys = {z.key for z in Zone}
        values_raw = self.table(data["doubt_values"], "display.doubt_values")
        self.keys(values_raw, zone_keys, zone_keys, "display.doubt_values")
        doubt_values = []
        for zone in Zone:
            line = self.line_in_table("display.doubt_values", zone.key)
            column = self.int_list(values_raw[zone.key], f"display.doubt_values.{zone.key}", line)
            if not column or any(v < 0 for v in column):
                raise self.fail("a column needs at least one space, each with a value >= 0",
                                f"display.doubt_values.{zone.key}", line)
            doubt_values.append(column)
        victims_raw = self.table(data["setup_victims"], "display.setup_victims")
        self.keys(victims_raw, zone_keys, set(), "display.setup_victims")
        setup_victims = tuple(self.integer(victims_raw, z.key, "display.setup_victims",
                                           self.line_in_table("display.setup_victims", z.key), default=0)
                              for z in Zone)
        doubt_raw = self.table(data["setup_doubt"], "display.setup_doubt")
        self.keys(doubt_raw, zone_keys, set(), "display.setup_doubt")
        setup_doubt = tuple(self.integer(doubt_raw, z.key, "display.setup_doubt",
                                         self.line_in_table("display.setup_doubt", z.key), default=0)
                            for z in Zone)
        for zone in Zone:
            if setup_doubt[zone] > len(doubt_values[zone]):
                raise self.fail(f"more Doubt than the column has spaces ({len(doubt_values[zone])})",
                                f"display.setup_doubt.{zone.key}", self.line_in_table("display.setup_doubt", zone.key))
        chart_raw = data["acceptance_chart"]
        if not isinstance(chart_raw, list) or not chart_raw:
            raise self.fail("expected a non-empty list of rows", "display.acceptance_chart")
        chart: list[ChartRow] = []
        for i, row_raw in enumerate(chart_raw):
            fname = f"display.acceptance_chart[{i}]"
            line = self.entry_line("display.acceptance_chart", i, "min_profit",
                                   row_raw.get("min_profit") if isinstance(row_raw, dict) else None)
            row = self.table(row_raw, fname, line)
            self.keys(row, {"min_profit", "victims"}, {"min_profit", "victims"}, fname, line)
            seed = self.table(row["victims"], f"{fname}.victims", line)
            self.keys(seed, zone_keys, set(), f"{fname}.victims", line)
            chart.append(ChartRow(
                self.integer(row, "min_profit", fname, line),
                (*(self.integer(seed, z.key, f"{fname}.victims", line, default=0) for z in Zone),),  # type: ignore[arg-type]
            ))
        if chart[0].min_profit != 0 or any(a.min_profit >= b.min_profit for a, b in itertools.pairwise(chart)):
            raise self.fail("rows must start at min_profit = 0 and ascend strictly", "display.acceptance_chart")
        return Display(tuple(doubt_values), setup_victims, setup_doubt, tuple(chart))  # type: ignore[arg-type]

    def load_supply(self) -> dict[TokenKind, int]:
        data = self.table(self.raw["supply"], "supply")
        names = {k.value for k in TokenKind}
        self.keys(data, names, names, "supply")
        return {k: self.integer(data, k.value, "supply", self.line_in_table("supply", k.value)) for k in TokenKind}

    def check_setup_pieces(self, supply: Mapping[TokenKind, int], display: Display, rules: GameRules) -> None:
        """Set-Up (both sides): the pieces placed at Set-Up must exist in the piece-limited supplies."""
        needs = {TokenKind.VICTIMS: sum(display.setup_victims), TokenKind.DOUBT: sum(display.setup_doubt),
                 TokenKind.INFLUENCE: rules.movement_starting_influence}
        for kind, need in needs.items():
            if supply[kind] < need:
                raise self.fail(f"{supply[kind]} pieces cannot cover the {need} placed at Set-Up",
                                f"supply.{kind.value}", self.line_in_table("supply", kind.value))

    def company_effects(self, value: object, field: str, line: int | None) -> tuple[CompanyEffect, ...]:
        if not isinstance(value, list):
            raise self.fail("expected a list of effects", field, line)
        effects: list[CompanyEffect] = []
        for i, item in enumerate(value):
            ef = f"{field}[{i}]"
            data = self.table(item, ef, line)
            op = data.get("op")
            effect: CompanyEffect
            match op:
                case "victims":
                    self.keys(data, {"op", "zone", "count"}, {"op", "zone", "count"}, ef, line)
                    zone = ZONE_BY_KEY.get(data["zone"])
                    if zone is None:
                        raise self.fail(f"unknown zone {data['zone']!r}; expected one of "
                                        f"{', '.join(ZONE_BY_KEY)}", f"{ef}.zone", line)
                    effect = AddVictims(zone, self.integer(data, "count", ef, line, minimum=1))
                case "doubt":
                    self.keys(data, {"op", "group", "count"}, {"op", "group", "count"}, ef, line)
                    effect = AddDoubt(self.enum(DoubtGroup, data["group"], f"{ef}.group", line),
                                      self.integer(data, "count", ef, line, minimum=1))
                case "profit" | "draw" | "lobby" | "remove_market":
                    self.keys(data, {"op", "count"}, {"op", "count"}, ef, line)
                    count = self.integer(data, "count", ef, line, minimum=1)
                    effect = (ScoreProfit(count) if op == "profit" else DrawCards(count) if op == "draw"
                              else Lobby(count) if op == "lobby" else RemoveMarketCard(count))
                case "discount":
                    self.keys(data, {"op", "amount"}, {"op", "amount"}, ef, line)
                    effect = Discount(self.integer(data, "amount", ef, line, minimum=1))
                case "named":
                    self.keys(data, {"op", "name"}, {"op", "name"}, ef, line)
                    name = self.string(data, "name", ef, line)
                    if name not in NAMED_EFFECTS:
                        raise self.fail(f"unknown named effect {name!r}; known: {', '.join(sorted(NAMED_EFFECTS))}",
                                        f"{ef}.name", line)
                    effect = NamedEffect(name)
                case _:
                    raise self.fail(
                        f"unknown effect op {op!r}; expected one of victims, doubt, profit, draw, lobby,"
                        " remove_market, discount, named", f"{ef}.op", line)
            effects.append(effect)
        return tuple(effects)

    def load_company(self, rules: GameRules) -> tuple[
        dict[CompanyCardId, CompanyCard], tuple[CompanyCardId, ...], tuple[Pile, ...],
        tuple[tuple[CompanyCardId, CompanyCardId], ...]
    ]:
        data = self.table(self.raw["company"], "company")
        self.keys(data, {"starting_deck", "piles", "cards"}, {"starting_deck", "piles", "cards"}, "company")
        cards: dict[CompanyCardId, CompanyCard] = {}
        if not isinstance(data["cards"], list):
            raise self.fail("expected an array of tables [[company.cards]]", "company.cards")
        for i, raw_card in enumerate(data["cards"]):
            number = raw_card.get("number") if isinstance(raw_card, dict) else None
            line = self.entry_line("company.cards", i, "number", number)
            fname = f"company.cards[{i}]" if number is None else f"company card {number}"
            card_raw = self.table(raw_card, fname, line)
            self.keys(card_raw, {"number", "name", "kind", "budget", "standard", "reserve", "invented"},
                      {"number", "name", "kind", "budget", "invented"}, fname, line)
            num = CompanyCardId(self.integer(card_raw, "number", fname, line, minimum=1))
            if num in cards:
                raise self.fail(f"duplicate card number {num}", f"{fname}.number", line)
            kind = self.string(card_raw, "kind", fname, line)
            if not _KIND_RE.match(kind):
                raise self.fail(f"kind must be a lowercase identifier, got {kind!r}", f"{fname}.kind", line)
            standard = reserve = None
            if "standard" in card_raw:
                sf = f"{fname}.standard"
                s = self.table(card_raw["standard"], sf, line)
                self.keys(s, {"cost", "icon", "trigger", "effects"}, {"cost", "icon", "effects"}, sf, line)
                standard = StandardSide(
                    self.integer(s, "cost", sf, line),
                    self.enum(Icon, s["icon"], f"{sf}.icon", line),
                    None if "trigger" not in s else self.enum(Trigger, s["trigger"], f"{sf}.trigger", line),
                    self.company_effects(s["effects"], f"{sf}.effects", line),
                )
            if "reserve" in card_raw:
                rf = f"{fname}.reserve"
                r = self.table(card_raw["reserve"], rf, line)
                self.keys(r, {"cost", "icon", "trigger", "effects", "on_reshuffle", "stays", "loopholes"},
                          {"cost", "icon", "effects"}, rf, line)
                reserve = ReserveSide(
                    self.integer(r, "cost", rf, line),
                    self.enum(Icon, r["icon"], f"{rf}.icon", line),
                    None if "trigger" not in r else self.enum(Trigger, r["trigger"], f"{rf}.trigger", line),
                    self.company_effects(r["effects"], f"{rf}.effects", line),
                    self.company_effects(r.get("on_reshuffle", []), f"{rf}.on_reshuffle", line),
                    self.boolean(r, "stays", rf, line, False),
                    self.boolean(r, "loopholes", rf, line, False),
                )
            cards[num] = CompanyCard(num, self.string(card_raw, "name", fname, line), kind,
                                     self.integer(card_raw, "budget", fname, line), standard, reserve,
                                     self.invented(card_raw, fname, line))
        deck = tuple(CompanyCardId(n) for n in self.int_list(
            data["starting_deck"], "company.starting_deck", self.line_of_key("starting_deck")))
        for n in deck:
            if n not in cards:
                raise self.fail(f"card {n} is not defined in [[company.cards]]", "company.starting_deck",
                                self.line_of_key("starting_deck"))
        if deck != tuple(range(1, 13)):
            raise self.fail("Set-Up forms the deck from cards 1-12", "company.starting_deck",
                            self.line_of_key("starting_deck"))
        piles_raw = data["piles"]
        if not isinstance(piles_raw, list):
            raise self.fail("expected an array of tables [[company.piles]]", "company.piles")
        piles: list[Pile] = []
        for i, pile_raw in enumerate(piles_raw):
            pf = f"company.piles[{i}]"
            line = self.entry_line("company.piles", i, "kind",
                                   f'"{pile_raw.get("kind")}"' if isinstance(pile_raw, dict) else None)
            p = self.table(pile_raw, pf, line)
            self.keys(p, {"kind", "name", "cards"}, {"kind", "name", "cards"}, pf, line)
            pile_cards = tuple(CompanyCardId(n) for n in self.int_list(p["cards"], f"{pf}.cards", line))
            for n in pile_cards:
                if n not in cards:
                    raise self.fail(f"card {n} is not defined in [[company.cards]]", f"{pf}.cards", line)
                if cards[n].kind != p["kind"]:
                    raise self.fail(f"card {n} ({cards[n].name}) has kind {cards[n].kind!r}, not the pile's "
                                    f"{p['kind']!r}", f"{pf}.cards", line)
            piles.append(Pile(self.string(p, "kind", pf, line), self.string(p, "name", pf, line), pile_cards))
        got = tuple((p.kind, tuple(sorted(p.cards))) for p in piles)
        if got != _PILE_SETUP:
            # Point at the first pile that differs: the first one too many, or the last one when piles are missing.
            piles_vs_setup = zip(got, _PILE_SETUP, strict=False)
            wrong = max(0, next((i for i, (a, b) in enumerate(piles_vs_setup) if a != b),
                                min(len(got) - 1, len(_PILE_SETUP))))
            raise self.fail("the five piles must be, in order, " + "; ".join(
                f"{kind} {cs[0]}-{cs[-1]}" for kind, cs in _PILE_SETUP) + " (Company Set-Up step 2)",
                f"company.piles[{wrong}]", self.entry_line("company.piles", wrong, "cards", None) if got else None)
        extra = sorted(n for n in cards if n > 32)
        pairs: list[tuple[CompanyCardId, CompanyCardId]] = []
        for n in extra:
            if n % 2 == 1:
                if n + 1 not in cards:
                    raise self.fail(f"odd card {n} has no even partner {n + 1}", f"company card {n}",
                                    self.line_of_entry("company.cards", "number", n))
                pairs.append((CompanyCardId(n), CompanyCardId(n + 1)))
            elif n - 1 not in cards:
                raise self.fail(f"even card {n} has no odd partner {n - 1}", f"company card {n}",
                                self.line_of_entry("company.cards", "number", n))
        if len(pairs) < rules.stacks_dealt:
            raise self.fail(f"{rules.stacks_dealt} stacks are dealt but only {len(pairs)} odd/even pairs exist",
                            "rules.stacks_dealt", self.line_of_key("stacks_dealt"))
        missing = sorted(set(range(1, 33)) - set(cards))
        if missing:
            raise self.fail(f"cards 1-32 must all be defined; missing {missing[0]}", "company.cards")
        return cards, deck, tuple(piles), tuple(pairs)

    def load_movement(self) -> tuple[dict[MovementCardId, MovementCard], tuple[MovementCardId, ...],
                                     tuple[MarketSpace, ...]]:
        data = self.table(self.raw["movement"], "movement")
        self.keys(data, {"starting_cards", "market", "cards"}, {"starting_cards", "market", "cards"}, "movement")
        cards: dict[MovementCardId, MovementCard] = {}
        if not isinstance(data["cards"], list):
            raise self.fail("expected an array of tables [[movement.cards]]", "movement.cards")
        bonus_names = {b.value for b in BonusKind}
        for i, raw_card in enumerate(data["cards"]):
            number = raw_card.get("number") if isinstance(raw_card, dict) else None
            line = self.entry_line("movement.cards", i, "number", number)
            fname = f"movement.cards[{i}]" if number is None else f"movement card {number}"
            c = self.table(raw_card, fname, line)
            self.keys(c, {"number", "name", "influence", "icons", "bonuses", "passive", "invented"},
                      {"number", "name", "influence", "invented"}, fname, line)
            num = MovementCardId(self.integer(c, "number", fname, line, minimum=1))
            if num in cards:
                raise self.fail(f"duplicate card number {num}", f"{fname}.number", line)
            bonuses = self.table(c.get("bonuses", {}), f"{fname}.bonuses", line)
            self.keys(bonuses, {"left", "right"}, set(), f"{fname}.bonuses", line)
            edges: list[tuple[BonusKind, ...]] = []
            for edge in ("left", "right"):
                values = bonuses.get(edge, [])
                if not isinstance(values, list):
                    raise self.fail("expected a list of bonus kinds", f"{fname}.bonuses.{edge}", line)
                edges.append(tuple(self.enum(BonusKind, v, f"{fname}.bonuses.{edge}", line) for v in values))
            icons = self.counts(c.get("icons"), {"research", "messaging", "agitation"}, f"{fname}.icons", line)
            passive = self.counts(c.get("passive"), bonus_names, f"{fname}.passive", line)
            cards[num] = MovementCard(num, self.string(c, "name", fname, line),
                                      self.integer(c, "influence", fname, line), icons, edges[0], edges[1],
                                      passive, self.invented(c, fname, line))
        starting = tuple(MovementCardId(n) for n in self.int_list(
            data["starting_cards"], "movement.starting_cards", self.line_of_key("starting_cards")))
        if not starting:
            raise self.fail("at least one starting card is needed", "movement.starting_cards")
        for n in starting:
            if n not in cards:
                raise self.fail(f"card {n} is not defined in [[movement.cards]]", "movement.starting_cards",
                                self.line_of_key("starting_cards"))
        market_raw = data["market"]
        if not isinstance(market_raw, list) or not market_raw:
            raise self.fail("expected a non-empty array of tables [[movement.market]]", "movement.market")
        market: list[MarketSpace] = []
        for i, space_raw in enumerate(market_raw):
            sf = f"movement.market[{i}]"
            s = self.table(space_raw, sf)
            self.keys(s, {"row", "cost", "action"}, {"row", "cost", "action"}, sf)
            row = self.integer(s, "row", sf, minimum=1)
            if row > 2:
                raise self.fail("the Market has two rows", f"{sf}.row")
            if market and row < market[-1].row:
                raise self.fail("spaces must be listed top row first", f"{sf}.row")
            market.append(MarketSpace(row, self.integer(s, "cost", sf),
                                      self.enum(MarketAction, s["action"], f"{sf}.action", None)))
        deck_size = len(cards) - 1
        if deck_size < len(market):
            raise self.fail(f"{len(market)} Market spaces but only {deck_size} cards can fill them",
                            "movement.market")
        return cards, starting, tuple(market)

    def load_goals(self, company: Mapping[CompanyCardId, CompanyCard]) -> dict[GoalId, Goal]:
        raw = self.raw["goals"]
        if not isinstance(raw, list):
            raise self.fail("expected an array of tables [[goals]]", "goals")
        kinds = {c.kind for c in company.values()}
        goals: dict[GoalId, Goal] = {}
        for i, raw_goal in enumerate(raw):
            number = raw_goal.get("number") if isinstance(raw_goal, dict) else None
            line = self.entry_line("goals", i, "number", number)
            fname = f"goals[{i}]" if number is None else f"goal G{number}"
            g = self.table(raw_goal, fname, line)
            self.keys(g, {"number", "name", "cost", "points", "effects", "passive", "invented"},
                      {"number", "name", "cost", "points", "invented"}, fname, line)
            num = GoalId(self.integer(g, "number", fname, line, minimum=1))
            if num in goals:
                raise self.fail(f"duplicate Goal number G{num}", f"{fname}.number", line)
            effects: list[GoalEffect] = []
            effects_raw = g.get("effects", [])
            if not isinstance(effects_raw, list):
                raise self.fail("expected a list of effects", f"{fname}.effects", line)
            for j, e_raw in enumerate(effects_raw):
                ef = f"{fname}.effects[{j}]"
                e = self.table(e_raw, ef, line)
                match e.get("op"):
                    case "ban":
                        self.keys(e, {"op", "kind"}, {"op", "kind"}, ef, line)
                        kind = self.string(e, "kind", ef, line)
                        if kind not in kinds:
                            raise self.fail(f"no Company card has kind {kind!r}", f"{ef}.kind", line)
                        effects.append(Ban(kind))
                    case "restriction":
                        self.keys(e, {"op", "count"}, {"op", "count"}, ef, line)
                        effects.append(AddRestriction(self.integer(e, "count", ef, line, minimum=1)))
                    case "hand_size":
                        self.keys(e, {"op", "amount"}, {"op", "amount"}, ef, line)
                        effects.append(HandSize(self.integer(e, "amount", ef, line, minimum=1)))
                    case "flight":
                        self.keys(e, {"op", "count"}, {"op", "count"}, ef, line)
                        effects.append(GainFlight(self.integer(e, "count", ef, line, minimum=1)))
                    case "influence":
                        self.keys(e, {"op", "count"}, {"op", "count"}, ef, line)
                        effects.append(GainInfluence(self.integer(e, "count", ef, line, minimum=1)))
                    case other:
                        raise self.fail(f"unknown Goal effect op {other!r}; expected one of ban, restriction,"
                                        " hand_size, flight, influence", f"{ef}.op", line)
            passive = self.counts(g.get("passive"), {b.value for b in BonusKind}, f"{fname}.passive", line)
            goals[num] = Goal(num, self.string(g, "name", fname, line), self.integer(g, "cost", fname, line),
                              self.integer(g, "points", fname, line), tuple(effects), passive,
                              self.invented(g, fname, line))
        if sorted(goals) != list(range(1, 10)):
            raise self.fail("the Goals must be exactly G1-G9 (Movement Set-Up step 2)", "goals")
        return goals


def _fingerprint(lines: list[str]) -> str:
    import hashlib

    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:12]
