"""Writing files so that a reader never sees half of one: a temporary file, then `os.replace`.

The temporary file lives in the target's own directory, so the final rename never crosses file
systems and is atomic on POSIX and Windows alike. An interrupted write leaves at most a hidden
`.<name>.tmp-*` file behind, which the next write in that directory removes.

Files and directories get the permissions the process's umask gives newly created ones (the
temporaries are created private, as `tempfile` does, and opened up before they are renamed into
place), so that reports can be read by whoever may read the rest of the folder, e.g. a CI upload.
Two runs writing the same report at once both succeed: the second one's rename onto a directory
that the first one just created falls back to replacing the files one by one.
"""

from __future__ import annotations

import contextlib
import errno
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
            os.fchmod(handle.fileno(), 0o666 & ~current_umask())
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
        os.chmod(temp, 0o777 & ~current_umask())
        try:
            os.replace(temp, path)
        except OSError as exc:
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST) or not path.is_dir():
                raise
            # Another run wrote the same report between our check and our rename: replace its files.
            for name, text in files.items():
                atomic_write_text(path / name, text)
            _remove_tree(temp)
    except BaseException:
        _remove_tree(temp)
        raise


def current_umask() -> int:
    """The process's umask (read by setting it and putting it back: there is no other portable way)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


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
