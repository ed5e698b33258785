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

from doubtspec.errors import TraceError
from doubtspec.invariants.catalog import Invariant, ProbeInvariant, StateInvariant, TraceInvariant
from doubtspec.invariants.machines import Violation
from doubtspec.model.state import STATE_FIELDS, GameState, Outcome
from doubtspec.reports.atomic import atomic_write_dir
from doubtspec.reports.trace import TraceFile
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
        f"## Trace ({len(actions)} actions from Set-Up)",
        "",
    ]
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


def load_report(path: Path) -> dict[str, Any]:
    """A report read back from its directory or its `report.json`; raises `TraceError` when malformed."""
    file = path / "report.json" if path.is_dir() else path
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TraceError(f"cannot read report: {exc.strerror or exc}", path=file) from exc
    except json.JSONDecodeError as exc:
        raise TraceError(f"not valid JSON: {exc.msg}", path=file, line=exc.lineno) from exc
    if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT:
        raise TraceError("not a doubtspec report", path=file, field="format")
    return data


def list_reports(report_dir: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Every readable report under `report_dir`, newest first (unreadable ones are skipped)."""
    found: list[tuple[Path, dict[str, Any]]] = []
    if not report_dir.is_dir():
        return found
    for entry in sorted(report_dir.iterdir()):
        if entry.name.startswith(".") or not (entry / "report.json").is_file():
            continue
        try:
            found.append((entry, load_report(entry)))
        except TraceError:
            continue
    found.sort(key=lambda item: str(item[1].get("created", "")), reverse=True)
    return found


def violations_summary(violations: Iterable[Violation]) -> list[dict[str, Any]]:
    return [{"invariant": v.invariant.id, "message": v.message, "steps": len(v.actions)} for v in violations]
