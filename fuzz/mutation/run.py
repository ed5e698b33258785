"""Mutation testing of the engine with cosmic-ray, measured by `doubtspec fuzz --profile ci`.

Settings come from `[tool.doubtspec.mutation]` in pyproject.toml (the modules to mutate, the sample
size and seed, the time limit per mutant); the command line overrides them. The run:

1. writes a cosmic-ray configuration whose test command is `kill.py` (the ci fuzz run, cut at the
   time limit) and lets `cosmic-ray init` list every mutant of the modules;
2. keeps a seeded random sample of them (the others are marked skipped in the session), since a
   fuzz run per mutant is too slow for all of them on a shared machine;
3. runs `cosmic-ray exec` (one mutant at a time, on one core);
4. writes `summary.json` and `summary.md` beside the session: the mutation score of the sample and,
   per mutant, its verdict, the seconds to the fuzzer's exit (wall and CPU), the invariants that
   fired and the shrunk trace's length in decisions and steps.

    pip install -e '.[dev,mutation]'
    python fuzz/mutation/run.py --out mutation-run [--sample 80] [--seed 13] [--limit 60]

Run it from the repository root; the mutants are written into `src/doubtspec/model/` one at a time
and restored by cosmic-ray, so do not edit the engine while it runs. `--summarize` rewrites the
summary of an existing session without running anything.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MARKER = "DOUBTSPEC-MUTANT "
MIN_PER_MODULE = 5
"""A stratified sample takes at least this many mutants from each module (all of a smaller one)."""
SAFETY_NET = 86400.0
"""cosmic-ray's wall limit per mutant, for a `kill.py` that hangs itself: a day. kill.py stops the fuzzer at
its CPU limit or when it is stuck, so a wall limit near the CPU limit would only cut a fuzzer starved by
other work on a loaded machine, and turn a survivor into a timeout."""


def settings() -> dict[str, Any]:
    """`[tool.doubtspec.mutation]` from pyproject.toml."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return dict(data["tool"]["doubtspec"]["mutation"])


def _config(module_path: str, limit: float, excluded: list[str]) -> str:
    kill = HERE / "kill.py"
    lines = [
        "[cosmic-ray]",
        f'module-path = "{module_path}"',
        f"timeout = {max(SAFETY_NET, 10 * limit + 60.0)}",
        f"excluded-modules = {json.dumps(excluded)}",
        f'test-command = "{sys.executable} {kill} {limit}"',
        "",
        "[cosmic-ray.distributor]",
        'name = "local"',
        "",
    ]
    return "\n".join(lines)


def _identity(item: Any) -> tuple[str, str, int]:
    """A mutant's name that outlives its session: module, operator and occurrence (job ids are random)."""
    mutation = item.mutations[0]
    return str(mutation.module_path), str(mutation.operator_name), int(mutation.occurrence)


def _completed(session: Path) -> set[tuple[str, str, int]]:
    """The mutants another session ran (not skipped), to run the same ones again."""
    from cosmic_ray.work_db import WorkDB, use_db

    with use_db(str(session), WorkDB.Mode.open) as db:
        items = {item.job_id: item for item in db.work_items}
        return {_identity(items[job]) for job, result in db.results if result.worker_outcome != "skipped"}


def _sampled(session: Path) -> set[tuple[str, str, int]]:
    """The mutants another session measured or will measure when resumed: every one it did not skip.

    A session still running has sampled mutants with no result yet; leaving out only those with a result let a
    sample drawn beside a running one repeat its pending mutants (the twelfth sample repeated 28 of the eleventh).
    """
    from cosmic_ray.work_db import WorkDB, use_db

    with use_db(str(session), WorkDB.Mode.open) as db:
        skipped = {job for job, result in db.results if result.worker_outcome == "skipped"}
        return {_identity(item) for item in db.work_items if item.job_id not in skipped}


def _stratified(by_identity: dict[tuple[str, str, int], str], size: int, seed: int) -> set[str]:
    """A seeded sample of `size` jobs drawn module by module: each module's share is proportional to its
    mutants (largest remainders), with at least `MIN_PER_MODULE` from each (or all it has)."""
    modules: dict[str, list[str]] = {}
    for key in sorted(by_identity):
        modules.setdefault(key[0], []).append(by_identity[key])
    total = sum(len(jobs) for jobs in modules.values())
    floor = {m: min(len(jobs), MIN_PER_MODULE) for m, jobs in modules.items()}
    spare = max(0, size - sum(floor.values()))
    rest = {m: len(jobs) - floor[m] for m, jobs in modules.items()}
    rest_total = sum(rest.values()) or 1
    exact = {m: spare * rest[m] / rest_total for m in modules}
    share = {m: floor[m] + int(exact[m]) for m in modules}
    for m in sorted(modules, key=lambda m: exact[m] - int(exact[m]), reverse=True)[:size - sum(share.values())]:
        share[m] += 1
    rng = random.Random(seed)
    keep: set[str] = set()
    for m in sorted(modules):
        keep |= set(rng.sample(modules[m], min(share[m], len(modules[m]))))
    assert total >= len(keep)
    return keep


def draw(by_identity: dict[tuple[str, str, int], str], size: int, seed: int, stratify: bool = False,
         besides: tuple[int, ...] = (), measured: frozenset[tuple[str, str, int]] = frozenset(),
         chain: bool = False) -> set[str]:
    """The jobs of a seeded sample of `size` (`_stratified` or uniform), after leaving out the mutants
    `measured` names and those of the samples that the seeds in `besides` draw with the same size and kind.

    Each seed in `besides` is drawn from the whole pool, not as its own run drew it: a sample that was itself
    drawn besides earlier seeds is not reproduced, and the new sample may repeat some of its mutants (seed 1210
    besides 1201-1209 shares 14 of its first 108 with seed 1209's run). The same command line still draws the
    same sample, which is what `besides` is kept for; to leave out exactly what earlier runs sampled (measured or
    still pending), give their sessions (`measured`, `--besides-session`). With `chain` each seed in `besides` is
    drawn as its own run drew it, besides the seeds before it in the list: the samples 1201-1210 were run that
    way, one after another, so `chain` with those seeds in order leaves out all of them (on unchanged code). A
    sample that was itself drawn besides sessions cannot be redrawn from its seed: give its session."""

    def one(pool: dict[tuple[str, str, int], str], seed: int) -> set[str]:
        if stratify:
            return _stratified(pool, size, seed)
        chosen = [pool[key] for key in sorted(pool)]
        return set(random.Random(seed).sample(chosen, min(size, len(chosen))))

    pool = {key: job for key, job in by_identity.items() if key not in measured}
    for index, earlier in enumerate(besides):
        taken = draw(by_identity, size, earlier, stratify, besides[:index]) if chain else one(by_identity, earlier)
        pool = {key: job for key, job in pool.items() if job not in taken}
    return one(pool, seed)


def sample(session: Path, size: int, seed: int, same_as: Path | None = None, stratify: bool = False,
           only: frozenset[str] = frozenset(), besides: tuple[int, ...] = (),
           besides_sessions: tuple[Path, ...] = (), chain: bool = False) -> int:
    """Mark all but a seeded random sample of the session's mutants as skipped; returns the total.

    The sample is drawn over the mutants' identities, so the same seed picks the same mutants of the
    same code in every session; with `stratify` it is drawn module by module (`_stratified`);
    `same_as` picks instead the mutants another session ran, and `only` the mutants it names
    (`engine.py:core/NumberReplacer:50`: module file, operator, occurrence). `besides` names the seeds of
    earlier samples of the same size and kind, and `besides_sessions` earlier sessions: their mutants are left
    out first (see `draw`: only the sessions leave out exactly what was measured).
    """
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        by_identity = {_identity(item): item.job_id for item in db.work_items}
        jobs = [by_identity[key] for key in sorted(by_identity)]
        if only:
            keep = {job for (module, operator, occurrence), job in by_identity.items()
                    if f"{Path(module).name}:{operator}:{occurrence}" in only}
        elif same_as is not None:
            wanted = _completed(same_as)
            keep = {job for key, job in by_identity.items() if key in wanted}
        else:
            measured = frozenset().union(*(_sampled(path) for path in besides_sessions))
            keep = draw(by_identity, size, seed, stratify, besides, measured, chain)
        db.set_multiple_results([j for j in jobs if j not in keep],
                                WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="not sampled"))
        return len(jobs)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def summarize(out: Path, total: int | None = None) -> dict[str, Any]:
    """Read the session back and write summary.json and summary.md."""
    from cosmic_ray.work_db import WorkDB, use_db

    session = out / "session.sqlite"
    rows: list[dict[str, Any]] = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        items = {item.job_id: item for item in db.work_items}
        total = total or len(items)
        for job_id, result in db.results:
            if result.worker_outcome == "skipped":
                continue
            item = items[job_id]
            mutation = item.mutations[0]
            record: dict[str, Any] = {"verdict": "error", "worker": str(result.worker_outcome)}
            for line in (result.output or "").splitlines():
                if line.startswith(MARKER):
                    record = json.loads(line[len(MARKER):])
            if result.output == "timeout":
                record = {"verdict": "timeout"}
            record.update(job=job_id, module=str(mutation.module_path), operator=mutation.operator_name,
                          occurrence=mutation.occurrence, line=mutation.start_pos[0],
                          diff=result.diff or "")
            rows.append(record)
    rows.sort(key=lambda r: (r["module"], r["line"], r["operator"], r["occurrence"]))
    detected = [r for r in rows if r["verdict"] in ("killed", "crashed")]
    killed = [r for r in rows if r["verdict"] == "killed"]
    decisions = [int(r["decisions"]) for r in killed if "decisions" in r]

    def spread(values: list[float]) -> dict[str, float | None]:
        return {"median": statistics.median(values) if values else None, "p90": _percentile(values, 0.9),
                "max": max(values, default=None)}

    summary = {
        "mutants": total, "sampled": len(rows), "detected": len(detected), "killed": len(killed),
        "crashed": len(detected) - len(killed),
        "survived": sum(1 for r in rows if r["verdict"] == "survived"),
        "unreached": sum(1 for r in rows if r["verdict"] == "unreached"),
        "annotation": sum(1 for r in rows if r["verdict"] == "annotation"),
        "timeout": sum(1 for r in rows if r["verdict"] == "timeout"),
        "score": round(len(detected) / len(rows), 3) if rows else None,
        # Seconds to the fuzzer's exit (CPU, and wall on this machine), over the mutants an invariant killed.
        "cpu_to_exit": spread([float(r["cpu"]) for r in killed if "cpu" in r]),
        "wall_to_exit": spread([float(r["wall"]) for r in killed if "wall" in r]),
        "decisions": {"median": statistics.median(decisions) if decisions else None,
                      "p90": _percentile([float(d) for d in decisions], 0.9), "max": max(decisions, default=None)},
        "by_module": {m: {v: sum(1 for r in rows if Path(r["module"]).name == m and r["verdict"] == v)
                          for v in ("killed", "crashed", "survived", "unreached", "annotation", "timeout", "error")}
                      for m in sorted({Path(r["module"]).name for r in rows})},
        "rows": rows,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    lines = [f"Sample of {len(rows)} of {total} mutants: {len(detected)} detected "
             f"({len(killed)} by an invariant, {summary['crashed']} crashed the command), "
             f"{summary['survived']} survived a whole ci run, {summary['unreached']} survived unreached (not "
             f"run: the ci run never executes them), {summary['annotation']} survived in an annotation "
             f"(not run: never evaluated), {summary['timeout']} not killed within the limit.", "",
             "| module | line | operator | verdict | wall s | cpu s | decisions | steps | invariants |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {Path(r['module']).name} | {r['line']} | {r['operator'].split('/')[-1]} "
                     f"({r['occurrence']}) | {r['verdict']} | {r.get('wall', '')} | {r.get('cpu', '')} | "
                     f"{r.get('decisions', '')} | {r.get('steps', '')} | {' '.join(r.get('invariants', []))} |")
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    return summary


def main() -> int:
    defaults = settings()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the session and the summary")
    parser.add_argument("--sample", type=int, default=int(defaults["sample"]))
    parser.add_argument("--seed", type=int, default=int(defaults["seed"]))
    parser.add_argument("--limit", type=float, default=float(defaults["limit"]),
                        help="CPU seconds per mutant before it counts as not killed")
    parser.add_argument("--module-path", default=str(defaults["module-path"]))
    parser.add_argument("--same-as", type=Path, help="run the mutants another session ran (its session.sqlite)")
    parser.add_argument("--only", action="append", default=[], metavar="FILE:OPERATOR:OCCURRENCE",
                        help="run only this mutant, e.g. engine.py:core/NumberReplacer:50 (repeatable)")
    parser.add_argument("--besides-session", type=Path, action="append", default=[], metavar="SESSION",
                        help="leave out every mutant an earlier session sampled, measured or still pending (its "
                             "session.sqlite; repeatable)")
    parser.add_argument("--besides-chain", action="store_true",
                        help="each --besides seed was itself drawn besides the seeds before it: leave out its "
                             "sample as drawn then")
    parser.add_argument("--besides", type=int, action="append", default=[], metavar="SEED",
                        help="leave out the mutants of an earlier sample (its seed; same --sample and --stratify)")
    parser.add_argument("--stratify", action="store_true",
                        help="draw the sample module by module, in proportion (at least five from each)")
    parser.add_argument("--skip-unreached", action="store_true",
                        help="record mutants the unmutated ci run never executes (unreached) or that lie in an "
                             "annotation nothing evaluates (annotation) as survived without running them (one coverage "
                             "run instead; see reach.py)")
    parser.add_argument("--resume", action="store_true",
                        help="go on with the session in --out: record what --skip-unreached finds among its pending "
                             "mutants (without a new coverage run) and run the rest")
    parser.add_argument("--summarize", action="store_true", help="only rewrite the summary of --out")
    args = parser.parse_args()
    out: Path = args.out
    if args.summarize:
        summarize(out)
        return 0
    cosmic_ray = str(Path(sys.executable).parent / "cosmic-ray")
    if args.resume:
        from reach import record_unreached

        if args.skip_unreached:
            record_unreached(out / "session.sqlite", ROOT / args.module_path, out, MARKER, measure=False)
        subprocess.run([cosmic_ray, "exec", str(out / "cosmic-ray.toml"), str(out / "session.sqlite")], check=True,
                       cwd=ROOT)
        summary = summarize(out)
        print(json.dumps({k: v for k, v in summary.items() if k != "rows"}, indent=1))
        return 0
    out.mkdir(parents=True, exist_ok=True)
    config = out / "cosmic-ray.toml"
    config.write_text(_config(args.module_path, args.limit, list(defaults.get("excluded-modules", []))))
    session = out / "session.sqlite"
    session.unlink(missing_ok=True)
    subprocess.run([cosmic_ray, "init", str(config), str(session)], check=True, cwd=ROOT)
    total = sample(session, args.sample, args.seed, args.same_as, stratify=args.stratify, only=frozenset(args.only),
                   besides=tuple(args.besides), besides_sessions=tuple(args.besides_session),
                   chain=args.besides_chain)
    if args.skip_unreached:
        from reach import record_unreached

        skipped = record_unreached(session, ROOT / args.module_path, out, MARKER)
        print(f"{skipped} sampled mutants are not reached by the unmutated ci run: recorded as survived")
    subprocess.run([cosmic_ray, "exec", str(config), str(session)], check=True, cwd=ROOT)
    summary = summarize(out, total)
    print(json.dumps({k: v for k, v in summary.items() if k != "rows"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
