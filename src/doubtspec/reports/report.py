"""Failure reports: `report.json` for tools, `report.md` and `report.html` for people, one directory per violation.

A report holds the broken invariant and its rulebook sections, the card set and rulings, the seed,
the shrunk trace as numbered actions in text form, the state before and after the failing step with
a field-by-field account of what changed, and the command that replays it. Directories are named
`<invariant-id>-<hash>`, the hash covering the configuration and the trace, so the same finding
lands in the same place and a different one never overwrites it. Writing is atomic
(`doubtspec.reports.atomic`).
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from doubtspec.errors import InputError, TraceError
from doubtspec.inputs import parse_json, read_text
from doubtspec.invariants.catalog import Invariant, ProbeInvariant, StateInvariant, TraceInvariant
from doubtspec.invariants.violation import Violation
from doubtspec.model.state import STATE_FIELDS, GameState, Outcome
from doubtspec.reports.atomic import atomic_write_dir
from doubtspec.reports.trace import TraceFile, trace_from_json
from doubtspec.viewer.page import report_page

REPORT_FORMAT = "doubtspec-report"
REPORT_VERSION = 1

_MULTISETS = {"c_deck", "c_hand", "c_discard", "c_reserve", "c_in_play", "trash", "c_removed", "m_deck", "m_hand",
              "m_discard", "achieved", "banned"}
"""Fields whose change is best told as cards (or kinds) added and removed."""


def invariant_kind(invariant: Invariant) -> str:
    if isinstance(invariant, StateInvariant):
        return "state"
    if isinstance(invariant, TraceInvariant):
        return "trace"
    if isinstance(invariant, ProbeInvariant):
        return "probe"
    return "transition"


def jsonable(value: object) -> Any:
    """A value of a state field as JSON data (steps and outcomes as readable text)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Outcome):
        return {"reason": value.reason.value, "winner": value.winner.value, "round": value.round,
                "detail": value.detail}
    if isinstance(value, tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, bool | int | str) or value is None:
        return value
    return repr(value)


def state_to_dict(state: GameState) -> dict[str, Any]:
    """Every field of a state (but the game definition) as JSON data."""
    return {name: jsonable(getattr(state, name)) for name in STATE_FIELDS if name != "game"}


def diff_states(before: GameState, after: GameState) -> list[dict[str, Any]]:
    """What changed between two states, field by field (with added and removed items for card piles)."""
    changes: list[dict[str, Any]] = []
    for name in STATE_FIELDS:
        if name == "game":
            continue
        old, new = getattr(before, name), getattr(after, name)
        if old == new:
            continue
        change: dict[str, Any] = {"field": name, "before": jsonable(old), "after": jsonable(new)}
        if name in _MULTISETS:
            gone, came = Counter(old) - Counter(new), Counter(new) - Counter(old)
            change["removed"] = sorted(gone.elements())
            change["added"] = sorted(came.elements())
        changes.append(change)
    return changes


@dataclass(frozen=True, slots=True)
class RunInfo:
    """The fuzzing run a violation came from."""

    profile: str
    seed: int
    cards_path: str | None
    """The card file as given on the command line (None: the shipped set)."""
    shrinking_cut: bool = False
    """Whether the run's time bound stopped shrinking early (the trace is the shortest found so far)."""


def trace_of(violation: Violation, run: RunInfo) -> TraceFile:
    game = violation.game
    return TraceFile(
        actions=tuple(str(a) for a in violation.actions),
        cards_path=run.cards_path,
        fingerprint=game.cards.fingerprint,
        rulings=game.rulings.choices,
        seed=run.seed,
    )


def report_name(violation: Violation, trace: TraceFile) -> str:
    """`<invariant-id>-<hash>`: the same finding always gets the same directory."""
    digest = hashlib.sha256(json.dumps([violation.invariant.id, trace.to_json() | {"seed": None},
                                        str(violation.probe)]).encode()).hexdigest()[:10]
    return f"{violation.invariant.id}-{digest}"


def build_report(violation: Violation, run: RunInfo, report_dir: Path) -> dict[str, Any]:
    """The content of `report.json` for one violation."""
    trace = trace_of(violation, run)
    name = report_name(violation, trace)
    inv = violation.invariant
    cards = violation.game.cards
    return {
        "format": REPORT_FORMAT,
        "version": REPORT_VERSION,
        "name": name,
        "invariant": {"id": inv.id, "statement": inv.statement, "kind": invariant_kind(inv),
                      "sections": [s.value for s in inv.sections]},
        "message": violation.message,
        "step": violation.step,
        "probe": None if violation.probe is None else str(violation.probe),
        "cards": {"path": run.cards_path, "source": cards.source, "name": cards.name, "version": cards.version,
                  "fingerprint": cards.fingerprint, "provisional": cards.provisional},
        "rulings": violation.game.rulings.as_dict(),
        "seed": run.seed,
        "profile": run.profile,
        "shrinking": {"cut": run.shrinking_cut},
        "trace": trace.to_json(),
        "before": None if violation.before is None else state_to_dict(violation.before),
        "after": state_to_dict(violation.after),
        "changes": [] if violation.before is None else diff_states(violation.before, violation.after),
        "replay": f"doubtspec replay {report_dir / name / 'report.json'}",
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }


def _short(value: Any, limit: int = 90) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def decisions(actions: list[str]) -> int:
    """How many of a trace's actions (in text form) are the players' decisions rather than chance events."""
    return sum(1 for action in actions if not action.startswith("chance "))


def render_markdown(report: dict[str, Any]) -> str:
    """`report.md`: the report for people."""
    inv = report["invariant"]
    actions: list[str] = report["trace"]["actions"]
    step = report["step"]
    cards = report["cards"]
    lines = [
        f"# `{inv['id']}` violated",
        "",
        f"**Invariant** ({inv['kind']}): {inv['statement']}",
        "",
        "**Rulebook sections:** " + "; ".join(inv["sections"]),
        "",
        f"**What happened** (step {step}): {report['message']}",
        "",
        f"- Card set: {cards['name']} v{cards['version']} — `{cards['path'] or cards['source']}` "
        f"(fingerprint `{cards['fingerprint']}`)",
        "- Rulings: " + (", ".join(f"`{k}={v}`" for k, v in sorted(report["trace"]["rulings"].items()))
                         or "defaults"),
        f"- Seed: {report['seed']} (profile `{report['profile']}`)",
        f"- Replay: `{report['replay']}`",
        "- The board at every step: [report.html](report.html) (opens in any browser)",
        "",
        f"## Trace ({len(actions)} actions from Set-Up: {decisions(actions)} decisions, the rest chance events)",
        "",
    ]
    shrinking = report.get("shrinking")
    if isinstance(shrinking, dict) and shrinking.get("cut"):
        lines += ["Shrinking was cut short by the run's time bound: this is the shortest failing trace found in "
                  "time, not necessarily the shortest there is.", ""]
    for number, text in enumerate(actions, start=1):
        mark = "  ← fails here" if number == step and report["probe"] is None else ""
        lines.append(f"{number}. `{text}`{mark}")
    if report["probe"] is not None:
        lines += ["", f"Then the illegal action `{report['probe']}` was tried, and the engine did not reject it."]
    lines += ["", "## What changed in the failing step", ""]
    if report["changes"]:
        lines += ["| field | before | after | removed | added |", "|---|---|---|---|---|"]
        for change in report["changes"]:
            removed = _short(change["removed"]) if "removed" in change else ""
            added = _short(change["added"]) if "added" in change else ""
            lines.append(f"| `{change['field']}` | `{_short(change['before'])}` | `{_short(change['after'])}` | "
                         f"{removed} | {added} |")
    else:
        lines.append("(no state before the failure: the check looked at a single state)")
    for title, key in (("State before the failing step", "before"), ("State after the failing step", "after")):
        if report[key] is None:
            continue
        lines += ["", "<details>", f"<summary>{title}</summary>", "", "```json",
                  json.dumps(report[key], indent=1), "```", "</details>"]
    return "\n".join(lines) + "\n"


def write_report(violation: Violation, run: RunInfo, report_dir: Path) -> Path:
    """Write `report.json`, `report.md` and `report.html` for a violation, atomically; returns its directory."""
    report = build_report(violation, run, report_dir)
    target = report_dir / str(report["name"])
    atomic_write_dir(target, {
        "report.json": json.dumps(report, indent=2) + "\n",
        "report.md": render_markdown(report),
        "report.html": report_page(violation, report),  # the board at every step
    })
    return target


_REQUIRED: tuple[tuple[str, tuple[type, ...], bool], ...] = (
    ("name", (str,), False),
    ("invariant", (dict,), False),
    ("invariant.id", (str,), False),
    ("invariant.statement", (str,), False),
    ("invariant.kind", (str,), False),
    ("invariant.sections", (list,), False),
    ("message", (str,), False),
    ("step", (int,), False),
    ("probe", (str,), True),
    ("cards", (dict,), False),
    ("cards.path", (str,), True),
    ("cards.source", (str,), False),
    ("cards.name", (str,), False),
    ("cards.version", (str, int, float), False),
    ("cards.fingerprint", (str,), False),
    ("rulings", (dict,), False),
    ("seed", (int,), True),
    ("profile", (str,), False),
    ("trace", (dict,), False),
    ("trace.rulings", (dict,), False),
    ("trace.actions", (list,), False),
    ("before", (dict,), True),
    ("after", (dict,), False),
    ("changes", (list,), False),
    ("replay", (str,), False),
)
"""Every field a report must have, its JSON types, and whether it may be null."""


def check_report(data: object, file: Path) -> dict[str, Any]:
    """`data` if it is a complete doubtspec report; `TraceError` naming the first missing or mistyped field."""
    if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT:
        raise TraceError("not a doubtspec report", path=file, field="format")
    for dotted, types, nullable in _REQUIRED:
        value: Any = data
        for key in dotted.split("."):
            if not isinstance(value, dict) or key not in value:
                raise TraceError("missing", path=file, field=dotted)
            value = value[key]
        if value is None and nullable:
            continue
        if not isinstance(value, types) or isinstance(value, bool):
            expected = " or ".join({"str": "a string", "int": "an integer", "float": "a number", "dict": "an object",
                                    "list": "a list"}[t.__name__] for t in types)
            raise TraceError(f"expected {expected}{' or null' if nullable else ''}, got {_short(value, 40)}",
                             path=file, field=dotted)
    if data["step"] < 0:
        raise TraceError(f"expected a step number of 0 or more, got {data['step']}", path=file, field="step")
    for index, section in enumerate(data["invariant"]["sections"]):
        if not isinstance(section, str):
            raise TraceError("expected a string", path=file, field=f"invariant.sections[{index}]")
    for index, change in enumerate(data["changes"]):
        if not isinstance(change, dict) or not isinstance(change.get("field"), str) \
                or not {"before", "after"} <= change.keys():
            raise TraceError("expected an object with field, before and after", path=file, field=f"changes[{index}]")
        for key in ("removed", "added"):
            if key in change and not isinstance(change[key], list):
                raise TraceError("expected a list", path=file, field=f"changes[{index}].{key}")
    created = data.get("created")
    if created is not None and not isinstance(created, str):
        raise TraceError("expected a string", path=file, field="created")
    return data


def load_report(path: Path) -> dict[str, Any]:
    """A report read back from its directory or its `report.json`; raises `TraceError` when malformed."""
    file = path / "report.json" if path.is_dir() else path
    data = parse_json(read_text(file, error=TraceError, what="report"), file, error=TraceError, what="report")
    report = check_report(data, file)
    trace_from_json(report, file, "")  # the trace must be readable too
    return report


def scan_reports(report_dir: Path) -> tuple[list[tuple[Path, dict[str, Any]]], list[tuple[Path, InputError]]]:
    """The reports under `report_dir`, newest first, and every entry that is not a readable report, with why.

    Hidden entries (the temporaries of writes in progress) and plain files are not reports and are
    passed over; a folder without a readable `report.json` is listed with the reason.
    """
    found: list[tuple[Path, dict[str, Any]]] = []
    broken: list[tuple[Path, InputError]] = []
    if not report_dir.is_dir():
        return found, broken
    for entry in sorted(report_dir.iterdir()):
        if entry.name.startswith(".") or not entry.is_dir():
            continue
        try:
            found.append((entry, load_report(entry)))
        except InputError as exc:
            broken.append((entry, exc))
    found.sort(key=lambda item: str(item[1].get("created", "")), reverse=True)
    return found, broken


def list_reports(report_dir: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Every readable report under `report_dir`, newest first (see `scan_reports` for the others)."""
    return scan_reports(report_dir)[0]


def violations_summary(violations: Iterable[Violation]) -> list[dict[str, Any]]:
    return [{"invariant": v.invariant.id, "message": v.message, "steps": len(v.actions), "decisions": v.decisions}
            for v in violations]
