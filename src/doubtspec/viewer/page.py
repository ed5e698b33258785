"""The page: one self-contained HTML file (inline CSS, script and SVG, no network) holding a document.

The template, style sheet and script ship as package data in `assets/`; `render_page` inlines them
with the document's JSON, so the file opens from disk in any browser with nothing else beside it.
"""

from __future__ import annotations

import html
import json
import re
import traceback
from importlib import resources
from pathlib import Path
from typing import Any

from doubtspec.invariants.violation import Violation
from doubtspec.reports.atomic import atomic_write_text
from doubtspec.viewer.document import Document, document_for_violation

_ASSETS = resources.files("doubtspec.viewer").joinpath("assets")


def _asset(name: str) -> str:
    return _ASSETS.joinpath(name).read_text(encoding="utf-8")


def _script_json(document: Document) -> str:
    """Compact JSON that is safe inside a <script> element (no `<` can close it)."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")


_PLACEHOLDER = re.compile(r"/\*__(STYLE|SCRIPT|DATA|TITLE)__\*/")


def render_page(document: Document) -> str:
    """The whole page for a document."""
    parts = {"STYLE": _asset("viewer.css"), "SCRIPT": _asset("viewer.js"), "DATA": _script_json(document),
             "TITLE": html.escape(str(document["title"]))}
    # One pass: text put in (card names, messages) is never searched for placeholders again.
    return _PLACEHOLDER.sub(lambda match: parts[match.group(1)], _asset("viewer.html"))


def write_page(path: Path, document: Document) -> None:
    """Write the page for `document` to `path`, atomically."""
    atomic_write_text(path, render_page(document))


def report_page(violation: Violation, report: dict[str, Any]) -> str:
    """`report.html` for a violation found in this process (`report`: its `report.json` content).

    Should the viewer itself fail, the page says so with the error, rather than costing the report
    its other files: the finding matters more than its drawing.
    """
    try:
        return render_page(document_for_violation(violation, report))
    except Exception:
        detail = html.escape(traceback.format_exc())
        return (f"<!doctype html><meta charset=\"utf-8\"><title>{html.escape(str(report.get('name')))}</title>"
                f"<p>The board viewer failed on this report; report.md and report.json are complete. "
                f"Please report this error:</p><pre>{detail}</pre>\n")
