"""The card loader's errors and the shipped provisional set's coverage of every mechanism.

Each broken file is the shipped set with one edit (docs/cards.md says what a file may hold); the
loader must name the file, the line, the card and the field, and `doubtspec cards check PATH` must
exit 2 with the same. The shipped set must load, say it is provisional, keep the rulebook's facts
(shared CARD-FACTS.md) and exercise every mechanism, so that no rule is dead code.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import tomllib
from pathlib import Path
from typing import Any, get_args

import pytest

from cli_run import DOUBTSPEC, run_cli
from doubtspec.errors import CardFileError
from doubtspec.model.cards import (
    NAMED_EFFECTS,
    AddDoubt,
    AddRestriction,
    AddVictims,
    Ban,
    BonusKind,
    CardSet,
    CompanyEffect,
    Counts,
    Discount,
    DrawCards,
    GainFlight,
    GainInfluence,
    GoalEffect,
    HandSize,
    Icon,
    Lobby,
    MarketAction,
    NamedEffect,
    RemoveMarketCard,
    ScoreProfit,
    TokenKind,
    Trigger,
    Zone,
    _Loader,
    default_cards_path,
    load_cards,
    parse_cards,
)

SHIPPED = default_cards_path()
TEXT = SHIPPED.read_text(encoding="utf-8")
CHECK_TIMEOUT_S = 300
"""A `cards check` takes about 2 s; the limit is only there to stop a hung process, so it leaves room for a
machine loaded by other jobs."""


def line_of(text: str, snippet: str) -> int:
    """The 1-based line on which `snippet` (which occurs once) starts."""
    assert text.count(snippet) == 1, snippet
    return text[: text.index(snippet)].count("\n") + 1


def run_check(path: Path) -> subprocess.CompletedProcess[str]:
    """`doubtspec cards check PATH`, wide enough that Rich never wraps the message."""
    env = {**os.environ, "COLUMNS": "400", "NO_COLOR": "1"}
    return subprocess.run([str(DOUBTSPEC), "cards", "check", str(path)], capture_output=True, text=True,
                          env=env, timeout=CHECK_TIMEOUT_S, check=False)


_MARKET_END = 'action = "agitation"   # the repeated action: Agitation is the Movement\'s road to victory\n'
"""The last Market space of the shipped file."""


_CHART_HEADER = "[[display.acceptance_chart]]"
_CHART = TEXT[TEXT.index(_CHART_HEADER):TEXT.index("\n\n", TEXT.rindex(_CHART_HEADER))]
"""The shipped file's Social Acceptance Chart, every row as a `[[display.acceptance_chart]]` table."""


_MARKET_HEADER = "[[movement.market]]"
_MARKET = TEXT[TEXT.index(_MARKET_HEADER):TEXT.index("\n\n", TEXT.rindex(_MARKET_HEADER))]
"""The shipped file's Market, every space as a `[[movement.market]]` table."""


_PILES_HEADER = "[[company.piles]]"
_PILES = TEXT[TEXT.index(_PILES_HEADER):TEXT.index("\n\n", TEXT.rindex(_PILES_HEADER))]
"""The shipped file's five piles, each a `[[company.piles]]` table."""


def _extra_spaces(count: int) -> str:
    """`count` more Market spaces in the second row, as the file writes them."""
    return "".join('\n[[movement.market]]\nrow = 2\ncost = 4\naction = "refresh"\n' for _ in range(count))


_CHART = TEXT[TEXT.index("[[display.acceptance_chart]]"):TEXT.index("# Piece limits")]
"""The shipped file's Social Acceptance Chart: its rows, as an array of tables."""

# (id, text replaced, replacement, marker of the expected line in the broken file, field, message)
BROKEN = [
    # The chart written as one table instead of a list of rows (a non-empty table: the check is not only for emptiness).
    pytest.param(_CHART, "[display.acceptance_chart]\nmin_profit = 0\n\n", "[display.acceptance_chart]",
                 "display.acceptance_chart", "expected a non-empty list of rows", id="chart-not-a-list"),
    pytest.param('  effects = [ { op = "discount", amount = 1 } ]', '  effects = [ { op = "bribe", amount = 1 } ]',
                 'number = 6\nname = "Wholesale Pricing"', "company card 6.standard.effects[0].op",
                 "unknown effect op 'bribe'", id="unknown-effect-op"),
    pytest.param('name = "Sales Representative"\nkind = "sales"\nbudget = 2',
                 'name = "Sales Representative"\nkind = "sales"\nbudget = "two"',
                 'number = 5\nname = "Sales Representative"', "company card 5.budget", "expected an integer",
                 id="wrong-type"),
    pytest.param('number = 12\nname = "Cigarette Girls"', 'number = 11\nname = "Cigarette Girls"',
                 'number = 11\nname = "Cigarette Girls"', "company card 11.number", "duplicate card number 11",
                 id="duplicate-number"),
    pytest.param("cards = [13, 14, 15, 16]", "cards = [13, 14, 15]", "cards = [13, 14, 15]", "company.piles[0]",
                 "print_media 13-16; television 17-20; culture 21-24; doubt 25-28; restriction 29-32 (Company Set-Up "
                 "step 2)", id="pile-not-as-set-up"),
    pytest.param("cards = [17, 18, 19, 20]", "cards = [17, 18, 19, 21]", 'kind = "television"\nname = "Television"',
                 "company.piles[1].cards", "has kind 'culture'", id="pile-card-of-another-kind"),
    pytest.param('{ op = "ban", kind = "sponsorship" }', '{ op = "ban", kind = "radio" }',
                 'number = 9\nname = "FDA Tobacco Rule"', "goal G9.effects[0].kind", "no Company card has kind 'radio'",
                 id="goal-bans-missing-kind"),
    pytest.param('name = "Advertising"\n', 'name = "Advertising"\ncolour = "red"\n',
                 'number = 1\nname = "Advertising"', "company card 1.colour", "unknown key 'colour'",
                 id="unknown-key-company"),
    # With two unknown keys, the field and the text name the same one (the first in order).
    pytest.param('name = "Advertising"\n', 'name = "Advertising"\ncolour = "red"\nshade = 2\n',
                 'number = 1\nname = "Advertising"', "company card 1.colour", "unknown key 'colour'",
                 id="two-unknown-keys"),
    pytest.param('name = "Wynder & Graham"\n', 'name = "Wynder & Graham"\nflavour = 1\n',
                 'number = 2\nname = "Wynder & Graham"', "movement card 2.flavour", "unknown key 'flavour'",
                 id="unknown-key-movement"),
    pytest.param('name = "Wholesale Pricing"\n', 'name = "Wholesale Pricing\n', 'name = "Wholesale Pricing\n',
                 None, "not valid TOML", id="bad-toml-syntax"),
    pytest.param("victims = 40", "victims = 5", "victims = 5", "supply.victims",
                 "cannot cover the 6 placed at Set-Up", id="supply-short-of-set-up"),
    pytest.param("influence = 30", 'influence = "lots"', 'influence = "lots"', "supply.influence",
                 "expected an integer", id="supply-wrong-type"),
    pytest.param("middle_age = 3\nelderly = 0", "middle_age = -1\nelderly = 0", "middle_age = -1",
                 "display.setup_victims.middle_age", "must be at least 0", id="negative-set-up-victims"),
    pytest.param("children = [1, 2, 2]", "children = [-1, 2, 2]", "children = [-1, 2, 2]",
                 "display.doubt_values.children", "each with a value >= 0", id="negative-doubt-value"),
    pytest.param('effects = [ { op = "hand_size", amount = 1 }', 'effects = [ { op = "hand_size", amount = 0 }',
                 'number = 3\nname = "Clean Indoor Air Act"', "goal G3.effects[0].amount", "must be at least 1",
                 id="zero-hand-size-goal"),
    pytest.param('{ op = "doubt", group = "I", count = 2 }, { op = "doubt", group = "II", count = 2 }',
                 '{ op = "doubt", group = "I", count = 0 }, { op = "doubt", group = "II", count = 2 }',
                 'number = 14\nname = "Journalism"', "company card 14.standard.effects[0].count", "must be at least 1",
                 id="zero-doubt-count"),
    pytest.param('amount = 1 }, { op = "restriction", count = 1 } ]\ninvented = ["*"]',
                 'amount = 1 }, { op = "restriction", count = 1 } ]\ninvented = "*"',
                 'number = 3\nname = "Clean Indoor Air Act"', "goal G3.invented", "expected a list of invented",
                 id="invented-not-a-list"),
    # Cards past 32 come in odd/even pairs (Company Set-Up step 2): each half needs the other.
    # Set-Up's deck and piles are exactly the rulebook's: a deck short of a card, a sixth pile and a Movement starting
    # card that is not defined are refused (each passed a check that compared in one direction only, or not at all).
    pytest.param("starting_deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]",
                 "starting_deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]",
                 "starting_deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]", "company.starting_deck",
                 "Set-Up forms the deck from cards 1-12", id="starting-deck-short"),
    pytest.param('name = "Restrictions"\ncards = [29, 30, 31, 32]\n',
                 'name = "Restrictions"\ncards = [29, 30, 31, 32]\n\n[[company.piles]]\nkind = "restriction"\n'
                 'name = "More Restrictions"\ncards = []\n',
                 "cards = []", "company.piles[5]", "the five piles must be, in order",
                 id="sixth-pile"),
    pytest.param("starting_cards = [1, 2, 3]", "starting_cards = [1, 2, 99]", "starting_cards = [1, 2, 99]",
                 "movement.starting_cards", "card 99 is not defined in [[movement.cards]]",
                 id="movement-starting-card-undefined"),
    # A name must be a string, not only non-empty.
    pytest.param('number = 1\nname = "Advertising"', 'number = 1\nname = 5', 'number = 1\nname = 5',
                 "company card 1.name", "expected a non-empty string", id="name-not-a-string"),
    # Card 0 is the engine's empty place (`NO_CARD`): neither a Company nor a Movement card may take that number.
    pytest.param('number = 1\nname = "Advertising"', 'number = 0\nname = "Advertising"',
                 'number = 0\nname = "Advertising"', "company card 0.number", "must be at least 1",
                 id="company-card-number-zero"),
    pytest.param('number = 1\nname = "Great American Smokeout"', 'number = 0\nname = "Great American Smokeout"',
                 'number = 0\nname = "Great American Smokeout"', "movement card 0.number", "must be at least 1",
                 id="movement-card-number-zero"),
    pytest.param('number = 34\nname = "Lobbyists"', 'number = 98\nname = "Lobbyists"',
                 'number = 33\nname = "Corruption"',
                 "company card 33", "odd card 33 has no even partner 34", id="odd-card-without-partner"),
    pytest.param('number = 33\nname = "Corruption"', 'number = 97\nname = "Corruption"',
                 'number = 34\nname = "Lobbyists"',
                 "company card 34", "even card 34 has no odd partner 33", id="even-card-without-partner"),
    # Every rule number but `stacks_dealt` is at least 1, whichever side of it its name sorts.
    pytest.param("company_hand_size = 5", "company_hand_size = 0", "company_hand_size = 0",
                 "rules.company_hand_size", "must be at least 1", id="zero-hand-size"),
    pytest.param("tableau_limit = 8", "tableau_limit = 0", "tableau_limit = 0",
                 "rules.tableau_limit", "must be at least 1", id="zero-tableau-limit"),
    pytest.param("stacks_dealt = 7", "stacks_dealt = -1", "stacks_dealt = -1",
                 "rules.stacks_dealt", "must be at least 0", id="negative-stacks-dealt"),
    # Company Set-Up step 2 deals each stack from one odd/even pair: the shipped set has 14 pairs.
    pytest.param("stacks_dealt = 7", "stacks_dealt = 15", "stacks_dealt = 15", "rules.stacks_dealt",
                 "15 stacks are dealt but only 14 odd/even pairs exist", id="more-stacks-than-pairs"),
    pytest.param("starting_deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]",
                 "starting_deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 99]",
                 "starting_deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 99]", "company.starting_deck",
                 "card 99 is not defined in [[company.cards]]", id="deck-card-undefined"),
    # A deck of defined cards that sorts after 1-12 (one check compared with `<`) is refused as well.
    pytest.param("starting_deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]",
                 "starting_deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13]",
                 "starting_deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13]", "company.starting_deck",
                 "Set-Up forms the deck from cards 1-12", id="starting-deck-past-12"),
    pytest.param('number = 1\nname = "Cigarette Labeling Act"', 'number = 0\nname = "Cigarette Labeling Act"',
                 'number = 0\nname = "Cigarette Labeling Act"', "goal G0.number", "must be at least 1",
                 id="goal-number-zero"),
    # A key missing from a card is named at its entry, past the sub-tables of the entry before it.
    pytest.param('name = "Sales Representative"\nkind = "sales"\nbudget = 2\n',
                 'name = "Sales Representative"\nkind = "sales"\n', 'number = 5\nname = "Sales Representative"',
                 "company card 5.budget", "missing required key 'budget'", id="missing-key"),
    pytest.param("children = 1\nadults = 1", "children = 4\nadults = 1", "children = 4\nadults = 1",
                 "display.setup_doubt.children", "more Doubt than the column has spaces (3)",
                 id="set-up-doubt-beyond-its-column"),
    pytest.param(_MARKET_END, _MARKET_END + _extra_spaces(28), "[[movement.market]]\nrow = 1\ncost = 0",
                 "movement.market", "34 Market spaces but only 33 cards can fill them", id="market-beyond-the-deck"),
    # Errors about a whole table or entry name its header; about a key of an entry, that key's line.
    pytest.param('row = 2\ncost = 3\naction = "organize"', 'row = 3\ncost = 3\naction = "organize"',
                 'row = 3\ncost = 3\naction = "organize"', "movement.market[4].row", "the Market has two rows",
                 id="market-third-row"),
    # A space of the top row listed after the bottom row (the first space is of the top row too: the check compares
    # with the space before, not the first).
    pytest.param(_MARKET_END, _MARKET_END + '\n[[movement.market]]\nrow = 1\ncost = 7\naction = "messaging"\n',
                 "row = 1\ncost = 7", "movement.market[6].row", "spaces must be listed top row first",
                 id="market-top-row-listed-last"),
    pytest.param('row = 2\ncost = 3\naction = "organize"', 'row = 2\naction = "organize"',
                 '[[movement.market]]\nrow = 2\naction = "organize"', "movement.market[4].cost",
                 "missing required key 'cost'", id="market-space-without-cost"),
    pytest.param("min_profit = 0\nvictims = { children = 0, adults = 1",
                 "min_profit = 1\nvictims = { children = 0, adults = 1",
                 "[[display.acceptance_chart]]\nmin_profit = 1", "display.acceptance_chart",
                 "rows must start at min_profit = 0", id="chart-not-from-zero"),
    pytest.param("min_profit = 5\n", "min_profit = 1\n", "[[display.acceptance_chart]]\nmin_profit = 0",
                 "display.acceptance_chart", "ascend strictly", id="chart-descending"),
    # The same for a space whose header is on an even line (the line is counted, not rounded).
    pytest.param('row = 1\ncost = 1\naction = "messaging"', 'row = 1\naction = "messaging"',
                 '[[movement.market]]\nrow = 1\naction = "messaging"', "movement.market[1].cost",
                 "missing required key 'cost'", id="market-space-without-cost-even-line"),
    # Four piles that match Set-Up's first four: the last of them is named.
    pytest.param('[[company.piles]]\nkind = "restriction"\nname = "Restrictions"\ncards = [29, 30, 31, 32]\n', "",
                 "cards = [25, 26, 27, 28]", "company.piles[3]", "the five piles must be", id="pile-missing"),
    # Effect amounts and counts are at least 1.
    pytest.param('  effects = [ { op = "discount", amount = 1 } ]', '  effects = [ { op = "discount", amount = 0 } ]',
                 'number = 6\nname = "Wholesale Pricing"', "company card 6.standard.effects[0].amount",
                 "must be at least 1", id="zero-discount"),
    pytest.param('effects = [ { op = "influence", count = 2 } ]', 'effects = [ { op = "influence", count = 0 } ]',
                 'number = 2\nname = "Fairness Doctrine Ruling"', "goal G2.effects[0].count", "must be at least 1",
                 id="goal-gains-no-influence"),
    pytest.param('effects = [ { op = "flight", count = 2 } ]', 'effects = [ { op = "flight", count = 0 } ]',
                 'number = 4\nname = "Domestic Airline Smoking Ban"', "goal G4.effects[0].count", "must be at least 1",
                 id="goal-gains-no-flight"),
    pytest.param('effects = [ { op = "restriction", count = 1 } ]', 'effects = [ { op = "restriction", count = 0 } ]',
                 'number = 1\nname = "Cigarette Labeling Act"', "goal G1.effects[0].count", "must be at least 1",
                 id="goal-adds-no-restriction"),
    # A key missing from a plain table is named at the table's header.
    pytest.param("company_hand_size = 5\n", "", "[rules]\nstacks_dealt = 7", "rules.company_hand_size",
                 "missing required key 'company_hand_size'", id="rules-key-missing"),
    # With two keys missing, the field and the text name the same one (the first in order).
    pytest.param("company_hand_size = 5\nstacks_dealt = 7\n", "", "[rules]\nprofit_to_win = 70",
                 "rules.company_hand_size", "missing required key 'company_hand_size'", id="rules-two-keys-missing"),
    # Goals G1-G8 without G9 are refused (a check that compared in one direction only let a prefix through).
    pytest.param('[[goals]]\nnumber = 9\nname = "FDA Tobacco Rule"\ncost = 6\npoints = 3\n'
                 'effects = [ { op = "ban", kind = "sponsorship" }, { op = "hand_size", amount = 1 } ]\n'
                 'invented = ["*"]\n', "", "[[goals]]\nnumber = 1\n", "goals", "the Goals must be exactly G1-G9",
                 id="goal-nine-missing"),
    # A key missing from a table is named at that table's header, not where a later table writes the same key.
    pytest.param("(On Your Go table)\nchildren = [1, 2, 2]\n", "(On Your Go table)\n", "[display.doubt_values]",
                 "display.doubt_values.children", "missing required key 'children'", id="doubt-values-key-missing"),
    # Two piles swapped: the first pile that differs is named, whichever of the two sorts first.
    pytest.param('kind = "print_media"\nname = "Print Media"\ncards = [13, 14, 15, 16]\n\n[[company.piles]]\n'
                 'kind = "television"\nname = "Television"\ncards = [17, 18, 19, 20]',
                 'kind = "television"\nname = "Television"\ncards = [17, 18, 19, 20]\n\n[[company.piles]]\n'
                 'kind = "print_media"\nname = "Print Media"\ncards = [13, 14, 15, 16]',
                 'cards = [17, 18, 19, 20]\n\n[[company.piles]]\nkind = "print_media"', "company.piles[0]",
                 "the five piles must be", id="piles-swapped"),
    # A chart written inline whose row is not a table: the row is named, at the line that writes the array.
    pytest.param(_CHART, "[display]\nacceptance_chart = [0, 2]", "acceptance_chart = [0, 2]",
                 "display.acceptance_chart[0]", "expected a table, got int", id="chart-row-not-a-table"),
    # Market rows are numbered from 1: a row 0 is refused, not read as a row above the top one.
    pytest.param('row = 1\ncost = 1\naction = "messaging"', 'row = 0\ncost = 1\naction = "messaging"',
                 'row = 0\ncost = 1', "movement.market[1].row", "must be at least 1", id="market-row-zero"),
    # An effect adds at least one Victim.
    pytest.param('"reserve"]\n  [company.cards.standard]\n  cost = 2\n  icon = "victims"\n  trigger = "print"\n'
                 '  effects = [ { op = "victims", zone = "adults", count = 1 }',
                 '"reserve"]\n  [company.cards.standard]\n  cost = 2\n  icon = "victims"\n  trigger = "print"\n'
                 '  effects = [ { op = "victims", zone = "adults", count = 0 }',
                 'number = 1\nname = "Advertising"', "company card 1.standard.effects[0].count", "must be at least 1",
                 id="zero-victims-count"),
    # A Market that is not an array of tables is refused as a whole, whatever it holds.
    pytest.param(_MARKET, 'market = "six spaces"', 'market = "six spaces"', "movement.market",
                 "expected a non-empty array of tables [[movement.market]]", id="market-not-a-list"),
    # Piles written inline whose first is not a table: the pile is named, at the line that writes the array.
    pytest.param(_PILES, "piles = [13, 17]", "piles = [13, 17]", "company.piles[0]", "expected a table, got int",
                 id="pile-not-a-table"),
    # An effect that scores Profit, draws, lobbies or removes a Market card does so at least once.
    pytest.param('name = "Sales Representative"\nkind = "sales"\nbudget = 2\ninvented = ["*"]\n'
                 '  [company.cards.standard]\n  cost = 1\n  icon = "text"\n  effects = [ { op = "draw", count = 2 } ]',
                 'name = "Sales Representative"\nkind = "sales"\nbudget = 2\ninvented = ["*"]\n'
                 '  [company.cards.standard]\n  cost = 1\n  icon = "text"\n  effects = [ { op = "draw", count = 0 } ]',
                 'number = 5\nname = "Sales Representative"', "company card 5.standard.effects[0].count",
                 "must be at least 1", id="zero-draw-count"),
    # The line named is the pile entry's first key (the loader names an entry's line for the fields of its lists).
    pytest.param("cards = [13, 14, 15, 16]", 'cards = [13, "14", 15, 16]',
                 'kind = "print_media"\nname = "Print Media"',
                 "company.piles[0].cards", "expected a list of integers", id="list-with-a-string"),
]


@pytest.fixture(scope="module")
def shipped() -> CardSet:
    return load_cards()


@pytest.mark.parametrize(("old", "new", "marker", "field", "message"), BROKEN)
def test_loader_error_names_file_line_card_and_field(tmp_path: Path, old: str, new: str, marker: str,
                                                     field: str | None, message: str) -> None:
    assert TEXT.count(old) == 1, old
    broken = TEXT.replace(old, new)
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(CardFileError) as info:
        load_cards(path)
    error = info.value
    assert error.path == str(path)
    assert error.line == line_of(broken, marker)
    assert error.field == field
    assert message in error.message
    assert error.describe().startswith(f"{path}:{error.line}: ")


@pytest.mark.parametrize(("old", "new", "marker", "field", "message"), BROKEN)
def test_cards_check_exits_2_naming_file_line_and_field(tmp_path: Path, old: str, new: str, marker: str,
                                                        field: str | None, message: str) -> None:
    """Through the command's own entry point, in-process (a process each would cost the suite two minutes; the
    installed executable is run on one broken file below)."""
    broken = TEXT.replace(old, new)
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    code, out, err = run_cli("cards", "check", str(path))
    assert code == 2, out + err
    assert f"{path}:{line_of(broken, marker)}:" in err
    if field is not None:
        assert field in err
    assert message in err


@pytest.mark.parametrize(("old", "new", "marker", "field", "message"), BROKEN[:1])
def test_the_installed_cards_check_exits_2_naming_file_line_and_field(tmp_path: Path, old: str, new: str,
                                                                      marker: str, field: str, message: str) -> None:
    """The same as a process of the installed executable, so that the exit code is the process's own."""
    broken = TEXT.replace(old, new)
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    result = run_check(path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"{path}:{line_of(broken, marker)}: " in result.stderr
    assert field in result.stderr and message in result.stderr


def test_cards_check_missing_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(CardFileError) as info:
        load_cards(path)
    assert info.value.path == str(path)
    result = run_check(path)
    assert result.returncode == 2 and str(path) in result.stderr


def test_cards_check_accepts_the_shipped_set() -> None:
    result = run_check(SHIPPED)
    assert result.returncode == 0, result.stderr
    assert "provisional" in result.stdout
    default = subprocess.run([str(DOUBTSPEC), "cards", "check", "--json"], capture_output=True, text=True,
                             timeout=CHECK_TIMEOUT_S, check=False)
    assert default.returncode == 0 and '"provisional": true' in default.stdout


def test_string_source_errors_name_the_source() -> None:
    with pytest.raises(CardFileError) as info:
        parse_cards("[meta]\nname = 1\n", "inline.toml")
    assert info.value.path == "inline.toml"


# --- the shipped set ----------------------------------------------------------------------------


def test_shipped_set_is_flagged_provisional(shipped: CardSet) -> None:
    assert shipped.provisional
    assert "PROVISIONAL" in shipped.notes
    assert len(shipped.company) + len(shipped.movement) + len(shipped.goals) == 103  # the real box's total


def test_shipped_set_keeps_the_rulebook_facts(shipped: CardSet) -> None:
    """CARD-FACTS.md: the named cards carry exactly the values the rulebook prints."""
    by_name = {c.name: c for c in shipped.company.values()}
    advertising, frank = by_name["Advertising"], by_name["A Frank Statement"]
    assert advertising.budget == 1 and advertising.standard is not None and advertising.standard.cost == 2
    assert frank.standard is not None and frank.standard.cost == 1
    assert by_name["Television"].budget == 4
    journalism = by_name["Journalism"].standard
    assert journalism is not None and journalism.cost == 5
    assert by_name["Loopholes"].reserve is not None and by_name["Loopholes"].reserve.loopholes
    for name in ("Corruption", "Lobbyists", "Personal Responsibility"):
        side = by_name[name].standard
        assert side is not None and any(type(e).__name__ == "Lobby" for e in side.effects), name
    movement = {c.name: c for c in shipped.movement.values()}
    assert movement["Great American Smokeout"].influence == 1
    assert movement["Wynder & Graham"].influence == 2
    assert set(shipped.movement_starting) == {1, 2, 3}
    assert shipped.starting_deck == tuple(range(1, 13))
    assert shipped.rules.company_hand_size == 5 and shipped.rules.stacks_dealt == 7
    assert shipped.display.doubt_values == ((1, 2, 2), (2, 3, 4), (3, 3, 4), (3, 4, 4))
    assert shipped.display.setup_victims == (1, 2, 3, 0) and shipped.display.setup_doubt == (1, 1, 1, 1)
    assert {len(row) for row in (shipped.market[:3], shipped.market[3:])} == {3}


def _company_effects(cards: CardSet) -> list[CompanyEffect]:
    return [e for c in cards.company.values() for side in (c.standard, c.reserve) if side is not None
            for e in (*side.effects, *getattr(side, "on_reshuffle", ()))]


def test_every_company_effect_op_is_used(shipped: CardSet) -> None:
    used = {type(e) for e in _company_effects(shipped)}
    assert used == set(get_args(CompanyEffect))
    names = {e.name for e in _company_effects(shipped) if isinstance(e, NamedEffect)}
    assert names == set(NAMED_EFFECTS)


def test_every_trigger_and_icon_on_both_sides(shipped: CardSet) -> None:
    """Standard Effects; Reserve Effects: each trigger with each icon, played and answered."""
    wanted = {(t, i) for t in Trigger for i in Icon if i is not Icon.TEXT}
    standard = {(c.standard.trigger, c.standard.icon) for c in shipped.company.values()
                if c.standard is not None and c.standard.trigger is not None}
    reserve = {(c.reserve.trigger, c.reserve.icon) for c in shipped.company.values()
               if c.reserve is not None and c.reserve.trigger is not None}
    assert wanted <= standard and wanted <= reserve
    assert standard <= reserve, "a standard trigger that no Reserve card answers"
    # A standard side with a trigger whose icon no reserve card shares only (The Culture example).
    assert any(c.reserve is not None and c.reserve.trigger is Trigger.TELEVISION and c.reserve.icon is not Icon.VICTIMS
               for c in shipped.company.values())


def test_reserve_mechanisms_are_used(shipped: CardSet) -> None:
    reserves = [c.reserve for c in shipped.company.values() if c.reserve is not None]
    assert any(r.on_reshuffle for r in reserves)
    assert any(r.stays for r in reserves)
    assert any(r.loopholes for r in reserves)


def test_every_bonus_kind_on_both_edges(shipped: CardSet) -> None:
    for kind in BonusKind:
        assert any(kind in c.left for c in shipped.movement.values()), kind
        assert any(kind in c.right for c in shipped.movement.values()), kind


def test_every_passive_and_icon_is_used(shipped: CardSet) -> None:
    for key in ("influence", "messaging", "agitation", "refresh"):
        assert any(getattr(c.passive, key) for c in shipped.movement.values()), key
    assert any(g.passive.any() for g in shipped.goals.values())
    for key in ("research", "messaging", "agitation"):
        assert any(getattr(c.icons, key) for c in shipped.movement.values()), key


def test_counts_any_sees_each_kind() -> None:
    # `doubtspec cards` prints a Goal's passive only when `any` sees it.
    assert not Counts().any()
    for field in dataclasses.fields(Counts):
        assert Counts(**{field.name: 1}).any(), field.name


def test_entry_search_passes_other_tables() -> None:
    # A value no entry holds is searched for to the end of the file, past the tables of other headers; a value
    # is found in its own header's entries only (movement card 34 comes later).
    text = SHIPPED.read_text(encoding="utf-8")
    loader = _Loader(tomllib.loads(text), text, str(SHIPPED))
    assert loader.line_of_entry("company.cards", "number", 999) is None
    assert loader.line_of_entry("company.cards", "number", 34) == line_of(text, 'number = 34\nname = "Lobbyists"')
    # Each header's own entries, though other headers' entries hold the same value first; a header of one part.
    assert loader.line_of_entry("movement.cards", "number", 34) == line_of(
        text, 'number = 34\nname = "A Smoke-Free Society by 2000"')
    assert loader.line_of_entry("goals", "number", 1) == line_of(text, 'number = 1\nname = "Cigarette Labeling Act"')
    # A block's sub-tables belong to it; any other table ends it, of another section or of the same one.
    text = "[[a.items]]\nnumber = 1\n[a.items.side]\ncost = 3\n[a.other]\nnumber = 2\n[b]\nnumber = 4\n"
    loader = _Loader(tomllib.loads(text), text, "synthetic.toml")
    assert loader.line_of_entry("a.items", "cost", 3) == 4
    assert loader.line_of_entry("a.items", "number", 2) is None
    assert loader.line_of_entry("a.items", "number", 4) is None


def test_an_inline_arrays_entry_is_named_at_the_line_that_writes_the_array() -> None:
    # Entries written as an inline array have no header: an entry is named at the array's key, for a top-level
    # array (one part, no dot) as for a table's.
    text = 'goals = [ { number = 1 }, { number = "x" } ]\n[movement]\nmarket = [ { row = 1 } ]\n'
    loader = _Loader(tomllib.loads(text), text, "synthetic.toml")
    assert loader.entry_line("goals", 1, "number", "x") == 1
    assert loader.entry_line("movement.market", 0, "row", 1) == 3


def test_header_search_past_the_last_entry_finds_none() -> None:
    # An entry the file does not write (an inline array's, or one past the last header) has no header line.
    text = SHIPPED.read_text(encoding="utf-8")
    loader = _Loader(tomllib.loads(text), text, str(SHIPPED))
    assert loader.header_line("company.piles", 4) == line_of(text, '[[company.piles]]\nkind = "restriction"')
    assert loader.header_line("company.piles", 5) is None
    assert loader.header_line("company.piles", 7) is None
    # A plain table is its header's entry 0 only.
    assert loader.header_line("display.doubt_values", 0) == line_of(text, "[display.doubt_values]")
    assert loader.header_line("display.doubt_values", 1) is None


def test_entry_search_past_the_last_entry_falls_back_to_the_value() -> None:
    # An entry past the last header (an inline array's) is searched for by its value, as one with no headers.
    text = SHIPPED.read_text(encoding="utf-8")
    loader = _Loader(tomllib.loads(text), text, str(SHIPPED))
    count = text.count("[[company.cards]]")
    lobbyists = line_of(text, 'number = 34\nname = "Lobbyists"')
    assert loader.entry_line("company.cards", count, "number", 34) == lobbyists
    assert loader.entry_line("company.cards", count + 2, "number", 34) == lobbyists


def test_every_market_action_has_a_space(shipped: CardSet) -> None:
    assert {s.action for s in shipped.market} == set(MarketAction)
    assert {s.row for s in shipped.market} == {1, 2}


def test_every_goal_effect_and_two_hand_size_goals(shipped: CardSet) -> None:
    used = {type(e) for g in shipped.goals.values() for e in g.effects}
    assert used == set(get_args(GoalEffect))
    hand_size = [g for g in shipped.goals.values() if any(isinstance(e, HandSize) for e in g.effects)]
    assert len(hand_size) == 2
    assert all(e.amount == 1 for g in hand_size for e in g.effects if isinstance(e, HandSize))


def test_every_entry_says_what_is_invented(shipped: CardSet) -> None:
    entries = [*shipped.company.values(), *shipped.movement.values(), *shipped.goals.values()]
    assert all(isinstance(e.invented, tuple) for e in entries)
    assert any(e.invented == ("*",) for e in entries)


# --- the input boundary: files that are not card files at all ---------------------------------------




def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "cards.toml"
    os.mkfifo(fifo)
    code, _, err = run_cli("cards", "check", str(fifo))  # used to block forever waiting for a writer
    assert code == 2 and str(fifo) in err and "FIFO" in err


def test_a_device_is_refused(tmp_path: Path) -> None:
    code, _, err = run_cli("cards", "check", "/dev/zero")
    assert code == 2 and "/dev/zero" in err and "not a regular file" in err


@pytest.mark.parametrize("data, needle", [
    (b"[meta]\nname = \"caf\xe9\"\n", ":2: "),                      # latin-1, not UTF-8: the line is named
    ("[meta]\nname = 'x'\n".encode("utf-16"), ":1: "),
    (b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nests"),         # used to raise RecursionError (exit 70)
    (b"a = " + b"[" * 80 + b"]" * 80 + b"\n", "nests more than 64"),
    (b"[meta]\x00\n", "NUL"),
])
def test_undecodable_and_absurd_card_files_exit_2(tmp_path: Path, data: bytes, needle: str) -> None:
    path = tmp_path / "cards.toml"
    path.write_bytes(data)
    code, _, err = run_cli("cards", "check", str(path))
    assert code == 2 and str(path) in err and needle in err, err


def test_an_oversized_card_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from doubtspec import inputs

    monkeypatch.setattr(inputs, "MAX_BYTES", 1000)
    path = tmp_path / "cards.toml"
    path.write_text("# padding\n" * 200)
    code, _, err = run_cli("cards", "check", str(path))
    assert code == 2 and "too large" in err


def _with_names(tmp_path: Path, name: str) -> Path:
    import re

    text = default_cards_path().read_text(encoding="utf-8")
    marked = re.sub(r'^(name\s*=\s*)"([^"]*)"', lambda m: f'{m.group(1)}"{name}{m.group(2)}"', text,
                    flags=re.MULTILINE)
    path = tmp_path / "[red]cards:x:.toml"
    path.write_text(marked, encoding="utf-8")
    return path


def test_markup_in_names_and_paths_is_shown_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Wide enough that Rich never wraps the temporary path (its length grows with pytest's run counter).
    monkeypatch.setenv("COLUMNS", "400")
    path = _with_names(tmp_path, "[/] Free Samples ")
    code, out, _ = run_cli("cards", "check", str(path))
    # Compared without white space as well: a console whose width was fixed when it was made (as under
    # pytest-xdist's workers, whose temporary paths are longer too) still folds the path.
    flat = "".join(out.split())
    assert code == 0 and "[red]cards:x:.toml" in flat and "[/]FreeSamples" in flat
    code, out, err = run_cli("cards", "show", str(path))  # used to crash: Rich took the name for a closing tag
    assert code == 0 and "[/] Free Samples" in out, err
    code, _, err = run_cli("cards", "check", str(tmp_path / "[red]missing.toml"))
    assert code == 2 and "[red]missing.toml" in err


WRITTEN_FILES = [SHIPPED, *sorted((Path(__file__).parent / "data").glob("*.toml"))]
"""The card files read a second way below: the shipped set and every file the tests use."""


@pytest.fixture(params=WRITTEN_FILES, ids=lambda path: path.stem)
def written(request: pytest.FixtureRequest) -> tuple[CardSet, dict[str, Any]]:
    """A card file as the loader reads it and as plain TOML reads it."""
    path: Path = request.param
    return load_cards(path), tomllib.loads(path.read_text(encoding="utf-8"))


_COMPANY_OPS = {"victims": AddVictims, "doubt": AddDoubt, "profit": ScoreProfit, "draw": DrawCards, "lobby": Lobby,
                "remove_market": RemoveMarketCard, "discount": Discount, "named": NamedEffect}
"""Each Company effect `op` of the card file format (docs/cards.md) and the effect it must load as."""


def test_every_company_effect_loads_as_its_op(written: tuple[CardSet, dict[str, Any]]) -> None:
    # Read the file a second way (plain TOML) and compare each effect, in order, with the loaded card: a
    # loader that read one op as another would change the game without breaking any invariant, since the
    # engine and the catalog both read the loaded cards.
    card_set, raw = written
    checked = 0
    for card in raw["company"]["cards"]:
        loaded = card_set.company[card["number"]]
        for side_name in ("standard", "reserve"):
            side = card.get(side_name)
            loaded_side = getattr(loaded, side_name)
            if side is None:
                assert loaded_side is None
                continue
            lists = [("effects", side.get("effects", []), loaded_side.effects)]
            if side_name == "reserve":
                lists.append(("on_reshuffle", side.get("on_reshuffle", []), loaded_side.on_reshuffle))
            for field, texts, read in lists:
                where = f"card {card['number']} {side_name}.{field}"
                assert [type(e) for e in read] == [_COMPANY_OPS[e["op"]] for e in texts], where
                for text, effect in zip(texts, read, strict=True):
                    amount = text.get("count", text.get("amount"))
                    if amount is not None:
                        assert getattr(effect, "count", getattr(effect, "amount", None)) == amount, where
                    checked += 1
    assert checked == sum(len(side.get(field, [])) for card in raw["company"]["cards"]
                          for side in (card.get("standard", {}), card.get("reserve", {}))
                          for field in ("effects", "on_reshuffle")) > 0


def test_every_company_card_loads_as_written(written: tuple[CardSet, dict[str, Any]]) -> None:
    # The effects are compared above; this compares every other field of each card and side with a plain TOML
    # reading, absent keys at the format's defaults (docs/cards.md): a loader whose default made every Reserve
    # card stay, or ignore Loopholes, would change every Reshuffle Sequence without breaking an invariant.
    card_set, raw = written
    for card in raw["company"]["cards"]:
        loaded = card_set.company[card["number"]]
        where = f"company card {card['number']}"
        assert (loaded.name, loaded.kind, loaded.budget) == (card["name"], card["kind"], card["budget"]), where
        assert loaded.invented == tuple(card["invented"]), where
        for side_name in ("standard", "reserve"):
            side, loaded_side = card.get(side_name), getattr(loaded, side_name)
            if side is None or loaded_side is None:
                assert side is None and loaded_side is None, f"{where} {side_name}"
                continue
            assert (loaded_side.cost, loaded_side.icon.value) == (side["cost"], side["icon"]), f"{where} {side_name}"
            trigger = None if loaded_side.trigger is None else loaded_side.trigger.value
            assert trigger == side.get("trigger"), f"{where} {side_name}.trigger"
        if loaded.reserve is not None:
            written = card["reserve"]
            assert loaded.reserve.stays == written.get("stays", False), f"{where} reserve.stays"
            assert loaded.reserve.loopholes == written.get("loopholes", False), f"{where} reserve.loopholes"
    assert len(raw["company"]["cards"]) == len(card_set.company)


_GOAL_OPS: dict[str, tuple[type, str]] = {
    "ban": (Ban, "kind"), "restriction": (AddRestriction, "count"), "hand_size": (HandSize, "amount"),
    "flight": (GainFlight, "count"), "influence": (GainInfluence, "count")}
"""Each Goal effect `op` of the card file format (docs/cards.md): the effect it loads as and its one value's key."""


def test_the_rest_of_the_file_loads_as_written(written: tuple[CardSet, dict[str, Any]]) -> None:
    # The cards are compared above; this compares every other section with a plain TOML reading. Both the engine
    # and the catalog read what the loader made, so a number read into the wrong place (a rule, a piece limit, a
    # Doubt value, a chart row, a Market space, a Goal) changes the game without breaking an invariant.
    card_set, raw = written
    meta = raw["meta"]
    assert (card_set.name, card_set.version) == (meta["name"], meta["version"])
    assert card_set.provisional == meta["provisional"]
    assert dataclasses.asdict(card_set.rules) == raw["rules"]
    assert {kind.value: count for kind, count in card_set.supply.items()} == raw["supply"]
    display, written = card_set.display, raw["display"]
    assert [list(values) for values in display.doubt_values] == [written["doubt_values"][z.key] for z in Zone]
    assert list(display.setup_victims) == [written["setup_victims"][z.key] for z in Zone]
    assert list(display.setup_doubt) == [written["setup_doubt"][z.key] for z in Zone]
    assert [(row.min_profit, list(row.victims)) for row in display.chart] == [
        (row["min_profit"], [row["victims"].get(z.key, 0) for z in Zone]) for row in written["acceptance_chart"]]
    assert card_set.starting_deck == tuple(raw["company"]["starting_deck"])
    numbers = sorted(card["number"] for card in raw["company"]["cards"])
    assert list(card_set.stack_pairs) == [(n, n + 1) for n in numbers if n > 32 and n % 2]  # Company Set-Up 2
    assert [(p.kind, p.name, list(p.cards)) for p in card_set.piles] == [
        (p["kind"], p["name"], p["cards"]) for p in raw["company"]["piles"]]
    assert card_set.movement_starting == tuple(raw["movement"]["starting_cards"])
    assert [(m.row, m.cost, m.action.value) for m in card_set.market] == [
        (m["row"], m["cost"], m["action"]) for m in raw["movement"]["market"]]
    assert len(card_set.goals) == len(raw["goals"])
    for goal in raw["goals"]:
        loaded, where = card_set.goals[goal["number"]], f"goal G{goal['number']}"
        assert (loaded.name, loaded.cost, loaded.points) == (goal["name"], goal["cost"], goal["points"]), where
        assert loaded.invented == tuple(goal["invented"]), where
        effects = goal.get("effects", [])
        ops = [_GOAL_OPS[effect["op"]] for effect in effects]
        assert [(type(e), getattr(e, key)) for e, (_, key) in zip(loaded.effects, ops, strict=True)] == [
            (kind, effect[key]) for effect, (kind, key) in zip(effects, ops, strict=True)], where
        passive = goal.get("passive", {})
        assert {f.name: getattr(loaded.passive, f.name) for f in dataclasses.fields(Counts)} == {
            f.name: passive.get(f.name, 0) for f in dataclasses.fields(Counts)}, where


_COUNT_FIELDS = ("influence", "messaging", "agitation", "refresh", "research")


def test_every_movement_card_loads_as_written(written: tuple[CardSet, dict[str, Any]]) -> None:
    # The same second reading for the Movement's cards: a loader that gave a card its right edge's Bonuses
    # on both edges, or one icon's count to another, would change every play without breaking an invariant.
    card_set, raw = written
    for card in raw["movement"]["cards"]:
        loaded = card_set.movement[card["number"]]
        where = f"movement card {card['number']}"
        bonuses = card.get("bonuses", {})
        assert loaded.influence == card["influence"], where
        assert [b.value for b in loaded.left] == bonuses.get("left", []), where
        assert [b.value for b in loaded.right] == bonuses.get("right", []), where
        for field, counts in (("icons", loaded.icons), ("passive", loaded.passive)):
            written = card.get(field, {})
            assert {k: getattr(counts, k) for k in _COUNT_FIELDS} == {k: written.get(k, 0) for k in _COUNT_FIELDS}, \
                f"{where} {field}"
    assert len(raw["movement"]["cards"]) == len(card_set.movement)


def test_no_piles_at_all_names_the_first(tmp_path: Path) -> None:
    # With the piles written as an empty array, the error names the first pile Set-Up wants (not a place
    # before it); the file writes no entry, so no line is named.
    deck = "starting_deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n"
    pile = '[[company.piles]]\nkind = "{}"\nname = "{}"\ncards = [{}]\n\n'
    blocks = [pile.format("print_media", "Print Media", "13, 14, 15, 16"),
              pile.format("television", "Television", "17, 18, 19, 20"),
              pile.format("culture", "The Culture", "21, 22, 23, 24"),
              pile.format("doubt", "Doubt", "25, 26, 27, 28"),
              pile.format("restriction", "Restrictions", "29, 30, 31, 32")]
    broken = TEXT.replace(deck, deck + "piles = []\n")
    for block in blocks:
        assert broken.count(block) == 1, block
        broken = broken.replace(block, "")
    path = tmp_path / "no-piles.toml"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(CardFileError) as info:
        load_cards(path)
    assert info.value.field == "company.piles[0]"
    assert "the five piles must be" in info.value.message
    assert info.value.line is None


def test_a_supply_that_exactly_covers_set_up_loads(tmp_path: Path) -> None:
    # Set-Up places six Victims: a supply of six is enough (five is refused above).
    path = tmp_path / "exact.toml"
    path.write_text(TEXT.replace("victims = 40", "victims = 6"), encoding="utf-8")
    assert load_cards(path).supply[TokenKind.VICTIMS] == 6


def test_a_zone_left_out_of_set_up_victims_starts_with_none(tmp_path: Path) -> None:
    path = tmp_path / "no-elderly.toml"
    path.write_text(TEXT.replace("middle_age = 3\nelderly = 0\n", "middle_age = 3\n"), encoding="utf-8")
    assert load_cards(path).display.setup_victims == (1, 2, 3, 0)


def test_a_full_doubt_column_at_set_up_loads(tmp_path: Path) -> None:
    # Three Doubt in the three spaces of the Children column: full, not beyond (four is refused above).
    path = tmp_path / "full.toml"
    path.write_text(TEXT.replace("children = 1\nadults = 1", "children = 3\nadults = 1"), encoding="utf-8")
    assert load_cards(path).display.setup_doubt[Zone.CHILDREN] == 3


def test_a_doubt_value_of_zero_loads(tmp_path: Path) -> None:
    # The loader's least Doubt value is 0 (a space removed for free); only a negative one is refused above.
    path = tmp_path / "free-space.toml"
    path.write_text(TEXT.replace("children = [1, 2, 2]", "children = [0, 2, 2]"), encoding="utf-8")
    assert load_cards(path).display.doubt_values[Zone.CHILDREN] == (0, 2, 2)


def test_a_market_the_deck_exactly_fills_loads(tmp_path: Path) -> None:
    # 34 Movement cards, one of them the starting card: 33 spaces can be filled (34 are refused above).
    path = tmp_path / "wide.toml"
    path.write_text(TEXT.replace(_MARKET_END, _MARKET_END + _extra_spaces(27)), encoding="utf-8")
    assert len(load_cards(path).market) == 33


def test_icons_and_passives_left_out_count_zero(tmp_path: Path) -> None:
    # A card file need not write the counts it has none of: each one left out is zero.
    written = ('icons = { research = 0, messaging = 2, agitation = 0 }\nbonuses = { left = ["messaging"], right = '
               '["messaging"] }\npassive = { influence = 0, messaging = 1, agitation = 0, refresh = 0 }')
    path = tmp_path / "sparse.toml"
    path.write_text(TEXT.replace(written, 'icons = { messaging = 2 }\nbonuses = { left = ["messaging"], right = '
                                          '["messaging"] }\npassive = { messaging = 1 }'), encoding="utf-8")
    card = next(c for c in load_cards(path).movement.values() if c.name == "Counter-Advertising Spots")
    assert (card.icons.research, card.icons.messaging, card.icons.agitation) == (0, 2, 0)
    passive = card.passive
    counts = (passive.influence, passive.messaging, passive.agitation, passive.refresh, passive.research)
    assert counts == (0, 1, 0, 0, 0)


def test_a_one_row_chart_seeds_every_reshuffle_with_its_row(shipped: CardSet) -> None:
    # The loader lets a chart have one row (starting at 0 Profit); every score then seeds that row.
    display = dataclasses.replace(shipped.display, chart=shipped.display.chart[:1])
    for profit in (0, 5, 50):
        assert display.seed_for(profit) == shipped.display.chart[0].victims


def test_a_file_of_cards_1_to_32_without_stacks_loads(tmp_path: Path) -> None:
    """Company Set-Up 2 deals stacks only from cards past 32: with `stacks_dealt = 0` a file may define none of
    them, and the Company's cards are exactly 1-32 (no check may ask for more)."""
    head, *entries = TEXT.split("[[company.cards]]\n")
    last, movement = entries[-1].split("[movement]\n", 1)
    entries[-1] = last
    kept = [entry for entry in entries if int(entry.split("\n", 1)[0].removeprefix("number = ")) <= 32]
    assert len(kept) == 32 < len(entries)
    text = head + "".join("[[company.cards]]\n" + entry for entry in kept) + "\n[movement]\n" + movement
    path = tmp_path / "no-stacks.toml"
    ban = '{ op = "ban", kind = "sponsorship" }'  # a Goal may only ban a kind some card has
    assert text.count(ban) == 1
    text = text.replace(ban, '{ op = "ban", kind = "television" }').replace("stacks_dealt = 7", "stacks_dealt = 0")
    path.write_text(text, encoding="utf-8")
    cards = load_cards(path)
    assert sorted(cards.company) == list(range(1, 33)) and cards.stack_pairs == ()


def test_as_many_stacks_as_pairs_is_accepted(tmp_path: Path) -> None:
    """Every odd/even pair dealt as a stack (the bound itself) is a valid card file."""
    path = tmp_path / "all-stacks.toml"
    path.write_text(TEXT.replace("stacks_dealt = 7", "stacks_dealt = 14"), encoding="utf-8")
    assert load_cards(path).rules.stacks_dealt == 14


def test_set_up_doubt_may_fill_its_column(tmp_path: Path) -> None:
    """Set-Up may place as many Doubt as a column has spaces (only more is refused)."""
    old = "children = 1\nadults = 1"
    assert TEXT.count(old) == 1
    path = tmp_path / "full-column.toml"
    path.write_text(TEXT.replace(old, "children = 3\nadults = 1"), encoding="utf-8")
    cards = load_cards(path)
    assert cards.display.setup_doubt[Zone.CHILDREN] == len(cards.display.doubt_values[Zone.CHILDREN]) == 3


def test_a_zone_left_out_of_a_chart_row_seeds_none() -> None:
    """The shipped chart has no Elderly column (Reshuffle Sequence, B. Seed Demographics): its rows leave the zone
    unwritten, and no row seeds an Elderly Victim."""
    chart = parse_cards(TEXT, "shipped.toml").display.chart
    assert [row.victims[Zone.ELDERLY] for row in chart] == [0] * len(chart)
