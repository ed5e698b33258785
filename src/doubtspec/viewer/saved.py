"""Pages for what is already on disk: a report directory (or its `report.json`) rendered anew."""

from __future__ import annotations

from pathlib import Path

from doubtspec.reports.report import load_report
from doubtspec.reports.trace import load_trace
from doubtspec.viewer.document import document_for_report
from doubtspec.viewer.page import write_page


def write_report_page(path: Path, cards: Path | None = None) -> Path:
    """Write `report.html` beside a report's `report.json` (`path`: the directory or the file); returns its path.

    The trace is replayed with this process's engine under the report's card file (or `cards`);
    raises `TraceError` or `CardFileError` when the report or its card file cannot be read.
    """
    report = load_report(path)
    trace = load_trace(path)
    target = (path if path.is_dir() else path.parent) / "report.html"
    write_page(target, document_for_report(report, trace.game(cards), trace.parsed()))
    return target
