"""A game from Set-Up as the viewer shows it: one board per step, stored as the changes of each step.

`timeline_of` replays actions through the engine (checked: an action the engine refuses ends the
replay, and the steps after it have no board), describes each action in words, and takes the board
of every state. `encode_frames` stores the first board whole and every later one as the keys it
changed (and the keys it lost), which is both what keeps a long trace small and what the page
highlights; `decode_frames` is the inverse, mirrored by the page's script.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from doubtspec.describe import describe_action, phase_label
from doubtspec.model import engine
from doubtspec.model.actions import Action, actor_of
from doubtspec.model.game import Game
from doubtspec.model.state import GameState
from doubtspec.viewer.board import Board, board_of
from doubtspec.watchdog import cpu_limit

EncodedFrame = dict[str, Any] | None
"""`{"s": {key: value, ...}, "d": [key, ...]}` (set and deleted keys; `d` only when not empty), or
None for a step without a board."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One step: the action that led to it (none for step 0), in text and in words, and the board after it."""

    number: int
    text: str
    words: str
    actor: str
    """`company`, `movement`, `chance`, or `setup` for step 0."""
    heading: str
    """Where the game stood when the action was taken (`Round 3 · Company's Play Phase`)."""
    board: Board | None
    """None when the engine could not replay this step."""

    def to_json(self) -> list[Any]:
        return [self.text, self.words, self.actor, self.heading]


@dataclass(frozen=True, slots=True)
class Timeline:
    """Every step of a game from Set-Up, and what could not be replayed."""

    frames: tuple[Frame, ...]
    problem: str | None
    """Why the replay stopped early, or None when every action replayed."""
    final: GameState
    """The last state the engine reached."""


def heading_of(state: GameState) -> str:
    label = phase_label(state)
    return label if state.round == 0 else f"Round {state.round} · {label}"


def _words(state: GameState, action: Action) -> str:
    """The action in words; its text form when the state is one that the sentences cannot read.

    A report's trace may come from a deliberately broken engine whose states break what the
    sentences rely on (a card in two places, say); the page must still show that game.
    """
    try:
        return describe_action(state, action)
    except Exception:
        return str(action)


def timeline_of(game: Game, actions: tuple[Action, ...] | list[Action]) -> Timeline:
    """Replay `actions` from Set-Up through the checked engine, keeping every state's board."""
    state = engine.new_game(game)
    frames = [Frame(0, "", "The table at Set-Up, before the first chance event", "setup", "Set-Up",
                    board_of(state))]
    problem: str | None = None
    for number, action in enumerate(actions, start=1):
        side = actor_of(action)
        actor = "chance" if side is None else side.value
        if problem is not None:
            frames.append(Frame(number, str(action), str(action), actor, "not replayed", None))
            continue
        if state.outcome is not None or not engine.is_legal(state, action):
            if state.outcome is not None:
                why = f"it comes after the end of the game ({state.outcome.reason.value})"
            else:
                section, reason = engine.explain_illegal(state, action)
                why = f"{reason} [{section.value}]"
            problem = f"step {number}, {action}, does not replay in this engine: {why}"
            frames.append(Frame(number, str(action), str(action), actor, "not replayed", None))
            continue
        words = _words(state, action)
        heading = heading_of(state)
        try:
            with cpu_limit(f"step {number}, {action},"):
                state = engine.apply(state, action)
        except Exception as exc:  # a crashing or stuck step is what a no-crash report shows
            problem = f"step {number}, {action}, raised {type(exc).__name__} in this engine: {exc}"
            frames.append(Frame(number, str(action), words, actor, "not replayed", None))
            continue
        frames.append(Frame(number, str(action), words, actor, heading, board_of(state)))
    return Timeline(tuple(frames), problem, state)


_MISSING = object()


def encode_frames(boards: list[Board | None]) -> list[EncodedFrame]:
    """The first board whole, then each board as its changes from the last board before it."""
    encoded: list[EncodedFrame] = []
    previous: Board = {}
    for board in boards:
        if board is None:
            encoded.append(None)
            continue
        frame: dict[str, Any] = {"s": {k: v for k, v in board.items() if previous.get(k, _MISSING) != v}}
        gone = [k for k in previous if k not in board]
        if gone:
            frame["d"] = gone
        encoded.append(frame)
        previous = board
    return encoded


def decode_frames(encoded: list[EncodedFrame]) -> list[Board | None]:
    """The boards back from `encode_frames` (the page's script does the same)."""
    boards: list[Board | None] = []
    current: Board = {}
    for frame in encoded:
        if frame is None:
            boards.append(None)
            continue
        current = {k: v for k, v in current.items() if k not in frame.get("d", ())} | frame["s"]
        boards.append(current)
    return boards
