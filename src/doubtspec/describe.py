"""Actions, chance events, phases and outcomes in words, with the card file's names: for people.

`describe_action` turns an action into a sentence ("Movement buys Cancer by the Carton (#5) from
space 3 ..."), `describe_moves` a run of them into a few lines, `phase_label` where the game
stands. Plain text: the command line escapes it before Rich sees it, the HTML viewer before the
browser does. Nothing here changes a state.
"""

from __future__ import annotations

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
from doubtspec.model.cards import Zone
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

ZONE_NAMES: dict[Zone, str] = {
    Zone.CHILDREN: "Children",
    Zone.ADULTS: "Adults",
    Zone.MIDDLE_AGE: "Middle Age",
    Zone.ELDERLY: "Elderly",
}
"""The demographic Zones by name (the card catalogue's short form)."""

ZONE_SYMBOLS: dict[Zone, str] = {Zone.CHILDREN: "□", Zone.ADULTS: "Ⅰ", Zone.MIDDLE_AGE: "Ⅱ", Zone.ELDERLY: "Ⅲ"}
"""Each Zone's mark on the Company's display."""

ZONE_LABELS: dict[Zone, str] = {zone: f"{name} ({ZONE_SYMBOLS[zone]})" for zone, name in ZONE_NAMES.items()}
"""The Zones as the display shows them: name and mark."""


# --- names ------------------------------------------------------------------------------------


def company_name(state: GameState, card: int) -> str:
    """A Company card as `Name (#n)`."""
    return f"{state.game.company_card(card).name} (#{card})"


def movement_name(state: GameState, card: int) -> str:
    """A Movement card as `Name (#n)`."""
    return f"{state.game.movement_card(card).name} (#{card})"


def goal_name(state: GameState, goal: int) -> str:
    """A Goal as `Gn Name`."""
    return f"G{goal} {state.game.goal(goal).name}"


def company_list(state: GameState, cards: tuple[int, ...], empty: str = "—") -> str:
    """Company cards by name, comma-separated (`empty` for none)."""
    return ", ".join(company_name(state, c) for c in cards) or empty


def movement_list(state: GameState, cards: tuple[int, ...], empty: str = "—") -> str:
    """Movement cards by name, comma-separated (`empty` for none)."""
    return ", ".join(movement_name(state, c) for c in cards) or empty


# --- actions ----------------------------------------------------------------------------------


def _pay(state: GameState, pay: tuple[int, ...]) -> str:
    return f", paying with {company_list(state, pay)}" if pay else ", paying nothing"


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
                card, where = state.piles[index][-1], f"the {game.cards.piles[index].name} pile"
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
            f"{outcome.detail}")
