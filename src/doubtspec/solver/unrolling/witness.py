"""Witnesses: a model of the unrolling turned into engine actions, replayed through the checked engine.

A step's decision variables and follow-up tokens become the engine actions they stand for, in the
order the engine asks for them; with a passive Movement, choices the encoding leaves open because
they cannot matter (the Movement's Set-Up deals, its starting card, Market refills) take the
engine's first legal option; with a free Movement (a run whose steps include Movement turns) they
come from the model like every other choice.
Every action goes through `play`, and after each step the engine's state is compared with the
state the model claims: any difference or rejected action is an `EncodingError`, never a result.
The trace format is the fuzzer's (`doubtspec.reports.trace`): the card file and its fingerprint,
the rulings, the seed (null: a witness is found, not drawn) and the action list in text form, plus
the outcome and the query it answers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from doubtspec.errors import DoubtspecError, IllegalActionError
from doubtspec.model.actions import (
    Action,
    Agitate,
    Buy,
    BuySource,
    Chance,
    ChooseStart,
    End,
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
from doubtspec.model.cards import AddDoubt, Lobby, MarketAction, NamedEffect, RemoveMarketCard, Zone, default_cards_path
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game, play
from doubtspec.model.game import Game
from doubtspec.model.state import Actor, GameState, Side
from doubtspec.model.steps import (
    Agitation,
    ChooseStartingCard,
    CompanyDraw,
    DealGoal,
    DrawToHandSize,
    FillMarket,
    GoalSplit,
    Messaging,
    Organize,
    ResolveEffect,
)
from doubtspec.reports.atomic import atomic_write_text
from doubtspec.reports.trace import TraceFile
from doubtspec.solver.unrolling.encoding import (
    GOAL_PLACES,
    GOAL_TARGET_BASE,
    Loc,
    Tables,
    comparable,
    decode,
    diff,
    project,
)
from doubtspec.solver.unrolling.movement import SKIP, Act
from doubtspec.solver.unrolling.terms import Model
from doubtspec.solver.unrolling.transition import DrawBlock, Kind, Step, Token


class EncodingError(DoubtspecError):
    """The solver's model does not replay in the engine: a bug in the encoding, never an answer."""


@dataclass(frozen=True, slots=True)
class Witness:
    """A replayed trace: the actions from Set-Up and the engine's final state."""

    actions: tuple[Action, ...]
    final: GameState

    def trace(self, game: Game) -> TraceFile:
        """The witness as a trace in the fuzzer's format (the shipped card set is named by no path)."""
        shipped = Path(game.cards.source).resolve() == default_cards_path().resolve()
        return TraceFile(tuple(str(a) for a in self.actions), None if shipped else game.cards.source,
                         game.cards.fingerprint, game.rulings.choices, None)

    def to_json(self, game: Game, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        data = self.trace(game).to_json()
        outcome = self.final.outcome
        data["outcome"] = None if outcome is None else {
            "reason": outcome.reason.value, "round": outcome.round, "detail": outcome.detail}
        if extra:
            data.update(extra)
        return data

    def write(self, path: Path, game: Game, extra: dict[str, Any] | None = None) -> None:
        """Write the witness trace atomically (a reader never sees half a file; an old file stays until then)."""
        atomic_write_text(path, json.dumps(self.to_json(game, extra), indent=2) + "\n")


def token_action(token: Token, model: Model) -> Action:
    """The engine action a follow-up token stands for."""
    value = model.int(token.ivar)
    match token.kind:
        case "mfill":
            return Chance(value)
        case "lobby":
            if value < 0:
                return Skip(Side.COMPANY)
            if value >= GOAL_TARGET_BASE:
                return LobbyOn(LobbyWhere.GOAL, value - GOAL_TARGET_BASE)
            return LobbyOn(LobbyWhere.MARKET, value)
        case "remove":
            return RemoveFromMarket(value)
        case "trash":
            return Skip(Side.COMPANY) if value == 0 else TrashCard(value)
    raise AssertionError(f"unknown token kind {token.kind}")


def asked(tokens: Sequence[Token], model: Model) -> list[Action]:
    return [token_action(tok, model) for tok in tokens if model.bool(tok.asked)]


def _pay(step: Step, model: Model) -> tuple[int, ...]:
    return tuple(sorted(int(name[4:]) for name, v in step.bools.items()
                        if name.startswith("pay.") and model.bool(v)))


def _cards_at(step_state: dict[str, int], where: Loc) -> list[int]:
    return sorted(int(name[4:]) for name, v in step_state.items() if name.startswith("loc.") and v == where)


@dataclass(slots=True)
class Plan:
    """A step's engine actions: the free action(s) first, then answers to what the engine asks, by kind."""

    actions: list[Action]
    draws: list[int]
    lobby: list[Action]
    remove: list[Action]
    trash: list[Action]
    doubt: dict[int, int]
    """The Doubt per column the step ends with (each Doubt the engine asks about goes where it is short)."""
    movement: dict[str, list[Action]] = field(default_factory=dict)
    """The Movement's follow-ups by kind: 'message', 'agitate', 'organize', 'mfill' (Market refills)."""


def _empty(actions: list[Action]) -> Plan:
    return Plan(actions, [], [], [], [], {})


def is_free(steps: Sequence[Step]) -> bool:
    """Whether a run encodes the Movement's side (`movement_free`): its Set-Up chooses a starting card."""
    return any(step.kind == "movement-turn" or "start" in step.ints for step in steps)


def step_plan(tables: Tables, step: Step, model: Model, state: GameState) -> Plan:
    """What the engine will be told during one step of the unrolling."""
    match step.kind:
        case "setup":
            odds = [tables.pairs[int(n[5:])][0] for n, v in step.bools.items()
                    if n.startswith("pair.") and model.bool(v)]
            hand = [int(n[5:]) for n, v in step.bools.items() if n.startswith("hand.") and model.bool(v)]
            deals: list[Action] = [Chance(c) for c in sorted(odds)]
            actions = deals + [Chance(c) for c in sorted(hand)]
            if "start" in step.ints:
                actions += _movement_setup(tables, step, model)
            return _empty(actions)
        case "movement":
            return _empty([Pass()])
        case "movement-turn":
            return _movement_plan(tables, step, model)
        case "end-play":
            return _empty([EndPlay()])
        case "play":
            return _play_plan(tables, step, model)
        case "buy":
            if not model.bool(step.bools["buy"]):
                return _empty([])
            return _empty([_buy_action(state, model.int(step.ints["card"]), _pay(step, model))])
        case "end-buy":
            return _draw_phase_plan(tables, step, model)
    raise AssertionError(step.kind)


def _sort_tokens(plan: Plan, tokens: Sequence[Token], model: Model) -> None:
    for tok in tokens:
        if not model.bool(tok.asked):
            continue
        action = token_action(tok, model)
        if tok.kind == "mfill":
            plan.movement.setdefault("mfill", []).append(action)
            continue
        {"lobby": plan.lobby, "remove": plan.remove, "trash": plan.trash}[tok.kind].append(action)


def _movement_setup(tables: Tables, step: Step, model: Model) -> list[Action]:
    """Movement Set-Up: the starting card, the Goal split and deal, the Market's first cards."""
    goals = [model.int(step.ints[f"goal.{p}"]) for p in range(GOAL_PLACES)]
    a, b, c = sorted(goals[6:])
    actions: list[Action] = [ChooseStart(model.int(step.ints["start"])), Chance(a * 100 + b * 10 + c)]
    actions += [Chance(g) for g in goals]
    actions += [Chance(model.int(step.ints[f"mkt.{i}"])) for i in range(tables.market_spaces)]
    return actions


def _end(right: bool) -> End:
    return End.RIGHT if right else End.LEFT


def _movement_plan(tables: Tables, step: Step, model: Model) -> Plan:
    """The Movement's action and its follow-ups (Messaging, Agitation, Organize and its refill)."""
    act = model.int(step.ints["act"])
    if act == Act.PASS:
        return _empty([Pass()])
    flips = tuple(k for k in range(tables.game.cards.rules.tableau_limit) if model.bool(step.bools[f"flip.{k}"]))
    if act == Act.PLAY:
        remove = model.int(step.ints["remove"])
        return _empty([MovementPlay(model.int(step.ints["card"]), flips, _end(model.bool(step.bools["right"])),
                                    None if remove == SKIP else remove)])
    space = model.int(step.ints["space"])
    plan = _empty([MovementBuy(space, flips)])
    skip = Skip(Side.MOVEMENT)
    match tables.game.cards.market[space].action:
        case MarketAction.MESSAGING:
            zone = model.int(step.ints["mz"])
            plan.movement["message"] = [skip if zone == SKIP else Message(
                Zone(zone), model.int(step.ints["md"]), model.int(step.ints["mv"]))]
        case MarketAction.AGITATION:
            slot = model.int(step.ints["as"])
            plan.movement["agitate"] = [skip if slot == SKIP else Agitate(slot, model.int(step.ints["at"]))]
        case MarketAction.ORGANIZE:
            card = model.int(step.ints["oc"])
            remove = model.int(step.ints["orm"])
            plan.movement["organize"] = [skip if card == 0 else OrganizePlay(
                card, _end(model.bool(step.bools["oright"])), None if remove == SKIP else remove)]
            _sort_tokens(plan, step.tokens.get("mfill", []), model)
        case _:
            pass
    return plan


def _targets(step: Step, model: Model) -> dict[int, int]:
    after = decode(model, step.after)
    return {z: after[f"dbt.{z}"] for z in range(4)}


def block_cards(block: DrawBlock, model: Model) -> list[int]:
    """The cards of a draw block in an order the engine accepts: the deck's first, then the reshuffled ones."""
    drawn = [c for c, v in block.drawn.items() if model.bool(v)]
    return sorted(drawn, key=lambda c: (not model.bool(block.from_deck[c]), c))


def _play_plan(tables: Tables, step: Step, model: Model) -> Plan:
    kind = model.int(step.ints["kind"])
    card = model.int(step.ints["card"])
    if kind == Kind.IDLE:
        return _empty([])
    if kind == Kind.UNLOBBY:
        target = model.int(step.ints["unlobby"])
        if target >= GOAL_TARGET_BASE:
            return _empty([Unlobby(LobbyWhere.GOAL, target - GOAL_TARGET_BASE)])
        return _empty([Unlobby(LobbyWhere.MARKET, target)])
    pay = _pay(step, model)
    if kind == Kind.RESERVE:
        return _empty([PlayReserve(card, pay)])
    plan = _empty([PlayStandard(card, pay)])
    _sort_tokens(plan, step.own_tokens.get(card, []), model)
    side = tables.card(card).standard
    if side is not None and any(isinstance(e, NamedEffect) for e in side.effects):
        _sort_tokens(plan, step.tokens.get("trash", []), model)
    if "play" in step.blocks:
        plan.draws = block_cards(step.blocks["play"], model)
    plan.doubt = _targets(step, model)
    return plan


def _buy_action(state: GameState, card: int, pay: tuple[int, ...]) -> Action:
    for i, pile in enumerate(state.piles):
        if pile and pile[-1] == card:
            return Buy(BuySource.PILE, i, pay)
    for i, stack in enumerate(state.stacks):
        if stack and stack[-1] == card:
            return Buy(BuySource.STACK, i, pay)
    if card in state.trash:
        return Buy(BuySource.TRASH, state.trash.index(card), pay)
    raise EncodingError(f"the model buys card {card}, which is not offered in {state.summary()}")


def _draw_phase_plan(tables: Tables, step: Step, model: Model) -> Plan:
    plan = _empty([EndBuy()])
    if model.bool(step.bools["enough"]):
        plan.draws = block_cards(step.blocks["draw"], model)
        return plan
    before = decode(model, step.before)
    if tables.draw_first:
        plan.draws = _cards_at(before, Loc.DECK)
    held = [q for q in tables.reshuffle_candidates() if before[f"loc.{q}"] == Loc.RESERVE]
    order = sorted(held, key=lambda q: -before[f"pos.{q}"])
    for a, r in enumerate(order):
        if before.get(f"ban.{tables.card(r).kind}", 0):
            continue  # Interference: a banned card in the Reserve has no effect at the Reshuffle
        _sort_tokens(plan, step.res_tokens.get((a, r), []), model)
    plan.draws += block_cards(step.blocks["refill"], model)
    plan.doubt = _targets(step, model)
    _sort_tokens(plan, step.tokens.get("mfill", []), model)
    return plan


def run_step(tables: Tables, step: Step, model: Model, state: GameState, trace: list[Action],
             free: bool = False) -> GameState:
    """Apply one step's plan to `state` through the checked engine and compare the result with the model.

    `free`: the run encodes the Movement's side, whose choices come from the model too.
    """
    plan = step_plan(tables, step, model, state)
    queues: dict[str, list[Action]] = {"draw": [Chance(c) for c in plan.draws], "lobby": plan.lobby,
                                       "remove": plan.remove, "trash": plan.trash}
    for kind in ("message", "agitate", "organize", "mfill"):
        queues[kind] = plan.movement.get(kind, [])
    asks = (CompanyDraw, DrawToHandSize, ResolveEffect) + ((Messaging, Agitation, Organize, FillMarket) if free else ())

    def tell(action: Action) -> None:
        nonlocal state
        try:
            state = play(state, action)
        except IllegalActionError as exc:
            raise EncodingError(f"step {step.label}: the engine rejects the model's action: {exc}") from exc
        trace.append(action)

    interactive = step.kind != "setup"
    for action in plan.actions:
        state = _advance_recorded(state, trace, free)
        tell(action)
        while interactive and current_actor(state) is not Actor.TERMINAL and state.pending:
            head = state.pending[0]
            queue: str | None = None
            if isinstance(head, CompanyDraw | DrawToHandSize):
                queue = "draw"
            elif isinstance(head, ResolveEffect):
                match head.effect:
                    case AddDoubt(group=group):
                        a, b = (int(col) for col in group.columns)
                        column = a if state.doubt[a] < plan.doubt.get(a, 0) else b
                        tell(PlaceDoubt(Zone(column)))
                        continue
                    case Lobby():
                        queue = "lobby"
                    case RemoveMarketCard():
                        queue = "remove"
                    case NamedEffect():
                        queue = "trash"
            elif free and isinstance(head, Messaging):
                queue = "message"
            elif free and isinstance(head, Agitation):
                queue = "agitate"
            elif free and isinstance(head, Organize):
                queue = "organize"
            elif free and isinstance(head, FillMarket):
                queue = "mfill"
            if queue is None:
                state = _advance_recorded(state, trace, free)
                if state.pending and isinstance(state.pending[0], asks):
                    continue
                break
            if not queues[queue]:
                raise EncodingError(f"step {step.label}: the engine asks for a {queue} choice the model did not make")
            tell(queues[queue].pop(0))
    # A declined Movement follow-up is no choice when the engine has nothing to offer there.
    left = {k: v for k, v in queues.items() if v and v != [Skip(Side.MOVEMENT)]}
    if left and state.outcome is None:
        raise EncodingError(f"step {step.label}: the model made choices the engine never asked for: {left}")
    state = _advance_recorded(state, trace, free)
    expected = comparable(decode(model, step.after))
    got = comparable(project(tables, state, free))
    if expected != got:
        raise EncodingError(f"step {step.label}: the model's state differs from the engine's: {diff(expected, got)}")
    return state


def replay(tables: Tables, steps: Sequence[Step], model: Model) -> Witness:
    """Replay a model step by step through the checked engine; raise `EncodingError` on any disagreement."""
    state = new_game(tables.game)
    trace: list[Action] = []
    free = is_free(steps)
    for step in steps:
        if state.outcome is not None:
            break
        state = run_step(tables, step, model, state, trace, free)
    return Witness(tuple(trace), state)


def _advance_recorded(state: GameState, trace: list[Action], free: bool = False) -> GameState:
    """Take the engine's first option wherever the encoding leaves a choice open because it cannot matter
    (a passive Movement's choices; with a free Movement there is none)."""
    if free:
        return state
    while current_actor(state) is not Actor.TERMINAL and state.pending:
        head = state.pending[0]
        if isinstance(head, GoalSplit | DealGoal | FillMarket | ChooseStartingCard):
            action = legal_actions(state)[0]
            state = apply(state, action)
            trace.append(action)
        else:
            break
    return state


def replay_actions(game: Game, actions: Sequence[Action]) -> GameState:
    """Replay a trace's actions from Set-Up through the checked engine."""
    state = new_game(game)
    for action in actions:
        state = play(state, action)
    return state
