"""`doubtspec fuzz`, `doubtspec replay` and `doubtspec report`: find, replay and read rule violations.

Thin commands over `doubtspec.invariants.fuzzing`, `doubtspec.reports.replay` and
`doubtspec.reports.report`; Rich rendering lives here. Exit codes: 0 no violation, 1 a violation
(reports written, or found again by a replay), 2 bad input, 70 a bug in doubtspec (raised to
`doubtspec.cli.app.main`).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Group
from rich.live import Live
from rich.markdown import Markdown
from rich.panel import Panel
from rich.table import Table

from doubtspec import interrupts
from doubtspec.cli.common import (
    CardsOption,
    JsonOption,
    RulingOption,
    console,
    err_console,
    finite_seconds,
    load_game,
    seconds_since_start,
    text,
)
from doubtspec.cli.exitcodes import ExitCode
from doubtspec.errors import Interrupted, OptionError, TraceError
from doubtspec.inputs import check_writable_dir, check_writable_file
from doubtspec.invariants.catalog import BY_ID, CATALOG, Invariant, select
from doubtspec.invariants.profiles import PROFILES, SHRINK_SECONDS
from doubtspec.invariants.violation import Violation
from doubtspec.reports.atomic import atomic_write_text
from doubtspec.reports.replay import replay
from doubtspec.reports.report import (
    RunInfo,
    diff_states,
    invariant_kind,
    load_report,
    render_markdown,
    scan_reports,
    write_report,
)
from doubtspec.reports.trace import load_trace
from doubtspec.viewer.saved import write_report_page

if TYPE_CHECKING:
    # The fuzzer itself (Hypothesis, the machines) is loaded when a run starts, not with the command line: the
    # other commands (`solve`, `cards check`, a replay) start without it.
    from doubtspec.invariants.fuzzing import FuzzResult
    from doubtspec.invariants.machines import Recorder
    from doubtspec.invariants.ruling_sweep import SweepResult, VariantRun


class ProfileName(StrEnum):
    CI = "ci"
    DEV = "dev"
    NIGHTLY = "nightly"


BudgetOption = Annotated[float | None, typer.Option(
    "--budget", metavar="SECONDS",
    help="Fuzz for this many seconds in all, shrinking included (not with --examples).")]
ExamplesOption = Annotated[int | None, typer.Option(
    "--examples", metavar="N",
    help=f"Generate N examples (games from Set-Up), or fewer if one fails, and without --ruling "
         f"{PROFILES['ci'].ruling_share:.0%} more under the ruling variants; shrinking a failure then takes at "
         f"most the profile's bound more (ci {PROFILES['ci'].shrink_seconds:.0f} s, others {SHRINK_SECONDS:.0f} s; "
         f"not with --budget).")]
SeedOption = Annotated[int | None, typer.Option("--seed", metavar="N",
                                                help="Seed of the run (the ci profile's default is 0).")]
ProfileOption = Annotated[ProfileName, typer.Option("--profile", metavar="ci|dev|nightly",
                                                    help="Settings profile: ci, dev or nightly.")]
DatabaseOption = Annotated[str | None, typer.Option(
    "--database", metavar="DIR|none",
    help="Hypothesis's example database: a folder, or none. Default: none for the ci profile (the same examples "
         "every run), .hypothesis/examples for dev and nightly (a failure found once is replayed first).")]
InvariantOption = Annotated[list[str] | None, typer.Option(
    "--invariant", metavar="ID", help="Check only this invariant or group (e.g. tokens); repeatable.")]
ReportDirOption = Annotated[Path, typer.Option("--report-dir", metavar="DIR",
                                               help="Where violation reports are written (created at the start).",
                                               file_okay=False)]
JunitOption = Annotated[Path | None, typer.Option("--junit-xml", metavar="PATH",
                                                  help="Also write a JUnit XML summary here.", dir_okay=False)]
ListOption = Annotated[bool, typer.Option("--list", help="List the invariants and exit.")]
StepsOption = Annotated[int | None, typer.Option(
    "--steps", metavar="N", help="Rule calls per example (each plays a stretch of a game), overriding the profile.")]


class FuzzView:
    """The live view of a running fuzz: examples, steps per second, checks, elapsed time."""

    def __init__(self, recorder: Recorder, label: str) -> None:
        self.recorder = recorder
        self.label = label

    def __rich__(self) -> Panel:
        r = self.recorder
        elapsed = max(r.elapsed, 1e-9)
        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right", style="bold")
        table.add_column()
        table.add_row("examples", f"{r.examples:,}")
        table.add_row("games", f"{r.games:,}")
        table.add_row("engine steps", f"{r.steps:,} ({r.steps / elapsed:,.0f}/s)")
        table.add_row("invariants checked", f"{r.checks:,}")
        table.add_row("violations", f"{len(r.latest)}" + (" (shrinking)" if r.latest else ""))
        if interrupts.received() is not None:
            table.add_row("interrupted", "stopping")
        table.add_row("elapsed", f"{elapsed:,.1f} s")
        return Panel(table, title=f"doubtspec fuzz — {self.label}", expand=False)


def _list_invariants() -> None:
    table = Table(title=f"Invariants ({len(CATALOG)})")
    for column in ("id", "kind", "statement", "sections"):
        table.add_column(column, overflow="fold")
    for inv in CATALOG:
        sections = "\n".join(s.value for s in inv.sections)
        table.add_row(*map(text, (inv.id, invariant_kind(inv), inv.statement, sections)))
    console.print(table)


def _junit(path: Path, invariants: tuple[Invariant, ...], result: FuzzResult, reports: dict[str, Path]) -> None:
    failed = {v.invariant.id: v for v in result.violations}
    suite = ET.Element("testsuite", name="doubtspec fuzz", tests=str(len(invariants)), failures=str(len(failed)),
                       errors="0", time=f"{result.elapsed:.3f}")
    props = ET.SubElement(suite, "properties")
    for key, value in (("seed", result.seed), ("examples", result.examples), ("steps", result.steps)):
        ET.SubElement(props, "property", name=key, value=str(value))
    for inv in invariants:
        case = ET.SubElement(suite, "testcase", classname="doubtspec.invariants", name=inv.id, time="0")
        violation = failed.get(inv.id)
        if violation is not None:
            failure = ET.SubElement(case, "failure", message=violation.message, type="InvariantViolation")
            failure.text = (f"{inv.statement}\nsections: {'; '.join(s.value for s in inv.sections)}\n"
                            f"report: {reports.get(inv.id)}\ntrace ({len(violation.actions)} steps, "
                            f"{violation.decisions} decisions):\n"
                            + "\n".join(f"{i}. {a}" for i, a in enumerate(violation.actions, start=1)))
    root = ET.Element("testsuites")
    root.append(suite)
    atomic_write_text(path, ET.tostring(root, encoding="unicode") + "\n")


def _variants_table(variants: list[VariantRun]) -> Table:
    table = Table(title="Ruling variants (after the default rulings passed)")
    for column in ("rulings", "examples", "games", "engine steps", "elapsed", "result"):
        table.add_column(column, overflow="fold")
    for v in variants:
        table.add_row(text(v.rulings), f"{v.examples:,}", f"{v.games:,}", f"{v.steps:,}", f"{v.elapsed:,.1f} s",
                      "[red]violation[/]" if v.found else "[green]passed[/]")
    return table


def _summary(result: FuzzResult, invariants: tuple[Invariant, ...], reports: dict[str, Path],
             profile: str, variants: list[VariantRun]) -> Group:
    totals = Table(title="doubtspec fuzz", show_header=False)
    totals.add_column(style="bold")
    totals.add_column()
    for key, value in (("profile", profile), ("seed", str(result.seed)), ("examples", f"{result.examples:,}"),
                       ("games", f"{result.games:,}"), ("engine steps", f"{result.steps:,}"),
                       ("steps per second", f"{result.steps_per_second:,.0f}"),
                       ("invariants", f"{len(invariants)} selected, {result.checks:,} checks"),
                       ("database", result.database),
                       ("elapsed", f"{result.elapsed:,.1f} s")):
        totals.add_row(key, text(value))
    if result.violations:
        totals.add_row("shrinking", f"{result.shrink_seconds:,.1f} s" + (
            " [yellow](cut by the time bound: the traces are the shortest found so far)[/]"
            if result.shrink_cut else ""))
    parts: list[Any] = [totals]
    if variants:
        parts.append(_variants_table(variants))
    if result.violations:
        table = Table(title="Violations")
        for column in ("invariant", "step", "trace", "message", "report"):
            table.add_column(column, overflow="fold")
        for v in result.violations:
            table.add_row(text(v.invariant.id), str(v.step), f"{len(v.actions)} actions", text(v.message),
                          text(reports.get(v.invariant.id, "")))
        parts.append(table)
    else:
        checked = len(invariants) - len(result.not_checked)
        parts.append(f"[green]no violation[/] of {checked} invariants")
    parts.extend(_not_checked_lines(result.not_checked))
    return Group(*parts)


def _not_checked_lines(not_checked: dict[str, str]) -> list[str]:
    """One line per invariant that cannot check this card file or these rulings, with why."""
    return [f"[yellow]not checked:[/] [bold]{text(invariant)}[/] ({text(reason)})"
            for invariant, reason in not_checked.items()]


def _variants_json(sweep: SweepResult) -> list[dict[str, Any]]:
    return [{"rulings": v.rulings, "examples": v.examples, "games": v.games, "steps": v.steps,
             "elapsed": round(v.elapsed, 3), "violation": v.found} for v in sweep.variants]


def _database(value: str | None) -> Path | str | None:
    """The --database option: "default" (the profile's), None for "none", or a folder."""
    if value is None:
        return "default"
    if value.strip().lower() == "none":
        return None
    folder = Path(value)
    check_writable_dir(folder, field="--database")
    return folder


def _interrupted_summary(recorder: Recorder) -> str:
    found = len(recorder.latest)
    return (f"fuzzing stopped after {recorder.elapsed:,.1f} s: {recorder.games:,} games, {recorder.steps:,} "
            f"engine steps, {recorder.checks:,} checks"
            + (f"; {found} violation(s) seen but not shrunk" if found else "")
            + "; no report written, earlier reports untouched")


def fuzz(
    budget: BudgetOption = None,
    examples: ExamplesOption = None,
    seed: SeedOption = None,
    profile: ProfileOption = ProfileName.CI,
    cards: CardsOption = None,
    ruling: RulingOption = None,
    invariant: InvariantOption = None,
    report_dir: ReportDirOption = Path("reports"),
    junit_xml: JunitOption = None,
    as_json: JsonOption = False,
    steps: StepsOption = None,
    database: DatabaseOption = None,
    list_invariants: ListOption = False,
) -> None:
    """Play generated games through the engine, checking every invariant after every step.

    Exits 0 when nothing is violated and 1 when something is, with one report per broken invariant
    in the report directory (`doubtspec report` lists them, `doubtspec replay` replays them).
    Ctrl-C or SIGTERM stops the run (exit 130 or 143) without writing a report.
    """
    if list_invariants:
        _list_invariants()
        return
    if budget is not None and examples is not None:
        raise OptionError("give either --budget or --examples, not both", field="--budget")
    finite_seconds(budget, "--budget")
    if examples is not None and examples < 1:
        raise OptionError(f"expected at least one example, got {examples}", field="--examples")
    if steps is not None and steps < 1:
        raise OptionError(f"expected at least one step, got {steps}", field="--steps")
    game = load_game(cards, ruling)
    invariants = select(invariant)
    chosen = PROFILES[profile.value]
    # Everything that will be written is tried before any fuzzing, so a long run cannot end in an
    # error about where to put its findings.
    check_writable_dir(report_dir, field="--report-dir")
    if junit_xml is not None:
        check_writable_file(junit_xml, field="--junit-xml", create_folder=True)
    from doubtspec.invariants import derived
    from doubtspec.invariants.fuzzing import FuzzOptions
    from doubtspec.invariants.machines import Recorder
    from doubtspec.invariants.ruling_sweep import plays_variants, run_sweep

    if budget is not None:
        # "In all": the command's start-up (about a second: Python, Hypothesis, the card file) is part of it.
        budget = max(0.001, budget - (seconds_since_start() or 0.0))
    options = FuzzOptions(game, invariants, chosen, examples=examples, budget=budget, seed=seed, max_steps=steps,
                          database=_database(database))
    recorder = Recorder()
    label = f"{profile.value}, {game.cards.name} v{game.cards.version}, rulings: {game.rulings}"
    if plays_variants(options):
        label += " (then the ruling variants)"
    live = not as_json and console.is_terminal
    try:
        if live:
            with Live(FuzzView(recorder, text(label)), console=console, refresh_per_second=4, transient=True):
                sweep = run_sweep(options, recorder)
        else:
            if not as_json:
                console.print(f"doubtspec fuzz: {text(label)}", highlight=False)
            sweep = run_sweep(options, recorder)
    except KeyboardInterrupt:
        raise Interrupted(_interrupted_summary(recorder)) from None
    finally:
        # The run's records of the states and replays it met are dropped here, in a tenth of a second: left to
        # the interpreter's exit, they took 1 s more after a 10-second run and 2.6 s after a 30-second one.
        derived.forget()
    result = sweep.total
    run = RunInfo(profile.value, result.seed, None if cards is None else str(cards), result.shrink_cut)
    reports: dict[str, Path] = {}
    # The run is over: its findings are written whole, and a signal arriving meanwhile is too late
    # to stop anything (the summary is printed and the run ends as it would have).
    with interrupts.deferred():
        for violation in result.violations:
            reports[violation.invariant.id] = write_report(violation, run, report_dir)
        if junit_xml is not None:
            _junit(junit_xml, invariants, result, reports)
    if as_json:
        print(json.dumps({
            "status": "violation" if result.violations else "ok",
            "profile": profile.value, "seed": result.seed, "examples": result.examples, "games": result.games,
            "steps": result.steps, "steps_per_second": round(result.steps_per_second, 1), "checks": result.checks,
            "elapsed": round(result.elapsed, 3), "database": result.database,
            "invariants": [i.id for i in invariants],
            "not_checked": result.not_checked,
            "shrinking": {"seconds": round(result.shrink_seconds, 3), "cut": result.shrink_cut},
            "ruling_variants": _variants_json(sweep),
            "violations": [{"invariant": v.invariant.id, "message": v.message, "step": v.step,
                            "trace_length": len(v.actions), "report": str(reports[v.invariant.id])}
                           for v in result.violations],
        }, indent=2))
    else:
        console.print(_summary(result, invariants, reports, profile.value, sweep.variants))
    if result.violations:
        raise typer.Exit(ExitCode.VIOLATION)


# --- replay -----------------------------------------------------------------------------------

TraceArgument = Annotated[Path, typer.Argument(metavar="PATH",
                                               help="A report directory, report.json, or a trace file.")]
AllOption = Annotated[bool, typer.Option("--all", help="Check the whole catalog, not only the report's invariant.")]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Print only the outcome, not every step.")]


def _violation_view(violation: Violation) -> Group:
    inv = violation.invariant
    head = (f"[bold red]{text(inv.id)}[/] violated at step {violation.step} of a trace of {len(violation.actions)} "
            f"steps, {violation.decisions} of them decisions: {text(violation.message)}\n"
            f"{text(inv.statement)}\nsections: {text('; '.join(s.value for s in inv.sections))}")
    parts: list[Any] = [Panel(head, title="violation", expand=False)]
    if violation.probe is not None:
        parts.append(f"the illegal action [bold]{text(violation.probe)}[/] was accepted")
    if violation.before is not None:
        table = Table(title="what changed in the failing step")
        for column in ("field", "before", "after"):
            table.add_column(column, overflow="fold")
        for change in diff_states(violation.before, violation.after):
            table.add_row(text(change["field"]), text(json.dumps(change["before"])), text(json.dumps(change["after"])))
        parts.append(table)
    return Group(*parts)


def replay_cmd(
    path: TraceArgument,
    cards: CardsOption = None,
    invariant: InvariantOption = None,
    check_all: AllOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Replay a trace step by step from Set-Up, checking invariants; stop at the first violation.

    A report is checked against its own invariant (--all for the whole catalog), a plain trace
    against the whole catalog. Exits 1 when an invariant fails, 2 when the trace is malformed or
    does not replay, 0 otherwise.
    """
    trace = load_trace(path)
    report = load_report(Path(str(trace.source))) if trace.from_report else None
    if invariant:
        invariants = select(invariant)
    elif report is not None and not check_all:
        named = report["invariant"]["id"]
        if named not in BY_ID:
            raise TraceError(f"the report names the invariant {named!r}, which this version does not have "
                             "(give --all to check the whole catalog, or --invariant ID)",
                             path=trace.source, field="invariant.id")
        invariants = select([named])
    else:
        invariants = CATALOG
    printing = not quiet and not as_json

    def show(step: int, action: object, state: Any) -> None:
        console.print(f"{step:>4}  {text(action):<36} round {state.round}, {state.phase.value}", highlight=False)

    result = replay(trace, invariants, cards, probe=None if report is None else report.get("probe"),
                    on_step=show if printing else None)
    if result.warning and not as_json:
        err_console.print(f"[yellow]warning:[/] {text(result.warning)}", highlight=False)
    violation = result.violation
    if as_json:
        print(json.dumps({
            "status": "violation" if violation else "ok", "steps": result.applied, "trace_length": len(result.actions),
            "invariants": [i.id for i in invariants], "not_checked": result.not_checked, "warning": result.warning,
            "violation": None if violation is None else {"invariant": violation.invariant.id,
                                                         "message": violation.message, "step": violation.step},
        }, indent=2))
    elif violation is None:
        checked = len(invariants) - len(result.not_checked)
        console.print(f"[green]replayed {result.applied} steps:[/] no violation of {checked} invariants"
                      + (f" (outcome: {result.final.outcome.reason.value})" if result.final.outcome else ""),
                      highlight=False)
        for line in _not_checked_lines(result.not_checked):
            console.print(line, highlight=False)
    else:
        console.print(_violation_view(violation))
    if violation is not None:
        raise typer.Exit(ExitCode.VIOLATION)


# --- report -----------------------------------------------------------------------------------

ReportPathArgument = Annotated[Path | None, typer.Argument(
    metavar="[PATH]", help="A reports directory to list (default reports/), or one report to render.")]
ShowOption = Annotated[str | None, typer.Option("--show", metavar="NAME",
                                                help="Render this report of the list (a name or its number).")]
HtmlOption = Annotated[bool, typer.Option("--html", help="Write the report's report.html (the board at every step) "
                                                         "beside its report.json, replayed with this engine; with "
                                                         "a directory, for every report in it.")]


def report_cmd(path: ReportPathArgument = None, show: ShowOption = None, as_json: JsonOption = False,
               html: HtmlOption = False) -> None:
    """List the violation reports in a directory, or render one.

    A folder in the directory that is not a readable report is listed with the reason, and the
    command then exits 2.
    """
    target = path if path is not None else Path("reports")
    if not target.exists():
        if path is None:
            console.print("no reports (reports/ does not exist)")
            return
        raise OptionError("no such report or directory", path=target, field="path")
    single = not target.is_dir() or (target / "report.json").exists()
    if single:
        _render(load_report(target), as_json, target if html else None)
        return
    found, broken = scan_reports(target)
    for _entry, problem in broken:
        err_console.print(f"[bold red]error:[/] {text(problem.describe())} (not listed)", highlight=False,
                          soft_wrap=True)
    if html and show is None:
        for entry, _ in found:
            (err_console if as_json else console).print(f"written: {text(write_report_page(entry))}", highlight=False)
    if show is not None:
        for number, (entry, data) in enumerate(found, start=1):
            if show in (entry.name, str(number)):
                _render(data, as_json, entry if html else None)
                break
        else:
            raise OptionError(f"no readable report {show!r} in {target}", field="--show")
    elif as_json:
        print(json.dumps([{"name": e.name, "path": str(e), "invariant": d["invariant"]["id"], "step": d["step"],
                           "trace_length": len(d["trace"]["actions"]), "message": d["message"],
                           "created": d.get("created")} for e, d in found]
                         + [{"name": e.name, "path": str(e), "error": problem.describe()} for e, problem in broken],
                         indent=2))
    elif not found:
        console.print(f"no reports in {text(target)}", highlight=False)
    else:
        table = Table(title=f"Reports in {text(target)}")
        for column in ("#", "report", "invariant", "trace", "message", "created"):
            table.add_column(column, overflow="fold")
        for number, (entry, data) in enumerate(found, start=1):
            table.add_row(str(number), text(entry.name), text(data["invariant"]["id"]),
                          f"{len(data['trace']['actions'])} steps", text(data["message"]),
                          text(data.get("created", "")))
        console.print(table)
        console.print("render one with [bold]doubtspec report DIR --show NAME[/]", highlight=False)
    if broken:
        raise typer.Exit(ExitCode.BAD_INPUT)


def _render(data: dict[str, Any], as_json: bool, html_for: Path | None = None) -> None:
    if as_json:
        print(json.dumps(data, indent=2))
    else:
        console.print(Markdown(render_markdown(data)))  # Markdown text is not Rich markup: nothing to escape
    if html_for is not None:
        page = write_report_page(html_for)
        (err_console if as_json else console).print(f"written: {text(page)}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("fuzz")(fuzz)
    app.command("replay")(replay_cmd)
    app.command("report")(report_cmd)



