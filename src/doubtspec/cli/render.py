"""Rich rendering of game states for people: reusable by every command.

`render_state` draws the whole table (the Company's display, cards and Market; the Movement's
tokens, hand, Tableau, Market and Goal structure). Sentences for actions come from
`doubtspec.describe`, as plain text. Nothing here changes a state; the engine stays free of Rich.

Every string built here is Rich markup: names from the card file are escaped where they enter
(`company_name`, `movement_name`, `goal_name`, pile names, outcome details), so a card called
`[/] Free Samples` is shown as written.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from doubtspec import describe
from doubtspec.describe import ZONE_LABELS, phase_label
from doubtspec.model.cards import BonusKind, Counts, TokenKind, Zone
from doubtspec.model.movement import COVERED_BY, GOAL_ROWS, available_goals
from doubtspec.model.state import NO_CARD, GameState, Outcome

_BONUS_LETTER = {BonusKind.INFLUENCE: "I", BonusKind.MESSAGING: "M", BonusKind.AGITATION: "A", BonusKind.REFRESH: "R"}


# --- names, escaped for Rich -----------------------------------------------------------------------


def company_name(state: GameState, card: int) -> str:
    """A Company card as `Name (#n)`, escaped for Rich."""
    return escape(describe.company_name(state, card))


def movement_name(state: GameState, card: int) -> str:
    """A Movement card as `Name (#n)`, escaped for Rich."""
    return escape(describe.movement_name(state, card))


def goal_name(state: GameState, goal: int) -> str:
    """A Goal as `Gn Name`, escaped for Rich."""
    return escape(describe.goal_name(state, goal))


def _company_list(state: GameState, cards: tuple[int, ...], empty: str = "—") -> str:
    return ", ".join(company_name(state, c) for c in cards) or empty


def _movement_list(state: GameState, cards: tuple[int, ...], empty: str = "—") -> str:
    return ", ".join(movement_name(state, c) for c in cards) or empty


def outcome_text(outcome: Outcome) -> str:
    """The result as a sentence, escaped for Rich."""
    return escape(describe.outcome_text(outcome))


def _icons(counts: Counts) -> str:
    parts = [f"{label}{n}" for label, n in (("R", counts.research), ("M", counts.messaging), ("A", counts.agitation),
                                            ("I", counts.influence), ("Rf", counts.refresh)) if n]
    return " ".join(parts) or "—"


def _bonuses(kinds: tuple[BonusKind, ...]) -> str:
    return "".join(_BONUS_LETTER[k] for k in kinds) or "·"


# --- the state ----------------------------------------------------------------------------------


def _doubt_cells(state: GameState, zone: Zone) -> str:
    values = state.cards.display.doubt_values[zone]
    filled = state.doubt[zone]
    # Doubt fills a column from the top and leaves it from the bottom: show each space with its cost.
    return " ".join(f"[bold]●{v}[/]" if i < filled else f"[dim]○{v}[/]" for i, v in enumerate(values))


def render_company(state: GameState) -> RenderableType:
    """The Company's side: display, Profit and stars, cards, and its Market."""
    game = state.game
    rules = game.cards.rules
    display = Table(title="Display", title_justify="left", show_edge=False, pad_edge=False)
    display.add_column("")
    for zone in Zone:
        display.add_column(ZONE_LABELS[zone], justify="center")
    display.add_row("Victims", *(str(state.victims[z]) for z in Zone))
    display.add_row("Doubt", *(_doubt_cells(state, z) for z in Zone))
    stars = "★" * state.stars + "☆" * max(0, rules.stars_to_win - state.stars)
    status = Text.from_markup(
        f"Profit [bold]{state.profit}[/] of {rules.profit_to_win} · stars {stars} · reshuffles {state.reshuffles}"
        + (f" · banned: [red]{', '.join(state.banned)}[/]" if state.banned else ""))
    cards = Table(show_header=False, show_edge=False, pad_edge=False, box=None)
    cards.add_column(style="bold", no_wrap=True)
    cards.add_column(overflow="fold")
    cards.add_row("Hand", _company_list(state, state.c_hand))
    if state.c_in_play:
        cards.add_row("In play", _company_list(state, state.c_in_play))
    cards.add_row(f"Deck ({len(state.c_deck)})", _company_list(state, state.c_deck))
    cards.add_row(f"Discard ({len(state.c_discard)})", _company_list(state, state.c_discard))
    cards.add_row(f"Reserve ({len(state.c_reserve)})", _company_list(state, state.c_reserve))
    cards.add_row(f"Trash ({len(state.trash)})", _company_list(state, state.trash) + (" (top last)" if state.trash
                                                                                       else ""))
    cards.add_row("Out of game", f"{len(state.c_removed)} cards")
    market = Table(title="Company Market", title_justify="left", show_edge=False, pad_edge=False)
    for column in ("pile / stack", "top card", "budget", "left"):
        market.add_column(column)
    for i, pile in enumerate(state.piles):
        data = game.cards.piles[i]
        name = escape(data.name) + (" [red](banned)[/]" if data.kind in state.banned else "")
        top = company_name(state, pile[-1]) if pile else "—"
        market.add_row(name, top, str(game.budget[pile[-1]]) if pile else "", str(len(pile)))
    for i, stack in enumerate(state.stacks):
        top = company_name(state, stack[-1]) if stack else "—"
        market.add_row(f"stack {i + 1}", top, str(game.budget[stack[-1]]) if stack else "", str(len(stack)))
    if state.trash:
        market.add_row("trash", company_name(state, state.trash[-1]), f"{game.budget[state.trash[-1]]}+1",
                       str(len(state.trash)))
    return Panel(Group(display, status, cards, market), title="[bold]Company[/]", title_align="left")


def _goal_cell(state: GameState, slot: int, open_slots: set[int]) -> str:
    goal_number = state.goals[slot]
    if goal_number == NO_CARD:
        return "[dim]achieved[/]"
    goal = state.game.goal(goal_number)
    extra = []
    if state.goal_profit[slot]:
        extra.append(f"+{state.goal_profit[slot]} lobbied")
    if state.goal_agitation[slot]:
        extra.append(f"{state.goal_agitation[slot]} progress")
    mark = "[green]available[/]" if slot in open_slots else f"[dim]under {', '.join(map(str, COVERED_BY[slot]))}[/]"
    return (f"[{slot}] {goal_name(state, goal_number)}\ncost {goal.cost}, {goal.points} pt · {mark}"
            + (f"\n{'; '.join(extra)}" if extra else ""))


def render_movement(state: GameState) -> RenderableType:
    """The Movement's side: tokens, hand, Tableau, Market and Goal structure."""
    game = state.game
    rules = game.cards.rules
    status = Text.from_markup(
        f"Influence [bold]{state.influence}[/] · Messaging {state.messaging} · Agitation {state.agitation}"
        f" · Flight {state.flight}" + (f" (+{state.flight_spent} spent)" if state.flight_spent else "")
        + f" · points [bold]{state.points()}[/] of {rules.goal_points_to_win}"
        + f" · hand {len(state.m_hand)}/{state.hand_limit()}")
    hand = Text.from_markup(f"Hand: {_movement_list(state, state.m_hand)}")
    tableau = Table(title=f"Tableau ({len(state.tableau)}/{rules.tableau_limit})", title_justify="left",
                    show_edge=False, pad_edge=False)
    for column in ("#", "card", "face", "infl.", "icons", "bonuses L|R", "passive"):
        tableau.add_column(column)
    for pos, (card, up) in enumerate(state.tableau):
        mc = game.movement_card(card)
        tableau.add_row(str(pos), movement_name(state, card), "up" if up else "[dim]down[/]", str(mc.influence),
                        _icons(mc.icons), f"{_bonuses(mc.left)}|{_bonuses(mc.right)}", _icons(mc.passive))
    market = Table(title="Movement Market", title_justify="left", show_edge=False, pad_edge=False)
    for column in ("space", "row", "cost", "action", "card", "infl.", "icons"):
        market.add_column(column)
    for space, card in enumerate(state.market):
        data = game.cards.market[space]
        lobbied = f"+{state.market_profit[space]}" if state.market_profit[space] else ""
        if card == NO_CARD:
            market.add_row(str(space), str(data.row), f"{data.cost}{lobbied}", data.action.value, "—", "", "")
            continue
        mc = game.movement_card(card)
        market.add_row(str(space), str(data.row), f"{data.cost}{lobbied}", data.action.value,
                       movement_name(state, card), str(mc.influence), _icons(mc.icons))
    open_slots = set(available_goals(state.goals))
    goals = Table(title="Goals (rows of 4, 3, 2; a lower row covers the cards above it)", title_justify="left",
                  show_header=False, show_edge=False, pad_edge=False, show_lines=True)
    for _ in range(len(GOAL_ROWS[0])):
        goals.add_column(overflow="fold")
    for row in GOAL_ROWS:
        goals.add_row(*(_goal_cell(state, slot, open_slots) for slot in row))
    achieved = Text.from_markup("Achieved: " + (", ".join(goal_name(state, g) for g in state.achieved) or "—"))
    decks = Text(f"Market deck {len(state.m_deck)} · discard {len(state.m_discard)}")
    return Panel(Group(status, hand, tableau, market, goals, achieved, decks), title="[bold]Movement[/]",
                 title_align="left")


def render_supply(state: GameState) -> Text:
    return Text("Supply: " + " · ".join(f"{kind.value} {state.supply_of(kind)}" for kind in TokenKind))


def render_state(state: GameState) -> RenderableType:
    """The whole table for people: a header, the Company, the Movement and the supplies."""
    header = f"Round {state.round} · {phase_label(state)}"
    if state.outcome is not None:
        header += f" · {outcome_text(state.outcome)}"
    return Group(Text.from_markup(header, style="bold"), render_company(state), render_movement(state),
                 render_supply(state))
