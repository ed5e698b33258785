"""Writing files so that a reader never sees half of one: a temporary file, then `os.replace`.

The temporary file lives in the target's own directory, so the final rename never crosses file
systems and is atomic on POSIX and Windows alike. An interrupted write leaves at most a hidden
`.<name>.tmp-*` file behind, which the next write in that directory removes.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path

TEMP_MARK = ".tmp-"


def atomic_write_text(path: Path, text: str) -> None:
    """Replace `path` with `text` in one step; the old content survives any interruption."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}{TEMP_MARK}")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def atomic_write_dir(path: Path, files: dict[str, str]) -> None:
    """Create directory `path` holding `files` (name -> text), all at once.

    The files are written into a hidden sibling directory that is then renamed to `path`, so the
    directory appears complete or not at all. If `path` already exists (the same report found
    again), each file is replaced on its own, atomically; files not named are left alone.
    """
    parent = path.parent
    parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(parent)
    if path.exists():
        for name, text in files.items():
            atomic_write_text(path / name, text)
        return
    temp = Path(tempfile.mkdtemp(dir=parent, prefix=f".{path.name}{TEMP_MARK}"))
    try:
        for name, text in files.items():
            atomic_write_text(temp / name, text)
        os.replace(temp, path)
    except BaseException:
        _remove_tree(temp)
        raise


STALE_AFTER = 600.0
"""Seconds after which a temporary is taken for the leftover of an interrupted write, not one in progress."""


def remove_stale_temporaries(directory: Path) -> None:
    """Remove what interrupted writes left in `directory` (hidden `.*.tmp-*` files and directories)."""
    if not directory.is_dir():
        return
    now = time.time()
    for entry in directory.iterdir():
        if entry.name.startswith(".") and TEMP_MARK in entry.name:
            with contextlib.suppress(OSError):
                if now - entry.stat().st_mtime > STALE_AFTER:
                    _remove_tree(entry)


def _remove_tree(path: Path) -> None:
    with contextlib.suppress(OSError):
        if path.is_dir():
            for child in path.iterdir():
                _remove_tree(child)
            path.rmdir()
        else:
            path.unlink()
