"""The mutation run's helpers (fuzz/mutation): matching a mutant to its statement, and the stratified sample."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz" / "mutation"))

from reach import lines_by_file, statement_line
from run import _stratified

SOURCE = '''\
def f(x: int = 1,
      y: int = 2) -> int:
    if (x
            > y):
        return x + 1
    return y


@decorated(3)
def g() -> None:
    pass
'''


def test_a_position_matches_the_innermost_statement_and_its_first_line() -> None:
    tree = ast.parse(SOURCE)
    assert statement_line(tree, 5, 17) == 5  # `x + 1` in the return
    assert statement_line(tree, 4, 14) == 3  # the continued condition of the `if`
    assert statement_line(tree, 2, 15) == 1  # a default in the header: the `def`, run at import
    assert statement_line(tree, 9, 11) is None  # a decorator's argument: undecided, so the mutant is run


def test_the_stratified_sample_takes_each_module_in_proportion_and_at_least_five() -> None:
    jobs = {(module, "op", i): f"{module}-{i}" for module, count in (("a.py", 100), ("b.py", 20), ("c.py", 3))
            for i in range(count)}
    keep = _stratified(jobs, 30, seed=1)
    by_module = {m: sum(1 for j in keep if j.startswith(m)) for m in ("a.py", "b.py", "c.py")}
    assert len(keep) == 30 and by_module["c.py"] == 3 and by_module["b.py"] >= 5
    assert by_module["a.py"] > by_module["b.py"]
    assert _stratified(jobs, 30, seed=1) == keep


class _Measured:
    """What `lines_by_file` reads of coverage's `CoverageData` (coverage.py is installed with the mutation extra)."""

    def __init__(self, lines: dict[str, list[int]]) -> None:
        self._lines = lines

    def measured_files(self) -> list[str]:
        return list(self._lines)

    def lines(self, path: str) -> list[int]:
        return self._lines[path]


def test_a_module_the_run_never_imports_has_no_executed_lines(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    imported, never = package / "imported.py", package / "never.py"
    imported.write_text("x = 1\n")
    never.write_text("y = 2\n")
    executed = lines_by_file(_Measured({str(imported): [1]}), package)
    assert executed == {str(imported.resolve()): {1}, str(never.resolve()): set()}
