"""Rich rendering of game states and actions for people: reusable by every command.

`render_state` draws the whole table (the Company's display, cards and Market; the Movement's
tokens, hand, Tableau, Market and Goal structure); `describe_action` turns an action into a
sentence with card names. Nothing here changes a state; the engine stays free of Rich.

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

from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    BuySource,
    Chance,
    ChooseStart,
    EndBuy,
    EndPlay,
    LobbyOn,
    LobbyWhere,
    Message,
    MovementBuy,
    MovementPlay,
    OrganizePlay,
    Pass,
    PlaceDoubt,
    PlayReserve,
    PlayStandard,
    RemoveFromMarket,
    Skip,
    TrashCard,
    Unlobby,
)
from doubtspec.model.cards import BonusKind, Counts, TokenKind, Zone
from doubtspec.model.movement import COVERED_BY, GOAL_ROWS, available_goals
from doubtspec.model.state import NO_CARD, GameState, Outcome, Phase
from doubtspec.model.steps import (
    Agitation,
    CompanyDraw,
    DealGoal,
    DealStack,
    DrawToHandSize,
    FillMarket,
    GoalSplit,
    Messaging,
    Organize,
)

ZONE_LABELS = {
    Zone.CHILDREN: "Children (□)",
    Zone.ADULTS: "Adults (Ⅰ)",
    Zone.MIDDLE_AGE: "Middle Age (Ⅱ)",
    Zone.ELDERLY: "Elderly (Ⅲ)",
}
_BONUS_LETTER = {BonusKind.INFLUENCE: "I", BonusKind.MESSAGING: "M", BonusKind.AGITATION: "A", BonusKind.REFRESH: "R"}


# --- names ------------------------------------------------------------------------------------


def company_name(state: GameState, card: int) -> str:
    """A Company card as `Name (#n)`."""
    return f"{escape(state.game.company_card(card).name)} (#{card})"


def movement_name(state: GameState, card: int) -> str:
    """A Movement card as `Name (#n)`."""
    return f"{escape(state.game.movement_card(card).name)} (#{card})"


def goal_name(state: GameState, goal: int) -> str:
    return f"G{goal} {escape(state.game.goal(goal).name)}"


def _company_list(state: GameState, cards: tuple[int, ...], empty: str = "—") -> str:
    return ", ".join(company_name(state, c) for c in cards) or empty


def _movement_list(state: GameState, cards: tuple[int, ...], empty: str = "—") -> str:
    return ", ".join(movement_name(state, c) for c in cards) or empty


def _icons(counts: Counts) -> str:
    parts = [f"{label}{n}" for label, n in (("R", counts.research), ("M", counts.messaging), ("A", counts.agitation),
                                            ("I", counts.influence), ("Rf", counts.refresh)) if n]
    return " ".join(parts) or "—"


def _bonuses(kinds: tuple[BonusKind, ...]) -> str:
    return "".join(_BONUS_LETTER[k] for k in kinds) or "·"


# --- actions ----------------------------------------------------------------------------------


def _pay(state: GameState, pay: tuple[int, ...]) -> str:
    return f", paying with {_company_list(state, pay)}" if pay else ", paying nothing"


def _flips(state: GameState, flip: tuple[int, ...], cost: int) -> str:
    if not flip:
        return f", paying {cost} Influence" if cost else ""
    value = sum(state.game.movement_card(state.tableau[p][0]).influence for p in flip)
    names = ", ".join(movement_name(state, state.tableau[p][0]) for p in flip)
    tokens = max(0, cost - value)
    return f", flipping {names}" + (f" and paying {tokens} Influence" if tokens else "")


def describe_action(state: GameState, action: Action) -> str:
    """A sentence for `action` taken in `state` (the state before it), with card names."""
    game = state.game
    match action:
        case PlayStandard(card=card, pay=pay):
            return f"Company plays {company_name(state, card)}{_pay(state, pay)}"
        case PlayReserve(card=card, pay=pay):
            return f"Company plays {company_name(state, card)} into its Reserve{_pay(state, pay)}"
        case EndPlay():
            return "Company ends its Play Phase"
        case Buy(source=source, index=index, pay=pay):
            if source is BuySource.PILE:
                card, where = state.piles[index][-1], f"the {escape(game.cards.piles[index].name)} pile"
            elif source is BuySource.STACK:
                card, where = state.stacks[index][-1], f"stack {index + 1}"
            else:
                card, where = state.trash[index], "the trash pile"
            return f"Company buys {company_name(state, card)} from {where}{_pay(state, pay)}"
        case EndBuy():
            return "Company ends its Buy Phase"
        case Unlobby(where=where, index=index):
            return f"Company takes its Lobbying back from {_lobby_target(state, where, index)}"
        case PlaceDoubt(column=column):
            return f"Company places a Doubt in the {ZONE_LABELS[column]} column"
        case LobbyOn(where=where, index=index):
            return f"Company lobbies one Profit onto {_lobby_target(state, where, index)}"
        case RemoveFromMarket(space=space):
            return f"Company removes {movement_name(state, state.market[space])} from Market space {space}"
        case TrashCard(card=card):
            return f"Company trashes {company_name(state, card)} from its hand"
        case Skip(side=side):
            return f"{side.value.capitalize()} declines the choice"
        case ChooseStart(card=card):
            return f"Movement starts its Tableau with {movement_name(state, card)}"
        case MovementPlay(card=card, flip=flip, end=end, remove=remove):
            removed = "" if remove is None else f", removing {movement_name(state, state.tableau[remove][0])}"
            cost = game.movement_card(card).influence
            return (f"Movement plays {movement_name(state, card)} at the {end.value} end"
                    f"{_flips(state, flip, cost)}{removed}")
        case MovementBuy(space=space, flip=flip):
            data = game.cards.market[space]
            cost = data.cost + state.market_profit[space]
            return (f"Movement buys {movement_name(state, state.market[space])} from space {space} "
                    f"({data.action.value}, cost {cost}){_flips(state, flip, cost)}")
        case Pass():
            return "Movement passes for Influence"
        case Message(zone=zone, doubts=doubts, victims=victims):
            return (f"Movement's Messaging on {ZONE_LABELS[zone]}: removes {doubts} Doubt and "
                    f"{victims} Victim{'s' if victims != 1 else ''}")
        case Agitate(slot=slot, tokens=tokens):
            icons = state.pending[0].icons if state.pending and isinstance(state.pending[0], Agitation) else 0
            return (f"Movement's Agitation on {goal_name(state, state.goals[slot])}: {icons} from icons, "
                    f"{tokens} token{'s' if tokens != 1 else ''}")
        case OrganizePlay(card=card, end=end, remove=remove):
            removed = "" if remove is None else f", removing {movement_name(state, state.tableau[remove][0])}"
            return f"Movement organizes {movement_name(state, card)} at the {end.value} end for free{removed}"
        case Chance(outcome=outcome):
            return describe_chance(state, outcome)
    return str(action)


def _lobby_target(state: GameState, where: LobbyWhere, index: int) -> str:
    if where is LobbyWhere.GOAL:
        return goal_name(state, state.goals[index])
    return f"{movement_name(state, state.market[index])} (Market space {index})"


def describe_chance(state: GameState, outcome: int) -> str:
    """A sentence for a chance outcome, read from the step it resolves."""
    head = state.pending[0] if state.pending else None
    match head:
        case DealStack():
            return f"Set-Up deals a stack: {company_name(state, outcome + 1)} on {company_name(state, outcome)}"
        case CompanyDraw() | DrawToHandSize():
            return f"Company draws {company_name(state, outcome)}"
        case GoalSplit():
            lower = (outcome // 100, outcome // 10 % 10, outcome % 10)
            return f"Set-Up splits the Goals: G{lower[0]}, G{lower[1]}, G{lower[2]} form the lower stack"
        case DealGoal(slot=slot):
            return f"Set-Up deals {goal_name(state, outcome)} to place {slot}"
        case FillMarket():
            space = state.market.index(NO_CARD)
            return f"Market space {space} is filled with {movement_name(state, outcome)}"
    return f"chance {outcome}"


def describe_moves(moves: list[tuple[GameState, Action]]) -> list[str]:
    """Sentences for a run of actions, each with the state it was taken in.

    Consecutive draws and Market refills are merged into one sentence, so that a turn reads as
    a handful of lines rather than one line per card.
    """
    lines: list[str] = []
    merge: str | None = None
    for state, action in moves:
        head = state.pending[0] if state.pending else None
        if isinstance(action, Chance) and isinstance(head, CompanyDraw | DrawToHandSize):
            kind, item = "draw", company_name(state, action.outcome)
        elif isinstance(action, Chance) and isinstance(head, FillMarket):
            kind, item = "fill", f"space {state.market.index(NO_CARD)} ← {movement_name(state, action.outcome)}"
        else:
            lines.append(describe_action(state, action))
            merge = None
            continue
        if merge == kind:
            lines[-1] += f", {item}"
        else:
            lines.append(("Company draws " if kind == "draw" else "Market refills: ") + item)
            merge = kind
    return lines


# --- the state ----------------------------------------------------------------------------------


def phase_label(state: GameState) -> str:
    """Where the game stands, in words."""
    if state.outcome is not None:
        return "game over"
    head = state.pending[0] if state.pending else None
    if isinstance(head, Messaging):
        return "Movement's Messaging"
    if isinstance(head, Agitation):
        return "Movement's Agitation"
    if isinstance(head, Organize):
        return "Movement's Organize"
    return {
        Phase.SETUP: "Set-Up",
        Phase.MOVEMENT_TURN: "Movement's turn",
        Phase.COMPANY_PLAY: "Company's Play Phase",
        Phase.COMPANY_BUY: "Company's Buy Phase",
        Phase.COMPANY_DRAW: "Company's Draw Phase",
        Phase.PACING: "Pacing",
        Phase.OVER: "game over",
    }[state.phase]


def outcome_text(outcome: Outcome) -> str:
    """The result as a sentence: who won, how, when."""
    return (f"{outcome.winner.value.capitalize()} wins by {outcome.reason.value} in round {outcome.round}: "
            f"{escape(outcome.detail)}")


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
