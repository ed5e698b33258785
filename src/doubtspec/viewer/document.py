"""What one page shows, as JSON data: a failure report, a solver witness or a played game.

A document holds the card data (`catalogue`), the steps with their action texts in words, the
boards of every step stored as changes (`timeline`), the step to open first, and, for a failure,
the invariant, its statement and rulebook sections, the message with the values found and what
the failing step changed. The page's script draws everything from this data alone.

Boards come from replaying the actions through the engine of this process. When a report was
written by an engine that differs from it (an older version, or a deliberately broken one), the
replay may stop early or end elsewhere; the page then shows the states the report recorded for
the failing step, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doubtspec.invariants.violation import Violation
from doubtspec.model.actions import Action
from doubtspec.model.game import Game
from doubtspec.model.state import STATE_FIELDS, GameState, Outcome, OutcomeReason, Phase
from doubtspec.viewer.board import KEY_LABELS, Board, board_of, fields_of
from doubtspec.viewer.catalogue import catalogue_of
from doubtspec.viewer.timeline import Timeline, encode_frames, timeline_of

DOCUMENT_FORMAT = "doubtspec-viewer"
DOCUMENT_VERSION = 1

Document = dict[str, Any]
Facts = Sequence[tuple[str, str]]

_CARD_FIELDS = {
    "company": ("c_deck", "c_hand", "c_discard", "c_reserve", "c_in_play", "trash", "c_removed"),
    "movement": ("m_deck", "m_hand", "m_discard"),
    "goals": ("achieved",),
}
"""State fields that hold card numbers, by the catalogue section that names them (for the changes table)."""


def _document(kind: str, title: str, game: Game, timeline: Timeline, facts: Facts, focus: int | None,
              failure: dict[str, Any] | None = None, recorded: dict[int, Board] | None = None,
              notes: Sequence[str] = ()) -> Document:
    boards = [frame.board for frame in timeline.frames]
    all_notes = list(notes)
    if timeline.problem is not None:
        all_notes.append(f"The board stops where the replay stopped: {timeline.problem}.")
    for step, board in sorted((recorded or {}).items()):
        if 0 <= step < len(boards) and boards[step] != board:
            boards[step] = board
            all_notes.append(f"Step {step} shows the state recorded in the report: this engine's replay "
                             "does not reach it.")
    return {
        "format": DOCUMENT_FORMAT,
        "version": DOCUMENT_VERSION,
        "kind": kind,
        "title": title,
        "facts": [list(fact) for fact in facts],
        "cards": catalogue_of(game),
        "labels": KEY_LABELS,
        "card_fields": _CARD_FIELDS,
        "steps": [frame.to_json() for frame in timeline.frames],
        "frames": encode_frames(boards),
        "focus": focus,
        "failure": failure,
        "notes": all_notes,
    }


def _cards_fact(game: Game, path: str | None) -> tuple[str, str]:
    cards = game.cards
    return ("Card set", f"{cards.name} v{cards.version} — {path or cards.source} (fingerprint {cards.fingerprint})")


def _rulings_fact(game: Game) -> tuple[str, str]:
    return ("Rulings", ", ".join(f"{k}={v}" for k, v in game.rulings.choices) or "defaults")


def _failure(report: dict[str, Any]) -> dict[str, Any]:
    inv = report["invariant"]
    return {"id": inv["id"], "statement": inv["statement"], "kind": inv["kind"], "sections": inv["sections"],
            "message": report["message"], "step": report["step"], "probe": report.get("probe"),
            "changes": report.get("changes", [])}


def _report_facts(report: dict[str, Any], game: Game) -> list[tuple[str, str]]:
    return [_cards_fact(game, report["cards"].get("path")), _rulings_fact(game),
            ("Seed", f"{report.get('seed')} (profile {report.get('profile')})"),
            ("Replay", str(report.get("replay", "")))]


def _failure_title(report: dict[str, Any]) -> str:
    return f"{report['invariant']['id']} violated at step {report['step']}"


def document_for_violation(violation: Violation, report: dict[str, Any]) -> Document:
    """The page of a violation found in this process (`report` is its `report.json` content)."""
    game = violation.game
    timeline = timeline_of(game, violation.actions)
    recorded = {violation.step: board_of(violation.after)}
    if violation.before is not None and violation.step > 0:
        recorded[violation.step - 1] = board_of(violation.before)
    return _document("failure", _failure_title(report), game, timeline, _report_facts(report, game),
                     violation.step, _failure(report), recorded)


def state_from_fields(game: Game, data: dict[str, Any]) -> GameState:
    """A state from a report's recorded fields (`state_to_dict`); its pending steps are not restored."""

    def frozen(value: Any) -> Any:
        return tuple(frozen(v) for v in value) if isinstance(value, list) else value

    values = {name: frozen(data[name]) for name in STATE_FIELDS if name not in ("game", "pending", "outcome")}
    values["phase"] = Phase(data["phase"])
    outcome = data["outcome"]
    values["outcome"] = None if outcome is None else Outcome(OutcomeReason(outcome["reason"]), outcome["round"],
                                                             outcome["detail"])
    return GameState(game=game, pending=(), **values)


def _recorded_board(game: Game, data: dict[str, Any]) -> Board:
    board = board_of(state_from_fields(game, data))
    board["pending"] = data["pending"]
    return board


def document_for_report(report: dict[str, Any], game: Game, actions: Sequence[Action]) -> Document:
    """The page of a report read from disk, replayed with this process's engine."""
    timeline = timeline_of(game, list(actions))
    step = int(report["step"])
    recorded: dict[int, Board] = {}
    notes: list[str] = []
    for offset, key in ((0, "after"), (1, "before")):
        data = report.get(key)
        at = step - offset
        if data is None or at < 0 or at >= len(timeline.frames):
            continue
        replayed = timeline.frames[at].board
        if replayed is not None and fields_of(replayed) == data:
            continue
        try:
            recorded[at] = _recorded_board(game, data)
        except (KeyError, TypeError, ValueError) as exc:
            notes.append(f"The report's recorded state {key} the failing step is unreadable ({exc}).")
    return _document("failure", _failure_title(report), game, timeline, _report_facts(report, game), step,
                     _failure(report), recorded, notes)


def document_for_witness(game: Game, actions: Sequence[Action], question: str, facts: Facts) -> Document:
    """The page of a solver witness: a game from Set-Up that reaches what was asked."""
    timeline = timeline_of(game, list(actions))
    return _document("witness", question, game, timeline, [_cards_fact(game, None), _rulings_fact(game), *facts],
                     len(timeline.frames) - 1)


def document_for_game(game: Game, actions: Sequence[Action], title: str, facts: Facts) -> Document:
    """The page of a played game (it opens at Set-Up; its focus is the last step)."""
    timeline = timeline_of(game, list(actions))
    final = timeline.final
    outcome = [] if final.outcome is None else [("Outcome", f"{final.outcome.winner.value} wins by "
                                                            f"{final.outcome.reason.value} in round "
                                                            f"{final.outcome.round}: {final.outcome.detail}")]
    return _document("game", title, game, timeline, [_cards_fact(game, None), _rulings_fact(game), *facts, *outcome],
                     len(timeline.frames) - 1)
