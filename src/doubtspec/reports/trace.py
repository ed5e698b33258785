"""Traces: a game from Set-Up as data, with what is needed to replay it anywhere.

A trace names the card file (its path, or none for the shipped set, and its fingerprint), the
rulings in force, the seed of the run that found it, and the actions in their text form. Two file
forms are read:

* JSON, `{"format": "doubtspec-trace", ...}` on its own or as the `trace` of a `report.json`;
* text, one action per line, with `# key: value` header lines (`cards`, `fingerprint`,
  `rulings`, `seed`) and `#` comments, for traces written by hand:

      # cards: my-cards.toml
      # rulings: draw-order=reshuffle-first
      chance 33
      ...

Every error names the file and the line (or the step) and exits the command line with code 2.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from doubtspec.errors import CardFileError, OptionError, TraceError
from doubtspec.inputs import parse_json, read_text
from doubtspec.model.actions import Action, parse_action
from doubtspec.model.cards import load_cards
from doubtspec.model.game import Game
from doubtspec.model.rulings import Rulings

TRACE_FORMAT = "doubtspec-trace"
TRACE_VERSION = 1


@dataclass(frozen=True, slots=True)
class TraceFile:
    """A replayable game: card file, rulings, seed and the actions' text forms."""

    actions: tuple[str, ...]
    cards_path: str | None = None
    """The card file as given to the command; None for the shipped provisional set."""
    fingerprint: str | None = None
    rulings: tuple[tuple[str, str], ...] = ()
    """Non-default rulings, (id, choice), sorted by id."""
    seed: int | None = None
    source: str | None = field(default=None, compare=False)
    """Where the trace was read from (for error messages)."""
    lines: tuple[int | None, ...] = field(default=(), compare=False)
    """The line of each action in `source`, when known."""
    from_report: bool = field(default=False, compare=False)
    """Whether `source` is a failure report (whose trace may be empty: a failure at Set-Up)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": TRACE_FORMAT,
            "version": TRACE_VERSION,
            "cards": {"path": self.cards_path, "fingerprint": self.fingerprint},
            "rulings": dict(self.rulings),
            "seed": self.seed,
            "actions": list(self.actions),
        }

    def to_text(self) -> str:
        """The text form: header comments, then one action per line."""
        head = [f"# cards: {self.cards_path or '(shipped provisional set)'}"]
        if self.fingerprint:
            head.append(f"# fingerprint: {self.fingerprint}")
        if self.rulings:
            head.append("# rulings: " + ",".join(f"{k}={v}" for k, v in self.rulings))
        if self.seed is not None:
            head.append(f"# seed: {self.seed}")
        return "\n".join([*head, *self.actions]) + "\n"

    def where(self, step: int) -> tuple[int | None, str]:
        """(line, description) of step `step` (1-based), for error messages."""
        line = self.lines[step - 1] if 0 < step <= len(self.lines) else None
        return line, f"step {step}"

    def parsed(self) -> tuple[Action, ...]:
        """The actions; raises `TraceError` naming the file, line and step of one that does not parse."""
        actions = []
        for step, text in enumerate(self.actions, start=1):
            try:
                actions.append(parse_action(text))
            except TraceError as exc:
                line, what = self.where(step)
                raise TraceError(f"{what}: {exc.message}", path=self.source, line=line, field="actions") from exc
        return tuple(actions)

    def game(self, cards_override: Path | None = None) -> Game:
        """The game the trace was played under (raises `CardFileError` or `OptionError`)."""
        path = cards_override if cards_override is not None else self.cards_path
        if path is not None and self.source is not None and not Path(path).is_absolute():
            # A relative card path is read relative to the working directory first, then to the trace.
            candidate = Path(path)
            if not candidate.exists() and (Path(self.source).parent / candidate).exists():
                path = Path(self.source).parent / candidate
        if cards_override is None and path is not None:
            try:
                cards = load_cards(path)
            except CardFileError as exc:
                raise TraceError(f"the card file the trace names cannot be used: {exc.describe()}",
                                 path=self.source, field="cards") from exc
        else:
            cards = load_cards(path)
        try:
            rulings = Rulings.parse(f"{k}={v}" for k, v in self.rulings)
        except OptionError as exc:
            raise TraceError(exc.message, path=self.source, field="rulings") from exc
        return Game(cards, rulings)


def _fail(message: str, source: Path, line: int | None = None, field: str | None = None) -> TraceError:
    return TraceError(message, path=source, line=line, field=field)


def trace_from_json(data: object, source: Path, text: str) -> TraceFile:
    """A trace from parsed JSON (a trace object, or a report whose `trace` is one)."""
    from_report = isinstance(data, dict) and data.get("format") == "doubtspec-report"
    if from_report:
        assert isinstance(data, dict)
        data = data.get("trace")
        if not isinstance(data, dict):
            raise _fail("expected the trace as a JSON object", source, field="trace")
    elif isinstance(data, dict) and "trace" in data and isinstance(data["trace"], dict):
        data = data["trace"]
    if not isinstance(data, dict):
        raise _fail("expected a JSON object with the trace", source, 1)
    if data.get("format") != TRACE_FORMAT:
        raise _fail(f"not a doubtspec trace (format {data.get('format')!r})", source, field="format")
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise _fail("expected a list of action texts", source, field="actions")
    cards = data.get("cards", {})
    if not isinstance(cards, dict):
        raise _fail("expected an object with path and fingerprint", source, field="cards")
    path, fingerprint = cards.get("path"), cards.get("fingerprint")
    if path is not None and (not isinstance(path, str) or not path.strip()):
        raise _fail("expected a card file path or null", source, field="cards.path")
    if fingerprint is not None and not isinstance(fingerprint, str):
        raise _fail("expected a string or null", source, field="cards.fingerprint")
    rulings = data.get("rulings", {})
    if not isinstance(rulings, dict) or not all(isinstance(v, str) for v in rulings.values()):
        raise _fail("expected an object of ruling ids to choices", source, field="rulings")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise _fail("expected an integer or null", source, field="seed")
    return TraceFile(tuple(actions), path, fingerprint, tuple(sorted(rulings.items())), seed, str(source),
                     _action_lines(text, actions), from_report)


def _action_lines(text: str, actions: list[str]) -> tuple[int | None, ...]:
    """The line of each action in a JSON file written one action per line (as doubtspec writes them)."""
    lines = text.splitlines()
    found: list[int | None] = []
    start = next((i for i, line in enumerate(lines) if '"actions"' in line), 0)
    cursor = start
    for action in actions:
        quoted = json.dumps(action)
        line_no = None
        for i in range(cursor, len(lines)):
            if quoted in lines[i]:
                line_no, cursor = i + 1, i + 1
                break
        found.append(line_no)
        if line_no is None:  # not written one per line: stop looking rather than rescan the file per action
            break
    return tuple(found) + (None,) * (len(actions) - len(found))


def trace_from_text(text: str, source: Path) -> TraceFile:
    """A trace from its text form (see the module docstring)."""
    header: dict[str, str] = {}
    actions: list[str] = []
    lines: list[int | None] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep and key.strip() in {"cards", "fingerprint", "rulings", "seed"}:
                header[key.strip()] = value.strip()
            continue
        actions.append(line)
        lines.append(number)
    cards = header.get("cards")
    if cards is not None and cards.startswith("("):
        cards = None
    if cards == "":
        raise _fail("expected a card file path (or no cards line for the shipped set)", source, field="cards")
    rulings: list[tuple[str, str]] = []
    for spec in filter(None, (s.strip() for s in header.get("rulings", "").split(","))):
        rid, sep, choice = spec.partition("=")
        if not sep:
            raise _fail(f"expected ID=CHOICE, got {spec!r}", source, field="rulings")
        rulings.append((rid, choice))
    seed = header.get("seed")
    if seed is not None and not _INTEGER.fullmatch(seed):
        raise _fail(f"expected an integer, got {seed!r}", source, field="seed")
    return TraceFile(tuple(actions), cards, header.get("fingerprint"), tuple(sorted(rulings)),
                     int(seed) if seed is not None else None, str(source), tuple(lines))


_INTEGER = re.compile(r"-?[0-9]{1,40}")
"""A seed as written in a text trace (bounded, so a huge number is an error, not a slow parse)."""


def load_trace(path: Path) -> TraceFile:
    """Read a trace from a report directory, a `report.json`, a JSON trace or a text trace.

    A trace that is not part of a report must hold at least one action: an empty one would
    "replay" without checking anything.
    """
    if path.is_dir():
        path = path / "report.json"
    text = read_text(path, error=TraceError, what="trace")
    if text.lstrip().startswith(("{", "[")):
        trace = trace_from_json(parse_json(text, path, error=TraceError, what="trace"), path, text)
    else:
        trace = trace_from_text(text, path)
    if not trace.actions and not trace.from_report:
        raise _fail("the trace holds no actions (nothing to replay)", path, field="actions")
    return trace


def check_cards(trace: TraceFile, game: Game) -> str | None:
    """A warning when the card file is not the one the trace was recorded with."""
    if trace.fingerprint and game.cards.fingerprint != trace.fingerprint:
        return (f"the card file {game.cards.source} has fingerprint {game.cards.fingerprint}, but the trace was "
                f"recorded with {trace.fingerprint}: it is another card file, or it has changed since")
    return None


__all__ = ["CardFileError", "TraceFile", "check_cards", "load_trace", "trace_from_json", "trace_from_text"]
