"""`doubtspec cards check|show` and `doubtspec rulings`: the card data and the open choices."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from doubtspec.cli.common import JsonOption, console, text
from doubtspec.model.cards import (
    AddDoubt,
    AddVictims,
    CardSet,
    CompanyCard,
    CompanyEffect,
    Discount,
    DrawCards,
    Lobby,
    NamedEffect,
    RemoveMarketCard,
    ScoreProfit,
    load_cards,
)
from doubtspec.model.rulings import REGISTRY

cards_app = typer.Typer(help="Validate and show card files.", no_args_is_help=True)

PathArgument = Annotated[
    Path | None,
    typer.Argument(metavar="[PATH]", help="Card file (TOML); the shipped provisional set when omitted.",
                   dir_okay=False),
]


@cards_app.command("check")
def check(path: PathArgument = None, as_json: JsonOption = False) -> None:
    """Validate a card file: exit 0 when valid, 2 with the file, line and field when not."""
    cards = load_cards(path)
    summary = {
        "file": cards.source, "name": cards.name, "version": cards.version, "provisional": cards.provisional,
        "company_cards": len(cards.company), "movement_cards": len(cards.movement), "goals": len(cards.goals),
        "market_spaces": len(cards.market), "fingerprint": cards.fingerprint,
    }
    if as_json:
        import json

        console.print_json(json.dumps(summary))
        return
    flag = " [yellow](provisional: invented card texts)[/]" if cards.provisional else ""
    console.print(
        f"[green]ok[/] {text(cards.source)}: {text(cards.name)} v{text(cards.version)}{flag} — "
        f"{len(cards.company)} Company cards, "
        f"{len(cards.movement)} Movement cards, {len(cards.goals)} Goals, {len(cards.market)} Market spaces"
    )


def _effects(effects: tuple[CompanyEffect, ...]) -> str:
    """Effects in the card file's own words, e.g. `victims adults 1, doubt II 2`."""
    parts = []
    for e in effects:
        match e:
            case AddVictims(zone=zone, count=count):
                parts.append(f"victims {zone.key} {count}")
            case AddDoubt(group=group, count=count):
                parts.append(f"doubt {group.value} {count}")
            case Discount(amount=amount):
                parts.append(f"discount {amount}")
            case NamedEffect(name=name):
                parts.append(name)
            case ScoreProfit() | DrawCards() | Lobby() | RemoveMarketCard():
                op = {ScoreProfit: "profit", DrawCards: "draw", Lobby: "lobby", RemoveMarketCard: "remove_market"}
                parts.append(f"{op[type(e)]} {e.count}")
    return ", ".join(parts) or "-"


def _company_row(card: CompanyCard) -> list[str]:
    std = card.standard
    res = card.reserve
    std_text = "-" if std is None else (
        f"{std.cost}: {std.icon.value}{' +' + std.trigger.value if std.trigger else ''} | {_effects(std.effects)}")
    res_text = "-" if res is None else (
        f"{res.cost}: {res.trigger.value if res.trigger else 'no trigger'}/{res.icon.value} | {_effects(res.effects)}"
        + (f"; reshuffle: {_effects(res.on_reshuffle)}" if res.on_reshuffle else "")
        + ("; stays" if res.stays else "") + ("; loopholes" if res.loopholes else ""))
    invented = "all" if card.invented == ("*",) else ", ".join(card.invented) or "-"
    return [str(card.number), card.name, card.kind, str(card.budget), std_text, res_text, invented]


@cards_app.command("show")
def show(path: PathArgument = None) -> None:
    """Render every card of a file as tables."""
    cards: CardSet = load_cards(path)
    if cards.provisional:
        console.print(f"[yellow]{text(cards.name)} v{text(cards.version)} is provisional:[/] {text(cards.notes)}")
    table = Table(title="Company cards", show_lines=False)
    for column in ("#", "name", "kind", "budget", "standard", "reserve", "invented"):
        table.add_column(column)
    for number in sorted(cards.company):
        table.add_row(*map(text, _company_row(cards.company[number])))
    console.print(table)
    table = Table(title="Movement cards")
    for column in ("#", "name", "influence", "icons", "left", "right", "passive", "invented"):
        table.add_column(column)
    for movement_number in sorted(cards.movement):
        m = cards.movement[movement_number]
        icons = f"R{m.icons.research} M{m.icons.messaging} A{m.icons.agitation}"
        passive = ", ".join(f"{k} {getattr(m.passive, k)}" for k in ("influence", "messaging", "agitation", "refresh")
                            if getattr(m.passive, k)) or "-"
        table.add_row(*map(text, (str(movement_number), m.name, str(m.influence), icons,
                                  ",".join(b.value for b in m.left) or "-", ",".join(b.value for b in m.right) or "-",
                                  passive, "all" if m.invented == ("*",) else ", ".join(m.invented) or "-")))
    console.print(table)
    table = Table(title="Goals")
    for column in ("#", "name", "cost", "points", "effects", "passive"):
        table.add_column(column)
    for goal_number in sorted(cards.goals):
        g = cards.goals[goal_number]
        effects = ", ".join(f"{type(e).__name__} {next(iter(e.__dataclass_fields__.values())).name}="
                            f"{getattr(e, next(iter(e.__dataclass_fields__)))}" for e in g.effects) or "-"
        table.add_row(*map(text, (f"G{goal_number}", g.name, str(g.cost), str(g.points), effects,
                                  "-" if not g.passive.any() else str(g.passive))))
    console.print(table)
    table = Table(title="Market spaces")
    for column in ("space", "row", "cost", "action"):
        table.add_column(column)
    for i, space in enumerate(cards.market):
        table.add_row(*map(text, (str(i), str(space.row), str(space.cost), space.action.value)))
    console.print(table)


def rulings(as_json: JsonOption = False) -> None:
    """List every ruling: the open choices of the rulebook and the reading in force by default."""
    if as_json:
        import json

        console.print_json(json.dumps([
            {"id": r.id, "section": r.section.value, "question": r.question, "selectable": r.selectable,
             "default": r.default, "choices": dict(r.choices)} for r in REGISTRY]))
        return
    table = Table(title="Rulings (the first choice is the default; * = selectable with --ruling ID=CHOICE)")
    for column in ("id", "section", "question", "choices"):
        table.add_column(column, overflow="fold")
    for r in REGISTRY:
        choices = "\n".join(f"[bold]{name}[/]: {text}" if i == 0 else f"{name}: {text}"
                            for i, (name, text) in enumerate(r.choices))
        table.add_row(r.id + (" *" if r.selectable else ""), r.section.value, r.question, choices)
    console.print(table)


def register(app: typer.Typer) -> None:
    app.add_typer(cards_app, name="cards")
    app.command("rulings")(rulings)
