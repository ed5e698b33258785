"""The input boundary, tested generatively: malformed card files, traces, reports and report folders.

Hypothesis builds bad input from good input (random bytes, truncations, one value replaced, deep
nesting, other encodings, Rich markup in strings and in file names) and runs the real command line
on it, in-process through `doubtspec.cli.app.main`. Whatever the input, the command must end with
exit 0, 1 (a replayed violation) or 2 (bad input), never with a traceback; and exit 2 must come
with a first line on stderr naming the file.

The default suite tries a few hundred inputs; `-m slow` runs the same tests much longer.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_run import run_cli
from doubtspec.invariants.catalog import BY_ID
from doubtspec.invariants.machines import Violation
from doubtspec.model.cards import default_cards_path, load_cards
from doubtspec.model.engine import apply, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.reports.report import RunInfo, build_report
from doubtspec.reports.trace import TraceFile

CARDS_TEXT = default_cards_path().read_text(encoding="utf-8")


def _sample_trace() -> tuple[str, str, str]:
    """A real game's first steps: (JSON trace, text trace, report.json)."""
    game = Game(load_cards())
    state = new_game(game)
    actions = []
    for _ in range(30):
        action = legal_actions(state)[-1]
        actions.append(action)
        state = apply(state, action)
    trace = TraceFile(tuple(map(str, actions)), None, game.cards.fingerprint, (), 0)
    violation = Violation(BY_ID["tokens.profit"], "a made-up finding", game, tuple(actions), len(actions), None, state)
    report = build_report(violation, RunInfo("ci", 0, None), Path("reports"))
    return json.dumps(trace.to_json(), indent=2), trace.to_text(), json.dumps(report, indent=2)


TRACE_JSON, TRACE_TEXT, REPORT_JSON = _sample_trace()

MARKUP = ["[/] Free Samples", "[red]x", "[bold]", "[/]", "[link=file:///]x[/link]", "\\[", "][", ":x: emoji"]
"""Strings Rich would take for markup if they were not escaped."""

FILE_NAMES = st.sampled_from(["input", "[red]input", "in [b]put[", "spaced name", "ünïcode", "x][", "emoji:x:"])

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
                         st.text(max_size=20), st.sampled_from(MARKUP))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
toml_values = st.one_of(
    st.integers(-(2**70), 2**70).map(str), st.booleans().map(lambda b: str(b).lower()),
    st.sampled_from(["nan", "inf", "-inf", "1e400", "0.5", "[]", "{}", '""', "[1, [2, [3]]]", "{ a = 1 }",
                     "1979-05-27", '"""multi\nline"""', "'literal'", "[[", "= =", ""]),
    st.text(max_size=20).map(json.dumps),
    st.sampled_from(MARKUP).map(json.dumps),
)


def _truncated(text: str) -> st.SearchStrategy[bytes]:
    data = text.encode()
    return st.integers(0, len(data)).map(lambda n: data[:n])


def _deep(kind: str) -> st.SearchStrategy[bytes]:
    def build(depth: int) -> bytes:
        if kind == "toml":
            return ("a = " + "[" * depth + "]" * depth + "\n").encode()
        return ("[" * depth + "]" * depth).encode() if depth % 2 else ('{"a":' * depth + "1" + "}" * depth).encode()
    return st.sampled_from([10, 65, 500, 5_000, 200_000]).map(build)


def _encodings(text: str) -> st.SearchStrategy[bytes]:
    sample = text[:4000] + "\n# é ü 名前\n"
    return st.sampled_from(["utf-16", "utf-32", "latin-1", "cp1252"]).map(
        lambda enc: sample.encode(enc, errors="replace")) | st.binary(min_size=1, max_size=4).map(
        lambda junk: sample.encode()[:200] + b"\xff\xfe" + junk + sample.encode()[200:])


@st.composite
def _toml_mutation(draw: st.DrawFn, text: str) -> bytes:
    """The file with one `key = value` line's value replaced."""
    lines = text.splitlines()
    candidates = [i for i, line in enumerate(lines) if re.match(r"^\s*[\w.\"-]+\s*=", line)]
    index = draw(st.sampled_from(candidates))
    key = lines[index].split("=", 1)[0]
    lines[index] = f"{key}= {draw(toml_values)}"
    return "\n".join(lines).encode()


@st.composite
def _markup_names(draw: st.DrawFn, text: str) -> bytes:
    """Every `name = "..."` of the card file holding markup (a valid file that must be shown as written)."""
    markup = draw(st.sampled_from(MARKUP))
    return re.sub(r'^(\s*name\s*=\s*)"([^"]*)"', lambda m: f'{m.group(1)}"{markup}{m.group(2)}"', text,
                  flags=re.MULTILINE).encode()


@st.composite
def _json_mutation(draw: st.DrawFn, text: str) -> bytes:
    """The JSON document with one value (at any depth) replaced, or one key removed."""
    data = json.loads(text)
    node = data
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and draw(st.booleans()):
            node = child
            continue
        if isinstance(node, dict) and draw(st.integers(0, 4)) == 0:
            del node[key]
        else:
            node[key] = draw(json_values)
        break
    return json.dumps(data, indent=2).encode()


def _malformed(text: str, kind: str) -> st.SearchStrategy[bytes]:
    mutation = _toml_mutation(text) if kind == "toml" else _json_mutation(text)
    return st.one_of(st.binary(max_size=600), _truncated(text), mutation, mutation, _deep(kind), _encodings(text))


@dataclass
class Outcome:
    code: int
    out: str
    err: str


def _run(args: list[str]) -> Outcome:
    return Outcome(*run_cli(*args))


def _check(outcome: Outcome, path: Path, args: list[str]) -> None:
    where = f"doubtspec {' '.join(args)}\nstdout: {outcome.out[-800:]}\nstderr: {outcome.err[-2000:]}"
    assert "Traceback" not in outcome.err, where
    assert outcome.code in (0, 1, 2), where
    if outcome.code == 2:
        first = outcome.err.splitlines()[0] if outcome.err else ""
        assert first.startswith("error: ") and str(path) in first, where


@contextlib.contextmanager
def _scratch() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="doubtspec-boundary-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _write(folder: Path, name: str, suffix: str, data: bytes) -> Path:
    path = folder / f"{name}{suffix}"
    path.write_bytes(data)
    return path


DEFAULT = settings(max_examples=150, deadline=None, database=None, derandomize=True,
                   suppress_health_check=list(HealthCheck))
LONG = settings(DEFAULT, max_examples=2_000, derandomize=False)


def _card_file_test(data: bytes, name: str, command: str) -> None:
    with _scratch() as folder:
        path = _write(folder, name, ".toml", data)
        args = {"check": ["cards", "check", str(path)], "show": ["cards", "show", str(path)],
                "play": ["play", "--cards", str(path), "--max-rounds", "1", "--no-states"]}[command]
        _check(_run(args), path, args)


card_files = st.one_of(_malformed(CARDS_TEXT, "toml"), _markup_names(CARDS_TEXT))


@DEFAULT
@given(data=card_files, name=FILE_NAMES, command=st.sampled_from(["check", "show"]))
def test_card_files_are_refused_cleanly(data: bytes, name: str, command: str) -> None:
    _card_file_test(data, name, command)


@pytest.mark.slow
@LONG
@given(data=card_files, name=FILE_NAMES, command=st.sampled_from(["check", "show", "play"]))
def test_card_files_are_refused_cleanly_long(data: bytes, name: str, command: str) -> None:
    _card_file_test(data, name, command)


TRACE_LINES = [*TRACE_TEXT.splitlines(), "# seed: --5", "# seed: ²", "# rulings: x", "# rulings: draw-order=",
               "# cards: /dev/zero", "# cards:", "# fingerprint: 0", "chance 999", "[red]", "c play 1 [/]"]
"""Lines of a real text trace, and header and action lines that are subtly or plainly wrong."""

traces = st.one_of(_malformed(TRACE_JSON, "json"), _malformed(REPORT_JSON, "json"),
                   _truncated(TRACE_TEXT), st.text(max_size=300).map(str.encode),
                   st.lists(st.sampled_from(TRACE_LINES), max_size=12).map(lambda lines: "\n".join(lines).encode()))


def _trace_test(data: bytes, name: str, suffix: str, command: str) -> None:
    with _scratch() as folder:
        path = _write(folder, name, suffix, data)
        args = {"replay": ["replay", str(path), "-q"], "replay-json": ["replay", str(path), "--json"],
                "report": ["report", str(path)]}[command]
        _check(_run(args), path, args)


@DEFAULT
@given(data=traces, name=FILE_NAMES, suffix=st.sampled_from([".json", ".trace", ""]),
       command=st.sampled_from(["replay", "replay-json", "report"]))
def test_traces_and_reports_are_refused_cleanly(data: bytes, name: str, suffix: str, command: str) -> None:
    _trace_test(data, name, suffix, command)


@pytest.mark.slow
@LONG
@given(data=traces, name=FILE_NAMES, suffix=st.sampled_from([".json", ".trace", ""]),
       command=st.sampled_from(["replay", "replay-json", "report"]))
def test_traces_and_reports_are_refused_cleanly_long(data: bytes, name: str, suffix: str, command: str) -> None:
    _trace_test(data, name, suffix, command)


report_entries = st.lists(st.one_of(_malformed(REPORT_JSON, "json"), st.just(REPORT_JSON.encode()),
                                    st.none()), min_size=1, max_size=4)


def _folder_test(entries: list[bytes | None], name: str, command: str) -> None:
    with _scratch() as folder:
        reports = folder / name
        reports.mkdir()
        for number, data in enumerate(entries):
            entry = reports / f"entry-{number}"
            entry.mkdir()
            if data is not None:
                (entry / "report.json").write_bytes(data)
        args = {"list": ["report", str(reports)], "json": ["report", str(reports), "--json"],
                "show": ["report", str(reports), "--show", "1"]}[command]
        _check(_run(args), reports, args)


@DEFAULT
@given(entries=report_entries, name=FILE_NAMES, command=st.sampled_from(["list", "json", "show"]))
def test_report_folders_are_listed_cleanly(entries: list[bytes | None], name: str, command: str) -> None:
    _folder_test(entries, name, command)


@pytest.mark.slow
@LONG
@given(entries=report_entries, name=FILE_NAMES, command=st.sampled_from(["list", "json", "show"]))
def test_report_folders_are_listed_cleanly_long(entries: list[bytes | None], name: str, command: str) -> None:
    _folder_test(entries, name, command)
