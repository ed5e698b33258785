"""The input boundary: every file doubtspec reads from a user goes through here.

Card files, traces and reports are read with `read_text`, which refuses what is not a regular
file (a FIFO, a device, a socket: opened without blocking and refused before any read), files
larger than a limit, and bytes that are not UTF-8, each with an `InputError` naming the file and,
where it helps, the line. Structured files are parsed with `parse_json` and `parse_toml`, which
refuse absurd nesting (a `RecursionError` deep in a parser, or a structure deeper than any
doubtspec file needs) the same way. Files doubtspec is about to write (reports, JUnit summaries,
witnesses) are pre-flighted with `check_writable_dir` and `check_writable_file` before any work,
so that a long run never ends in an error it could have reported at the start.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from doubtspec.errors import InputError

MAX_BYTES = 16 * 1024 * 1024
"""The largest file read (16 MiB): far beyond any card file, trace or report doubtspec writes."""

MAX_DEPTH = 64
"""The deepest nesting of tables, arrays and objects accepted (doubtspec's own files need five)."""

ErrorType = Callable[..., InputError]


def read_text(path: Path | str, *, error: ErrorType = InputError, what: str = "file",
              max_bytes: int | None = None) -> str:
    """The text of a regular UTF-8 file, or `error` naming the file (and line) of the problem.

    The file is opened without blocking, so a FIFO with no writer is refused at once instead of
    hanging; a byte-order mark is accepted and dropped.
    """
    path = Path(path)
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise error(f"cannot read {what}: {exc.strerror or exc}", path=path) from exc
    except ValueError as exc:  # a NUL character in the path
        raise error(f"cannot read {what}: {exc}", path=repr(str(path))) from exc
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise error(f"cannot read {what}: it is a directory", path=path)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"cannot read {what}: not a regular file ({_kind_of(info.st_mode)})", path=path)
        if info.st_size > max_bytes:
            raise error(f"{what} too large: {info.st_size:,} bytes (the limit is {max_bytes:,})", path=path)
        chunks: list[bytes] = []
        size = 0
        while True:  # a file that grows while being read is cut off at the limit, not read forever
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > max_bytes:
                raise error(f"{what} too large: more than {max_bytes:,} bytes", path=path)
            chunks.append(chunk)
    except OSError as exc:
        raise error(f"cannot read {what}: {exc.strerror or exc}", path=path) from exc
    finally:
        os.close(fd)
    return decode(b"".join(chunks), path, error=error, what=what)


def decode(data: bytes, path: Path | str, *, error: ErrorType = InputError, what: str = "file") -> str:
    """`data` as UTF-8 text (a leading byte-order mark dropped); refuses other encodings and NUL bytes."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise error(f"{what} is not UTF-8 text (byte {exc.start + 1}: {data[exc.start:exc.start + 1]!r})",
                    path=path, line=line) from exc
    nul = text.find("\0")
    if nul >= 0:
        raise error(f"{what} is not text (a NUL character)", path=path, line=text.count("\n", 0, nul) + 1)
    return text


def _kind_of(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a file"


def depth_of(value: object) -> int:
    """How deeply `value` nests lists and dicts (a scalar is 0); iterative, so any depth is safe."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth + 1)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _check_depth(value: object, path: Path | str, error: ErrorType, what: str) -> None:
    if depth_of(value) > MAX_DEPTH:
        raise error(f"{what} nests more than {MAX_DEPTH} levels deep", path=path)


def parse_json(text: str, path: Path | str, *, error: ErrorType = InputError, what: str = "file") -> Any:
    """Parsed JSON; refuses malformed JSON (naming the line), NaN/Infinity and absurd nesting."""

    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    try:
        data = json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON: {exc.msg}", path=path, line=exc.lineno) from exc
    except ValueError as exc:
        raise error(f"not valid JSON: {exc}", path=path) from exc
    except RecursionError as exc:
        raise error(f"{what} nests too deeply to read", path=path) from exc
    _check_depth(data, path, error, what)
    return data


def parse_toml(text: str, path: Path | str, *, error: ErrorType = InputError, what: str = "file") -> dict[str, Any]:
    """Parsed TOML; refuses malformed TOML (naming the line) and absurd nesting."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        raise error(f"not valid TOML: {exc}", path=path,
                    line=line if isinstance(line, int) else _line_in_message(str(exc))) from exc
    except RecursionError as exc:
        raise error(f"{what} nests too deeply to read", path=path) from exc
    _check_depth(data, path, error, what)
    return data


def _line_in_message(message: str) -> int | None:
    marker = "line "
    at = message.rfind(marker)
    digits = ""
    for char in message[at + len(marker):] if at >= 0 else "":
        if not char.isdigit():
            break
        digits += char
    return int(digits) if digits else None


# --- pre-flight checks for files about to be written ---------------------------------------------


def check_writable_dir(directory: Path, *, field: str) -> None:
    """Create `directory` if needed and prove it writable with a probe file, or raise `InputError`."""
    if directory.exists() and not directory.is_dir():
        raise InputError("not a directory", path=directory, field=field)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=directory, prefix=".doubtspec-write-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise InputError(f"cannot write here: {exc.strerror or exc}", path=directory, field=field) from exc


def check_writable_file(path: Path, *, field: str, create_folder: bool = False) -> None:
    """Prove that `path` can be (re)written atomically: its folder exists (or is created, with
    `create_folder`) and takes a probe file; raises `InputError` naming the option otherwise."""
    if path.is_dir():
        raise InputError("is a directory, not a file", path=path, field=field)
    with contextlib.suppress(OSError):
        if path.exists() and not path.is_file():
            raise InputError("not a regular file", path=path, field=field)
    parent = path.parent if str(path.parent) else Path(".")
    if create_folder and not parent.exists():
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create its folder: {exc.strerror or exc}", path=path, field=field) from exc
    if not parent.is_dir():
        raise InputError(f"the folder {parent} does not exist", path=path, field=field)
    try:
        fd, probe = tempfile.mkstemp(dir=parent, prefix=".doubtspec-write-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise InputError(f"cannot write here: {exc.strerror or exc}", path=path, field=field) from exc
