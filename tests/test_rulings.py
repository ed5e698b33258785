"""The rulings registry: one entry per open choice, each citing a rulebook section.

AMBIGUITIES.md (shared) asks that every open rule be recorded with its section, the reading in force
and the alternatives, and that cheap alternatives be selectable; `doubtspec rulings` lists them all.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from cli_run import DOUBTSPEC
from doubtspec.errors import OptionError
from doubtspec.model.game import Game
from doubtspec.model.rulings import BY_ID, DEFAULT_RULINGS, REGISTRY, Rulings
from doubtspec.rulebook import Section

SELECTABLE = [(r.id, choice) for r in REGISTRY if r.selectable for choice in r.choice_names]
FIXED_ALTERNATIVES = [(r.id, choice) for r in REGISTRY if not r.selectable for choice in r.choice_names[1:]]


def test_ids_are_unique_and_lowercase() -> None:
    ids = [r.id for r in REGISTRY]
    assert len(ids) == len(set(ids))
    assert all(i == i.lower() and " " not in i for i in ids)
    assert set(BY_ID) == set(ids)


def test_every_ruling_cites_a_section_and_explains_itself() -> None:
    for ruling in REGISTRY:
        assert isinstance(ruling.section, Section), ruling.id
        assert ruling.question.strip(), ruling.id
        assert ruling.choices, ruling.id
        names = ruling.choice_names
        assert len(names) == len(set(names)), ruling.id
        assert all(text.strip() for _, text in ruling.choices), ruling.id
        if ruling.selectable:
            assert len(ruling.choices) >= 2, f"{ruling.id} is selectable but has no alternative"


def test_defaults_come_first() -> None:
    for ruling in REGISTRY:
        assert ruling.default == ruling.choices[0][0]
        assert DEFAULT_RULINGS.get(ruling.id) == ruling.default
    assert DEFAULT_RULINGS.choices == ()
    assert str(DEFAULT_RULINGS) == "defaults"
    assert DEFAULT_RULINGS.as_dict() == {r.id: r.default for r in REGISTRY}


@pytest.mark.parametrize(("ruling_id", "choice"), SELECTABLE)
def test_parse_accepts_selectable_choices(ruling_id: str, choice: str) -> None:
    rulings = Rulings.parse([f"{ruling_id}={choice}"])
    assert rulings.get(ruling_id) == choice
    # Only non-default choices are stored, so equal readings compare and hash equal.
    if choice == BY_ID[ruling_id].default:
        assert rulings == DEFAULT_RULINGS
    else:
        assert rulings.choices == ((ruling_id, choice),)
    assert hash(rulings) == hash(Rulings.parse([f" {ruling_id} = {choice} "]))
    Game.load(rulings=rulings)  # the engine knows every selectable choice


@pytest.mark.parametrize("ruling_id", [r.id for r in REGISTRY if not r.selectable])
def test_parse_accepts_a_fixed_ruling_at_its_default(ruling_id: str) -> None:
    # Naming a fixed ruling's one supported choice is no error (the text is read at run time, as from a file).
    assert Rulings.parse([f"{ruling_id}={BY_ID[ruling_id].default}"]) == DEFAULT_RULINGS


def test_parse_combines_and_overrides() -> None:
    rulings = Rulings.parse(["trash-buy=any", "draw-order=reshuffle-first", "trash-buy=top-only"])
    assert rulings.choices == (("draw-order", "reshuffle-first"),)
    assert str(rulings) == "draw-order=reshuffle-first"
    assert Rulings.parse(str(rulings).split(",")) == rulings
    # Every choice is kept whatever the order given (a ruling given later never drops one given earlier).
    both = (("draw-order", "reshuffle-first"), ("trash-buy", "any"))
    assert Rulings.parse(["trash-buy=any", "draw-order=reshuffle-first"]).choices == both
    assert Rulings.parse(["draw-order=reshuffle-first", "trash-buy=any"]).choices == both


@pytest.mark.parametrize(("spec", "fragment"), [
    ("no-such-ruling=x", "unknown ruling"),
    ("draw-order=sideways", "has no choice"),
    ("draw-order", "expected ID=CHOICE"),
    *((f"{rid}={choice}", "not selectable") for rid, choice in FIXED_ALTERNATIVES),
])
def test_parse_rejects_bad_specs(spec: str, fragment: str) -> None:
    with pytest.raises(OptionError) as info:
        Rulings.parse([spec])
    assert fragment in info.value.message
    assert info.value.field == "--ruling"


def test_rulings_command_lists_them_all() -> None:
    env = {**os.environ, "COLUMNS": "400", "NO_COLOR": "1"}
    result = subprocess.run([str(DOUBTSPEC), "rulings", "--json"], capture_output=True, text=True, env=env,
                            timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    assert [r["id"] for r in listed] == [r.id for r in REGISTRY]
    for entry, ruling in zip(listed, REGISTRY, strict=True):
        assert entry["section"] == ruling.section.value
        assert entry["default"] == ruling.default
        assert entry["selectable"] == ruling.selectable
    table = subprocess.run([str(DOUBTSPEC), "rulings"], capture_output=True, text=True, env=env, timeout=60,
                           check=False)
    assert table.returncode == 0
    for ruling in REGISTRY:
        assert ruling.id in table.stdout


def test_cli_rejects_a_bad_ruling_with_exit_2() -> None:
    env = {**os.environ, "COLUMNS": "400", "NO_COLOR": "1"}
    result = subprocess.run([str(DOUBTSPEC), "simulate", "--ruling", "draw-order=sideways", "--games", "1"],
                            capture_output=True, text=True, env=env, timeout=60, check=False)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "draw-order" in result.stderr
