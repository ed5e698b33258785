"""Settings profiles for the fuzzing machines: `ci`, `dev` and `nightly`.

A profile is Hypothesis settings plus how long `doubtspec fuzz` runs by default. `ci` is bounded
and deterministic (a fixed seed, a fixed number of examples) so that a green CI run means the same
thing every time; `dev` runs for a minute with a fresh seed; `nightly` runs for an hour with longer
games. All three keep their example database in `.hypothesis/` under the working directory, so a
failure found once is replayed first next time.

The profiles are also registered with Hypothesis as `doubtspec-ci`, `doubtspec-dev` and
`doubtspec-nightly` (`register`, called when the machines are loaded), for test modules (`fuzz/`) that load one by
name. Hypothesis itself is imported only when settings are made, so that the commands that name the profiles
without fuzzing (their help, `doubtspec solve`) start without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hypothesis import settings as HypothesisSettings
    from hypothesis.database import ExampleDatabase

DATABASE_DIR = Path(".hypothesis") / "examples"
"""Where the profiles keep Hypothesis's example database, relative to the working directory."""

SHRINK_SECONDS = 120.0
"""How long shrinking may take (wall seconds) in a run of a fixed number of examples, unless the profile says."""

PHASES = ("explicit", "reuse", "generate", "target", "shrink")
"""Hypothesis's phases the profiles run, by name: every phase but `explain`, whose extra replays cost more than the
notes they add to a trace."""


@dataclass(frozen=True, slots=True)
class Profile:
    """A named way to run the fuzzer: its Hypothesis settings and its default length."""

    name: str
    description: str
    steps: int
    """Rule calls per example (Hypothesis's `stateful_step_count`); each plays a stretch of about
    twenty decisions and the chance events between them, so forty cover a whole game."""
    examples: int | None
    """Examples to run by default (a bounded run), or None to run for `budget` seconds."""
    budget: float | None
    """Seconds to run by default, when `examples` is None."""
    seed: int | None
    """A fixed seed (deterministic runs), or None for a fresh one each run."""
    check_every: int = 1
    """How often the costly checks (`machines.SAMPLED`: purity, legality agreement and the what-ifs that
    re-run the engine on a changed state) run within an example: at their first chance in each example
    and every `check_every`-th one after. 1 checks every step."""
    costly_every: int = 1
    """How often the costliest of those checks (`machines.COSTLY`, each call worth many steps of the game) run: at
    their first chance in each example and every `costly_every`-th one after, where a check's chances are the
    states it applies to (a Movement turn, say). 1 checks each of those states."""
    oracle_every: int = 1
    """One example in `oracle_every` asks the solver's encoding about one of its steps (`oracle.solver`)."""
    corpus_share: float = 0.25
    """The chance that an example starts from a deep corpus prefix instead of Set-Up (`invariants.corpus`)."""
    ruling_share: float = 0.2
    """The share of a run, beside the default rulings, played under the ruling variants (`invariants.ruling_sweep`):
    with a fixed number of examples N, each of the variants plays N * share / (number of variants) more; with a
    time budget, the variants share that part of it. Only when no `--ruling` is chosen."""
    multiple_bugs: bool = True
    """Whether a run goes on after its first violation to find and shrink others (Hypothesis's
    `report_multiple_bugs`); without, the first one found is shrunk and the run ends."""
    shrink_seconds: float = SHRINK_SECONDS
    """How long shrinking may take (wall seconds) in a run of a fixed number of examples; a run with a time
    budget shrinks within what is left of it. Hypothesis's shrinker makes most of its gains in its first
    seconds (whole stretches of decisions dropped), so a short bound keeps both the exit and the trace short."""

    def settings(self, database: ExampleDatabase | str | None = "default", max_examples: int | None = None,
                 quiet: bool = True) -> HypothesisSettings:
        """Hypothesis settings for this profile; `database=None` runs without one (tests, mutants)."""
        from hypothesis import HealthCheck, Phase, Verbosity, settings
        from hypothesis.database import DirectoryBasedExampleDatabase

        db: ExampleDatabase | None
        if database == "default":
            db = DirectoryBasedExampleDatabase(str(DATABASE_DIR))
        else:
            db = None if database is None or isinstance(database, str) else database
        return settings(
            max_examples=max_examples or self.examples or 100,
            stateful_step_count=self.steps,
            deadline=None,
            database=db,
            derandomize=False,
            phases=[Phase[name] for name in PHASES],
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet if quiet else Verbosity.normal,
            print_blob=False,
            report_multiple_bugs=self.multiple_bugs,
        )


PROFILES: dict[str, Profile] = {
    "ci": Profile("ci", "bounded and deterministic: a fixed seed and a fixed number of examples",
                  steps=40, examples=600, budget=None, seed=0, check_every=4, costly_every=8,
                  oracle_every=20, corpus_share=0.0,
                  multiple_bugs=False, shrink_seconds=10.0),
    "dev": Profile("dev", "a minute of fuzzing with a fresh seed", steps=60, examples=None, budget=60.0, seed=None,
                   check_every=2, costly_every=4, oracle_every=3),
    "nightly": Profile("nightly", "an hour of fuzzing with long games", steps=120, examples=None, budget=3600.0,
                       seed=None),
}


def register() -> None:
    """Register the profiles with Hypothesis as `doubtspec-<name>` (the `ci` one derandomized)."""
    from hypothesis import settings

    for name, profile in PROFILES.items():
        base = profile.settings(max_examples=profile.examples or 1000)
        settings.register_profile(f"doubtspec-{name}", base, derandomize=name == "ci")
