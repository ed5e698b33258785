"""`doubtspec simulate` and `doubtspec play`: whole games for designers, in bulk or one at a time."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.rule import Rule
from rich.table import Table

from doubtspec.agents.base import AGENTS, Matchup
from doubtspec.agents.simulate import DEFAULT_MAX_ROUNDS, SimulationStats, iter_game, simulate
from doubtspec.cli.common import CardsOption, JsonOption, RulingOption, console, err_console, load_game, text
from doubtspec.cli.render import outcome_text, render_state
from doubtspec.describe import describe_moves
from doubtspec.errors import Interrupted, OptionError
from doubtspec.inputs import check_writable_file
from doubtspec.model.actions import Action
from doubtspec.model.engine import legal_actions, new_game
from doubtspec.model.state import Actor, GameState, OutcomeReason, Phase
from doubtspec.viewer.document import document_for_game
from doubtspec.viewer.page import write_page

AgentsOption = Annotated[
    str | None,
    typer.Option("--agents", help=f"Who plays each side, company=NAME,movement=NAME (NAME: {', '.join(AGENTS)}); "
                                  "a bare NAME sets both. Default: greedy for both."),
]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed of the game (play) or of the whole run (simulate).")]
MaxRoundsOption = Annotated[
    int, typer.Option("--max-rounds", help="Cut a game off after this many rounds and count it as unfinished."),
]


def _check_rounds(max_rounds: int) -> None:
    if max_rounds < 1:
        raise OptionError(f"the round cap must be at least 1, got {max_rounds}", field="--max-rounds")


def simulate_command(
    games: Annotated[int, typer.Option("--games", help="Number of games to play.")] = 100,
    seed: SeedOption = 0,
    workers: Annotated[int, typer.Option("--workers", help="Processes to share the games (0: one per core); "
                                                           "the figures do not depend on it.")] = 1,
    agents: AgentsOption = None,
    max_rounds: MaxRoundsOption = DEFAULT_MAX_ROUNDS,
    cards: CardsOption = None,
    ruling: RulingOption = None,
    as_json: JsonOption = False,
) -> None:
    """Play many seeded games and show who wins, how, and how long games last."""
    if games < 1:
        raise OptionError(f"expected at least one game, got {games}", field="--games")
    if workers < 0:
        raise OptionError(f"expected 0 (one per core) or more workers, got {workers}", field="--workers")
    _check_rounds(max_rounds)
    matchup = Matchup.parse(agents)
    game = load_game(cards, ruling)
    started = time.perf_counter()
    played = 0

    def advance(count: int) -> None:
        nonlocal played
        played += count
        progress.advance(task, count)

    # The bar goes to stderr so that --json output stays clean on stdout.
    try:
        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err_console, transient=True) as progress:
            task = progress.add_task("games", total=games)
            stats = simulate(game, games, seed, matchup, workers=workers, max_rounds=max_rounds, progress=advance)
    except KeyboardInterrupt:
        raise Interrupted(f"{played} of {games} games played in {time.perf_counter() - started:.1f} s; "
                          "no figures printed") from None
    elapsed = time.perf_counter() - started
    if as_json:
        console.print_json(data=stats.to_json())
        return
    _print_stats(stats, elapsed, workers)


def _share(count: int, total: int) -> str:
    return f"{100 * count / total:.1f}%" if total else "-"


def _print_stats(stats: SimulationStats, elapsed: float, workers: int) -> None:
    total = stats.games
    console.print(f"[bold]{total} games[/] · seed {stats.seed} · {text(stats.matchup)} · {text(stats.cards)} · "
                  f"rulings {text(stats.rulings)} · cap {stats.max_rounds} rounds", highlight=False)
    outcomes = Table(title="Outcomes", title_justify="left")
    for column in ("winner", "reason", "games", "share"):
        outcomes.add_column(column, justify="right" if column in ("games", "share") else "left")
    for side, count in stats.wins_by_side().items():
        outcomes.add_row(f"[bold]{side}[/]", "all", str(count), _share(count, total))
    for reason, count in stats.wins_by_reason().items():
        outcomes.add_row(OutcomeReason(reason).winner.value, reason, str(count), _share(count, total))
    for label, results in (("unfinished", stats.unfinished()), ("stuck", stats.stuck()), ("error", stats.errors())):
        if results:
            outcomes.add_row("[red]none[/]", f"[red]{label}[/]", str(len(results)), _share(len(results), total))
    console.print(outcomes)
    lengths = Table(title="Game length (finished games)", title_justify="left")
    lengths.add_column("measure")
    rounds, reshuffles = stats.rounds(), stats.reshuffles()
    for name in rounds:
        lengths.add_column(name, justify="right")
    lengths.add_row("rounds", *(str(v) for v in rounds.values()))
    lengths.add_row("reshuffles", *(str(v) for v in reshuffles.values()))
    console.print(lengths)
    reached = Table(title="Reached by the end of the game (games)", title_justify="left")
    reached.add_column("measure")
    reached.add_column("distribution (value: games)")
    reached.add_row("Company stars", _histogram(stats.histogram("stars")))
    reached.add_row("Movement Goals achieved", _histogram(stats.histogram("goals")))
    reached.add_row("Movement Goal points", _histogram(stats.histogram("points")))
    console.print(reached)
    for label, results in (("Unfinished", stats.unfinished()), ("Stuck", stats.stuck()), ("Failed", stats.errors())):
        if results:
            shown = ", ".join(f"#{r.index} seed {r.seed}" for r in results[:10])
            console.print(f"[red]{label}: {len(results)}[/] ({shown}{' ...' if len(results) > 10 else ''}); "
                          f"replay one with `doubtspec play --seed SEED --agents {stats.matchup}`", highlight=False)
            for r in results[:3]:
                if r.error:
                    console.print(f"  seed {r.seed}: {text(r.error)}", highlight=False)
    rate = total / elapsed if elapsed > 0 else float("inf")
    console.print(f"[dim]{elapsed:.2f} s, {rate:.0f} games/s with {workers or 'all'} worker(s)[/]")


def _histogram(counts: dict[str, int]) -> str:
    return "  ".join(f"{value}: {games}" for value, games in counts.items()) or "-"


def play_command(
    seed: SeedOption = 0,
    agents: AgentsOption = None,
    max_rounds: MaxRoundsOption = DEFAULT_MAX_ROUNDS,
    states: Annotated[bool, typer.Option("--states/--no-states",
                                         help="Render the whole table after every round.")] = True,
    cards: CardsOption = None,
    ruling: RulingOption = None,
    html: Annotated[Path | None, typer.Option("--html", metavar="PATH", dir_okay=False,
                                              help="Also write the game as a page showing the board at every "
                                                   "step.")] = None,
) -> None:
    """Play one seeded game and show it turn by turn, with the table rendered after every round."""
    _check_rounds(max_rounds)
    matchup = Matchup.parse(agents)
    game = load_game(cards, ruling)
    if html is not None:
        check_writable_file(html, field="--html")
    console.print(Rule(f"Game with seed {seed} · {matchup}"))
    state: GameState = new_game(game)
    label = "Set-Up"
    turn: list[tuple[GameState, Action]] = []
    company_turn = True
    played: list[Action] = []
    for move in iter_game(game, seed, matchup, max_rounds):
        if move.actor is not Actor.CHANCE and move.before.phase is not Phase.SETUP:
            new_label = f"Round {move.before.round} · {move.actor.value.capitalize()}"
            if new_label != label:
                _print_turn(label, turn)
                if states and company_turn:
                    console.print(render_state(move.before))
                label, turn = new_label, []
                company_turn = move.actor is Actor.COMPANY
        turn.append((move.before, move.action))
        played.append(move.action)
        state = move.after
    _print_turn(label, turn)
    console.print(render_state(state))
    if state.outcome is not None:
        console.print(f"[bold]Outcome:[/] {outcome_text(state.outcome)}", highlight=False)
    elif state.round > max_rounds:
        console.print(f"[bold red]Unfinished:[/] cut off after {max_rounds} rounds", highlight=False)
    elif not legal_actions(state):
        console.print(f"[bold red]Stuck:[/] no legal action in {text(state.summary())}", highlight=False)
    if html is not None:
        write_page(html, document_for_game(game, played, f"Game with seed {seed} · {matchup}",
                                           [("Seed", str(seed)), ("Players", str(matchup))]))
        console.print(f"the board at every step: {text(html)}", highlight=False)


def _print_turn(label: str, moves: list[tuple[GameState, Action]]) -> None:
    if not moves:
        return
    console.print(Rule(label, align="left"))
    for line in describe_moves(moves):
        console.print(f"  {text(line)}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("simulate")(simulate_command)
    app.command("play")(play_command)
