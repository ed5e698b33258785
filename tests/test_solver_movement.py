"""The Movement's encoding (doubtspec.solver.unrolling.movement) agrees with the engine, step by step.

States come from seeded random playouts in which both sides act (the Movement picks Pass, Play or
Buy with even odds, then one of its variants), so that Goals get achieved, Company cards banned,
Restriction cards added, Tableaux filled past their limit and Pacing run with a changing Market.
At a state where the Movement acts, an engine-legal action is drawn and so are its follow-ups
(Messaging, Agitation, Organize) and the first Market refill (chance, fixed to an engine outcome);
the Movement's step is encoded over the concrete state with those decisions fixed, the model is
replayed through the checked engine (`witness.run_step`), and the engine's successor must equal the
model's on the whole state vector. Company steps of such games are checked the same way with the
Movement's side in the vector (bans, Restriction cards, Pacing).

Random playouts seldom buy a lobbied card, Message Victims away or fill a Tableau, so whole games of the
simulation agents are checked too: recorded games (card file, seed, agents) each asserted to still show the
situations they are listed for, whose Movement turns, with every decision and Market draw fixed to the game's,
must replay as the game's own moves to the game's own state; and every Movement turn of the searching agents'
games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.test_solver_transition import _fix

from doubtspec.agents.base import AGENTS, NEEDS_SPIEL, CarefulAgent, Matchup
from doubtspec.agents.simulate import Move, iter_game
from doubtspec.model.actions import (
    Action,
    Agitate,
    End,
    EndBuy,
    EndPlay,
    Message,
    MovementBuy,
    MovementPlay,
    OrganizePlay,
    Pass,
    PlayStandard,
    Skip,
    Unlobby,
)
from doubtspec.model.cards import MarketAction, TokenKind, load_cards
from doubtspec.model.engine import apply, current_actor, legal_actions, new_game
from doubtspec.model.game import Game
from doubtspec.model.movement import aligned
from doubtspec.model.rulings import Rulings
from doubtspec.model.state import TOKEN_INDEX, Actor, GameState, Phase, Side
from doubtspec.model.steps import Agitation, FillMarket, Messaging, Organize
from doubtspec.solver.unrolling.encoding import Tables, concrete, project, var_names
from doubtspec.solver.unrolling.movement import SKIP, Act, encoder_for
from doubtspec.solver.unrolling.terms import TRUE, BoolTerm, Solver, and_, count, eq, implies, not_
from doubtspec.solver.unrolling.transition import Encoder, Step, UnsupportedCards
from doubtspec.solver.unrolling.witness import run_step
from searching_games import ROUNDS, played, searching_games

DATA = Path(__file__).parent / "data"
GAMES = {
    "shipped": Game(load_cards()),
    "tiny movement": Game(load_cards(DATA / "tiny_movement.toml")),
    "shipped, other rulings": Game(load_cards(), Rulings.parse([
        "pass-bonus=no-influence", "banned-reserve=stays-honoured", "lobby-targets=market-only",
        "trigger-timing=before-effects"])),
}


def _movement_choice(actions: tuple[Action, ...], rng: random.Random) -> Action:
    """Pass, Play or Buy with even odds among those available, then one of its variants."""
    groups: dict[type, list[Action]] = {}
    for a in actions:
        groups.setdefault(type(a), []).append(a)
    kinds = sorted(groups, key=lambda k: k.__name__)
    pool = groups[kinds[rng.randrange(len(kinds))]]
    return pool[rng.randrange(len(pool))]


def playout(game: Game, seed: int, stop: int, movement_only: bool = False) -> GameState:
    """A state at rest after a seeded playout where both sides choose at random (with `movement_only`,
    only the Movement's turns count towards `stop`, and the state returned is one)."""
    rng = random.Random(seed)
    state = new_game(game)
    rests = 0
    last = state
    while current_actor(state) is not Actor.TERMINAL:
        actor = current_actor(state)
        if not state.pending and actor is not Actor.CHANCE and (not movement_only or actor is Actor.MOVEMENT):
            last = state
            if rests >= stop:
                return state
            rests += 1
        actions = legal_actions(state)
        if actor is Actor.MOVEMENT and not state.pending:
            # Agitation buys half the time, so that Goals deep in the structure (bans) get achieved.
            agitating = [a for a in actions if isinstance(a, MovementBuy)
                         and game.cards.market[a.space].action is MarketAction.AGITATION]
            if agitating and rng.random() < 0.5:
                action = agitating[rng.randrange(len(agitating))]
            else:
                action = _movement_choice(actions, rng)
        elif actor is Actor.MOVEMENT:
            # A follow-up: prefer acting over skipping, and Agitation with as many tokens as allowed.
            acting = [a for a in actions if not isinstance(a, Skip)]
            pool = acting if acting and rng.random() < 0.8 else list(actions)
            action = pool[rng.randrange(len(pool))]
            if isinstance(action, Agitate):
                action = max((a for a in acting if isinstance(a, Agitate) and a.slot == action.slot),
                             key=lambda a: a.tokens)
        elif actor is Actor.COMPANY:
            # The careful agent's plays keep a buy affordable, so that games last long enough for Goals.
            company = CarefulAgent(game, Side.COMPANY, rng)
            ends = [a for a in actions if isinstance(a, EndPlay | EndBuy)]
            going = [a for a in actions if not isinstance(a, EndPlay | EndBuy)]
            pool = ends if ends and (not going or rng.random() < 0.5) else going or list(actions)
            action = company.choose(state, tuple(pool))
        else:
            action = actions[rng.randrange(len(actions))]
        state = apply(state, action)
    return last


def fix_movement(step: Step, action: Action, follow: Action | None, fills: Sequence[int] = ()) -> BoolTerm:
    """Constraints that make a Movement step's decisions the engine's `action`, `follow` and Market refills (the
    cards drawn, in order; fewer than the step asks for leave the rest free)."""
    parts: list[BoolTerm] = []
    ints, bools = step.ints, step.bools

    def flips_are(flip: tuple[int, ...]) -> None:
        for name, var in bools.items():
            if name.startswith("flip."):
                parts.append(var if int(name[5:]) in flip else not_(var))

    match action:
        case Pass():
            parts.append(eq(ints["act"], Act.PASS))
        case MovementPlay(card=card, flip=flip, end=end, remove=remove):
            parts += [eq(ints["act"], Act.PLAY), eq(ints["card"], card),
                      eq(ints["remove"], SKIP if remove is None else remove)]
            parts.append(bools["right"] if end is End.RIGHT else not_(bools["right"]))
            flips_are(flip)
        case MovementBuy(space=space, flip=flip):
            parts += [eq(ints["act"], Act.BUY), eq(ints["space"], space)]
            flips_are(flip)
    match follow:
        case Message(zone=zone, doubts=doubts, victims=victims):
            parts += [eq(ints["mz"], int(zone)), eq(ints["md"], doubts), eq(ints["mv"], victims)]
        case Agitate(slot=slot, tokens=tokens):
            parts += [eq(ints["as"], slot), eq(ints["at"], tokens)]
        case OrganizePlay(card=card, end=end, remove=remove):
            parts += [eq(ints["oc"], card), eq(ints["orm"], SKIP if remove is None else remove)]
            parts.append(bools["oright"] if end is End.RIGHT else not_(bools["oright"]))
        case Skip():
            for key, skip in (("mz", SKIP), ("as", SKIP), ("oc", 0)):
                parts.append(eq(ints[key], skip))
    # A refill token is asked only for an empty space, so the n-th card drawn goes to the n-th token asked.
    tokens = step.tokens.get("mfill", [])
    for i, token in enumerate(tokens):
        asked_before = count([t.asked for t in tokens[:i]])
        parts += [implies(and_(token.asked, eq(asked_before, n)), eq(token.ivar, card)) for n, card in enumerate(fills)]
    return and_(*parts)


def check_movement_action(game: Game, state: GameState, action: Action, pick: int, seed: int) -> None:
    """Encode the Movement's step with `action` (and follow-ups chosen by `pick`) and compare with the engine."""
    tables = Tables.of(game)
    after = apply(state, action)
    follow: Action | None = None
    fill: int | None = None
    if after.outcome is None and after.pending and isinstance(after.pending[0], Messaging | Agitation | Organize):
        options = legal_actions(after)
        follow = options[pick % len(options)]
        after = apply(after, follow)
    if after.outcome is None and after.pending and isinstance(after.pending[0], FillMarket):
        outcomes = legal_actions(after)
        fill = outcomes[(pick // 7) % len(outcomes)].outcome  # type: ignore[union-attr]
    trace: list[Action] = []
    replay_movement_turn(tables, state, action, follow, () if fill is None else (fill,), trace, seed)
    assert trace[0] == action
    if follow is not None:
        assert trace[1] == follow


def replay_movement_turn(tables: Tables, state: GameState, action: Action, follow: Action | None,
                         fills: Sequence[int], trace: list[Action], seed: int) -> GameState:
    """Encode the Movement's turn from `state` with the given decisions fixed, then replay the model through the
    checked engine, which compares its successor with the model's (`witness.run_step`); return the engine's."""
    step = encoder_for(tables, True).movement_turn(concrete(tables, state, True), state.round)
    solver = Solver(seed=seed)
    for group in step.groups:
        solver.add(group.constraint)
    solver.add(fix_movement(step, action, follow, fills))
    assert solver.check() == "sat", f"the encoding refuses {action} then {follow} in {state.summary()}"
    return run_step(tables, step, solver.model(), state, trace, free=True)


def check_company_action(game: Game, state: GameState, choice: int, seed: int) -> None:
    """A Company step over a state vector with the Movement's side (bans, Restrictions, Pacing)."""
    tables = Tables.of(game)
    enc = encoder_for(tables, True)
    actions = legal_actions(state)
    action = actions[choice % len(actions)]
    s = concrete(tables, state, True)
    if isinstance(action, EndPlay):
        step = enc.end_play(s, state.round)
    elif isinstance(action, EndBuy):
        step = enc.end_buy(s, state.round)
    elif state.phase is Phase.COMPANY_BUY:
        step = enc.buy_slot(s, state.round, 0, TRUE)
    else:
        step = enc.play_slot(s, state.round, 0, TRUE)
    solver = Solver(seed=seed)
    for group in step.groups:
        solver.add(group.constraint)
    solver.add(_fix(step, action, state))
    assert solver.check() == "sat", f"the encoding refuses the engine-legal action {action} in {state.summary()}"
    trace: list[Action] = []
    run_step(tables, step, solver.model(), state, trace, free=True)
    assert trace[0] == action


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), stop=st.integers(0, 150), choice=st.integers(0, 10_000),
       z3seed=st.integers(0, 1000))
def test_step_successor_equals_engine_with_a_free_movement(name: str, seed: int, stop: int, choice: int,
                                                           z3seed: int) -> None:
    game = GAMES[name]
    state = playout(game, seed, stop // 3 if choice % 2 else stop, movement_only=bool(choice % 2))
    if state.outcome is not None or state.pending:
        return
    if state.phase is Phase.MOVEMENT_TURN:
        actions = legal_actions(state)
        check_movement_action(game, state, actions[choice % len(actions)], choice // len(actions), z3seed)
    elif state.phase in (Phase.COMPANY_PLAY, Phase.COMPANY_BUY):
        check_company_action(game, with_bans(game, state, choice), choice // 7, z3seed)


def with_bans(game: Game, state: GameState, choice: int) -> GameState:
    """`state` with some of the kinds the Goals can ban banned (their Ban tokens taken from the supply),
    as if those Goals had been achieved: random playouts rarely get that deep into the structure."""
    kinds = Tables.of(game).ban_kinds
    chosen = tuple(k for i, k in enumerate(kinds) if choice >> i & 1)
    if not chosen or choice % 3 == 0:
        return state
    supply = list(state.supply)
    index = TOKEN_INDEX[TokenKind.BANS]
    if supply[index] < len(chosen):
        return state
    supply[index] -= len(chosen)
    return replace(state, banned=tuple(sorted(chosen)), supply=tuple(supply))


def _movement_states(game: Game, want: int, predicate: object = None) -> list[GameState]:
    found: list[GameState] = []
    for seed in range(200):
        for stop in (0, 10, 25, 45, 70, 100):
            state = playout(game, seed, stop // 5, movement_only=True)
            if state.outcome is None and not state.pending and state.phase is Phase.MOVEMENT_TURN and (
                    predicate is None or predicate(state)):  # type: ignore[operator]
                found.append(state)
                if len(found) >= want:
                    return found
    return found


@pytest.mark.parametrize("name", ["shipped", "tiny movement"])
def test_every_legal_movement_action_is_admitted(name: str) -> None:
    """Every engine-legal Movement action of a few states, each with every follow-up the engine offers."""
    game = GAMES[name]
    states = _movement_states(game, 3, lambda s: len(s.m_hand) > 0)
    assert states, "no Movement state with a hand was reached"
    checked = 0
    for state in states:
        for action in legal_actions(state):
            after = apply(state, action)
            follows = 1
            if (after.outcome is None and after.pending
                    and isinstance(after.pending[0], Messaging | Agitation | Organize)):
                follows = len(legal_actions(after))
            for pick in range(min(follows, 6)):
                check_movement_action(game, state, action, pick, 0)
                checked += 1
    assert checked


@pytest.mark.parametrize("name", ["shipped", "tiny movement"])
def test_goals_bans_and_full_tableaux_are_reached(name: str) -> None:
    """The playouts behind the agreement tests reach the Movement's rarer mechanisms."""
    game = GAMES[name]
    seen = {"achieved": False, "banned": False, "full": False}
    limit = game.cards.rules.tableau_limit
    for seed in range(60):
        state = playout(game, seed, 400)
        seen["achieved"] |= bool(state.achieved)
        seen["banned"] |= bool(state.banned)
        seen["full"] |= len(state.tableau) >= limit
    assert seen["achieved"] and seen["full"], seen
    if name == "tiny movement":
        # The shipped set's banning Goals lie deep in the structure; its Company steps are checked under
        # bans by `with_bans`.
        assert seen["banned"], seen


def test_movement_projection_names_match_the_vector() -> None:
    game = GAMES["shipped"]
    tables = Tables.of(game)
    state = playout(game, 3, 30)
    names = {n for n, _ in var_names(tables, True)}
    assert set(project(tables, state, True)) == names
    assert set(project(tables, state)) == {n for n, _ in var_names(tables)}


def test_unsupported_ruling_is_refused() -> None:
    game = Game(load_cards(), Rulings.parse(["messaging-zones=any-zones"]))
    with pytest.raises(UnsupportedCards, match="messaging-zones"):
        encoder_for(Tables.of(game), True)
    Encoder(Tables.of(game))  # a passive Movement never sends a Messaging


def enriched(state: GameState) -> GameState:
    """`state` with the Movement holding more tokens (taken from its supplies), so that Messaging reaches
    Victims, Agitation reaches costly Goals and every buy is affordable."""
    supply = list(state.supply)
    extra = {TokenKind.INFLUENCE: 4, TokenKind.MESSAGING: 6, TokenKind.AGITATION: 3}
    for kind, n in extra.items():
        supply[TOKEN_INDEX[kind]] -= n
    assert min(supply) >= 0
    return replace(state, influence=state.influence + 4, messaging=state.messaging + 6,
                   agitation=state.agitation + 3, supply=tuple(supply))


@pytest.mark.parametrize("name", ["shipped", "tiny movement"])
def test_every_buy_and_follow_up_of_a_rich_movement_is_admitted(name: str) -> None:
    """Every Buy of a few states whose Movement is rich, each with a spread of its follow-ups (Victims
    removed by Messaging, Goals achieved with tokens, Organize)."""
    game = GAMES[name]
    seen: set[str] = set()
    def wanted(s: GameState) -> bool:
        small = name != "shipped"  # tiny games are short: any Market card will do
        roomy = len(s.m_hand) < s.hand_limit() and any(s.market)
        return roomy and (small or (len(s.m_hand) > 0 and len(s.tableau) > 1))

    for state in map(enriched, _movement_states(game, 2, wanted)):
        for action in legal_actions(state):
            if not isinstance(action, MovementBuy) or action.flip:
                continue
            after = apply(state, action)
            follows = legal_actions(after) if after.outcome is None and after.pending and isinstance(
                after.pending[0], Messaging | Agitation | Organize) else ()
            options = follows or (None,)
            stride = max(1, len(options) // 4)  # a spread of at most about four follow-ups per buy
            for pick in range(0, len(options), stride):
                follow = options[pick]
                check_movement_action(game, state, action, pick, 0)
                match follow:
                    case Message(victims=v) if v:
                        seen.add("victims")
                    case Agitate():
                        seen.add("agitate")
                    case OrganizePlay(remove=r):
                        seen.add("organize" if r is None else "organize-remove")
    assert "agitate" in seen, seen
    if name == "shipped":
        assert {"victims", "organize"} <= seen, seen


def test_reshuffle_and_pacing_with_a_free_movement_agree() -> None:
    """Draw Phases that run the Reshuffle Sequence and Pacing (passives, Market shift and refill by card,
    Flight reclaimed), with the Movement's side in the vector and some kinds banned."""
    game = GAMES["shipped"]
    checked = 0
    for seed in range(300):
        state = playout(game, seed, 60)
        if not (state.phase is Phase.COMPANY_BUY and state.outcome is None and state.buys
                and len(state.c_deck) < game.cards.rules.company_hand_size):
            continue
        for variant in (state, with_bans(game, state, 7)):
            tables = Tables.of(game)
            step = encoder_for(tables, True).end_buy(concrete(tables, variant, True), variant.round)
            solver = Solver(seed=seed)
            for group in step.groups:
                solver.add(group.constraint)
            assert solver.check() == "sat"
            trace: list[Action] = []
            run_step(tables, step, solver.model(), variant, trace, free=True)
            assert trace[0] == EndBuy()
            checked += 1
        if checked >= 6:
            break
    assert checked >= 4, "too few playouts reached a Reshuffle"


@pytest.mark.parametrize("ruling", ["no-effect", "stays-honoured"])
def test_a_banned_card_that_stays_in_the_reserve(ruling: str) -> None:
    """Ruling banned-reserve at Reshuffle Sequence C: Hollywood Glamour (culture, stays) in the Reserve
    while culture is banned goes to the trash pile or stays, and the encoding agrees either way."""
    game = Game(load_cards(), Rulings.parse([f"banned-reserve={ruling}"]))
    tables = Tables.of(game)
    glamour = 23
    for seed in (147, 116, *range(400)):
        state = playout(game, seed, 80)
        if glamour not in state.c_reserve or len(state.c_deck) >= game.cards.rules.company_hand_size:
            continue
        # On to the Buy Phase with one buy made, so that the Draw Phase can follow.
        while state.outcome is None and not (state.phase is Phase.COMPANY_BUY and state.buys and not state.pending):
            actions = legal_actions(state)
            ends = [a for a in actions if isinstance(a, EndPlay)]
            state = apply(state, ends[0] if ends else actions[0])
        if state.outcome is not None or len(state.c_deck) >= game.cards.rules.company_hand_size:
            continue
        supply = list(state.supply)
        supply[TOKEN_INDEX[TokenKind.BANS]] -= 1
        banned = replace(state, banned=("culture",), supply=tuple(supply))
        step = encoder_for(tables, True).end_buy(concrete(tables, banned, True), banned.round)
        solver = Solver()
        for group in step.groups:
            solver.add(group.constraint)
        assert solver.check() == "sat"
        trace: list[Action] = []
        after = run_step(tables, step, solver.model(), banned, trace, free=True)
        assert (glamour in after.c_reserve) == (ruling == "stays-honoured") or after.outcome is not None
        return
    pytest.fail("no playout put Hollywood Glamour in the Reserve before a Reshuffle")


def test_movement_goals_need_the_free_movement() -> None:
    from doubtspec.solver.unrolling import bmc

    game = GAMES["tiny movement"]
    passive = bmc.Unrolling(game).add_round()
    with pytest.raises(ValueError, match="movement_free"):
        bmc.goal_achieved(1)(passive)
    with pytest.raises(ValueError, match="movement_free"):
        bmc.points_at_least(5)(passive)
    free = bmc.Unrolling(game, movement_free=True).add_round()
    with pytest.raises(ValueError, match="numbered 1 to 9"):
        bmc.goal_achieved(12)(free)


@pytest.mark.slow
def test_shipped_set_movement_witnesses_replay() -> None:
    """On the shipped set, the unrolling with a free Movement finds a Goal at turn 1 and points at turn 2, and
    its models replay through the checked engine (a Goal then a second Movement turn over Pacing-free rounds)."""
    from doubtspec.solver.unrolling import bmc
    from doubtspec.solver.unrolling.witness import replay

    game = GAMES["shipped"]
    unrolling = bmc.Unrolling(game, movement_free=True)
    first = unrolling.add_round()
    assert unrolling.check(bmc.goal_achieved(1)(first), "G1") == "sat"
    witness = replay(unrolling.tables, unrolling.steps, unrolling.solver.model())
    assert 1 in witness.final.achieved
    second = unrolling.add_round()
    assert unrolling.check(bmc.points_at_least(2)(second), "two points") == "unsat"
    assert unrolling.check(and_(bmc.goal_achieved(2)(second), not_(bmc.goal_achieved(2)(first))), "G2") == "sat"
    witness = replay(unrolling.tables, unrolling.steps, unrolling.solver.model())
    assert 2 in witness.final.achieved


# --- whole games: Movement turns, and the Company steps that read the Movement's side ---

PASS = "a Pass"
FLIP = "a payment by flipping Tableau cards"
FULL = "a play into a full Tableau, which drops a card"
BONUS = "a play receiving a Bonus from its nearest face-up neighbour"
SKIPPED = "a play whose nearest face-up neighbour is not the card at that end"
SURCHARGE = "a buy of a Market card carrying Lobbying"
PAID_ICONS = "a buy whose payment flips a card bearing icons its Action counts"
FLIGHT = "a buy with Flight to spend"
VICTIMS = "Messaging that removes Victims"
DOUBT = "Messaging that removes Doubt only"
AGITATE = "Agitation on a Goal"
ORGANIZE = "Organize: a free play after a buy"
SKIP_FOLLOW = "a buy whose follow-up is declined"
REFILL = "a Market refill drawn from the Market deck"
GOAL = "a Goal achieved"
BAN = "a kind of Company card banned"
OVER = "a turn that ends the game"
COMMON = frozenset({PASS, FLIP})
"""Situations most turns show, checked by the generated states above; a turn showing only these is not checked."""
UNLOBBY = "an Unlobby by the Company"
PACING = "a Draw Phase that runs the Reshuffle Sequence, so Pacing"
BANNED = "a Company step while a kind is banned"
BANNED_STEPS = 3
"""Company steps with a kind banned are many in a game that bans; the first few of each game are checked."""
BANNED_RESERVE = "a Company step with a banned card in its Reserve"
BANNED_SEQUENCE = "a Reshuffle Sequence with a banned card in the Reserve"
BANNED_TRIGGER = "a play whose trigger and icon a banned card in the Reserve shares"
LOOPHOLES = "a play of a banned card's standard side, which Loopholes in the Reserve allows"
MARKET_RESHUFFLE = "a Market refill that makes the Movement's discards the Market deck"


@dataclass(frozen=True, slots=True)
class MovementTurn:
    """A Movement turn of a simulated game: its action, then every move up to the Company's next decision."""

    moves: tuple[Move, ...]

    @property
    def before(self) -> GameState:
        return self.moves[0].before

    @property
    def action(self) -> Action:
        return self.moves[0].action

    @property
    def follow(self) -> Action | None:
        """The Messaging, Agitation or Organize decision after a buy, if the engine asked for one."""
        return self.moves[1].action if len(self.moves) > 1 and self.moves[1].actor is Actor.MOVEMENT else None

    @property
    def fills(self) -> tuple[int, ...]:
        """The Market deck's cards drawn into empty spaces, in order (chance)."""
        return tuple(move.action.outcome for move in self.moves  # type: ignore[union-attr]
                     if move.actor is Actor.CHANCE and isinstance(move.before.pending[0], FillMarket))

    @property
    def after(self) -> GameState:
        return self.moves[-1].after


def movement_turns(moves: Sequence[Move]) -> Iterator[MovementTurn]:
    """The Movement turns of a game's moves."""
    for k, move in enumerate(moves):
        if move.actor is Actor.MOVEMENT and not move.before.pending and move.before.phase is Phase.MOVEMENT_TURN:
            end = next((j for j in range(k + 1, len(moves))
                        if moves[j].actor is Actor.COMPANY and not moves[j].before.pending), len(moves))
            yield MovementTurn(tuple(moves[k:end]))


def turn_situations(turn: MovementTurn) -> set[str]:
    """The situations a Movement turn shows."""
    before, action, follow, after = turn.before, turn.action, turn.follow, turn.after
    found = set()
    match action:
        case Pass():
            found.add(PASS)  # the Pass bonus (ruling pass-bonus)
        case MovementPlay(remove=remove) if remove is not None:
            found.add(FULL)  # Tableau limit: the card dropped goes to the discards
        case MovementBuy(space=space):
            if before.market_profit[space]:
                found.add(SURCHARGE)  # Lobbying raises the card's cost and goes back to the supply
            if before.flight:
                found.add(FLIGHT)  # Flight pays like Influence, and comes back at Pacing
            if paid_icons(before, space, action.flip):
                found.add(PAID_ICONS)  # the Action counts the icons face up once the payment is made
    if getattr(action, "flip", ()):
        found.add(FLIP)  # Influence from flipping face-up Tableau cards
    if isinstance(action, MovementPlay):
        found |= placement_situations(before, action.card, action.end, action.remove, action.flip)
    if isinstance(follow, OrganizePlay):
        found |= placement_situations(turn.moves[1].before, follow.card, follow.end, follow.remove, ())
    match follow:
        case Message(victims=victims):
            found.add(VICTIMS if victims else DOUBT)  # Messaging: Doubt first, then Victims of one zone
        case Agitate():
            found.add(AGITATE)
        case OrganizePlay():
            found.add(ORGANIZE)
        case Skip():
            found.add(SKIP_FOLLOW)
    if turn.fills:
        found.add(REFILL)
    if len(after.achieved) > len(before.achieved):
        found.add(GOAL)  # the Goal's effects: bans, hand size, Restrictions
    if len(after.banned) > len(before.banned):
        found.add(BAN)
    if after.outcome is not None:
        found.add(OVER)
    if market_reshuffled(turn.moves):
        found.add(MARKET_RESHUFFLE)
    return found


def discards_became_deck(before: GameState, after: GameState) -> bool:
    """Whether the step from `before` to `after` refilled the Market from an empty deck by taking the Movement's
    discards as the new deck (Movement Cards, Discard): the only way the discards ever shrink."""
    return len(after.m_discard) < len(before.m_discard)


def market_reshuffled(moves: Sequence[Move]) -> bool:
    """Whether a refill among `moves` took the Movement's discards as the Market deck (`discards_became_deck`)."""
    return any(discards_became_deck(move.before, move.after) for move in moves)


ICONS_COUNTED = {MarketAction.RESEARCH: "research", MarketAction.MESSAGING: "messaging",
                 MarketAction.AGITATION: "agitation"}
"""The Market Actions that count the Tableau's face-up icons, with the icon each counts (Buying a Card)."""


def paid_icons(before: GameState, space: int, flip: tuple[int, ...]) -> bool:
    """Whether a buy of `space` flips, to pay, a card bearing the icons the space's Action counts."""
    game = before.game
    icon = ICONS_COUNTED.get(game.cards.market[space].action)
    return icon is not None and any(getattr(game.movement_card(before.tableau[k][0]).icons, icon) for k in flip)


def placement_situations(before: GameState, card: int, end: End, remove: int | None,
                         flip: tuple[int, ...]) -> set[str]:
    """Which card a placement's Bonuses come from (Playing a Card, Bonuses): the nearest face-up card from the
    chosen end, once the payment's flips and the ninth card's removal are done."""
    tableau = [(other, up and k not in flip) for k, (other, up) in enumerate(before.tableau)]
    if remove is not None:
        del tableau[remove]
    facing = tableau[::-1] if end is End.RIGHT else tableau
    ups = [k for k, (_, up) in enumerate(facing) if up]
    if not ups:
        return set()
    found = {SKIPPED} if ups[0] else set()
    game = before.game
    new, neighbour = game.movement_card(card), game.movement_card(facing[ups[0]][0])
    if aligned(new.left, neighbour.right) if end is End.RIGHT else aligned(new.right, neighbour.left):
        found.add(BONUS)
    return found


def company_situations(move: Move, rest: Sequence[Move] = ()) -> set[str]:
    """The situations of a Company step at rest whose rules read the Movement's side of the state; `rest` is the
    game's moves after it up to the next decision (the refills and draws of its chance)."""
    before = move.before
    if move.actor is not Actor.COMPANY or before.pending or before.phase not in (Phase.COMPANY_PLAY,
                                                                                  Phase.COMPANY_BUY):
        return set()
    found = set()
    sequence = isinstance(move.action, EndBuy) and move.after.reshuffles > before.reshuffles
    if isinstance(move.action, Unlobby):
        found.add(UNLOBBY)  # Lobbying taken back from a Market card or a Goal
    if sequence:
        found.add(PACING)  # the Movement's passives, the Market's shift and refill, Flight back
    if before.banned:
        found.add(BANNED)  # banned cards are not played and leave the Reserve (ruling banned-reserve)
    game = before.game
    if isinstance(move.action, PlayStandard) and game.company_card(move.action.card).kind in before.banned:
        found.add(LOOPHOLES)  # Interference: a banned standard side is played only with Loopholes in the Reserve
    banned = [game.company_card(card).reserve for card in before.c_reserve
              if game.company_card(card).kind in before.banned]
    if banned:
        # Interference: a banned card in the Reserve never triggers, and the Sequence reads the ruling for it
        found.add(BANNED_SEQUENCE if sequence else BANNED_RESERVE)
        side = game.company_card(move.action.card).standard if isinstance(move.action, PlayStandard) else None
        if side is not None and side.trigger is not None and any(
                r is not None and (r.trigger, r.icon) == (side.trigger, side.icon) for r in banned):
            found.add(BANNED_TRIGGER)  # Reserve Effects: it would have been activated, were it not banned
    if market_reshuffled((move, *rest)):
        found.add(MARKET_RESHUFFLE)
    return found


def company_steps(moves: Sequence[Move]) -> Iterator[tuple[Move, set[str]]]:
    """Each Company step at rest of a game's moves, with its situations (`company_situations`)."""
    for k, move in enumerate(moves):
        if move.actor is Actor.COMPANY and not move.before.pending:
            end = next((j for j in range(k + 1, len(moves)) if moves[j].actor is not Actor.CHANCE), len(moves))
            yield move, company_situations(move, moves[k + 1:end])


def check_movement_turn(game: Game, turn: MovementTurn) -> None:
    """The Movement's step with the turn's decisions and draws fixed replays as the game's own moves, to the
    same state."""
    trace: list[Action] = []
    after = replay_movement_turn(Tables.of(game), turn.before, turn.action, turn.follow, turn.fills, trace, 0)
    assert trace == [move.action for move in turn.moves], f"{turn.before.summary()}: {trace}"
    assert after == turn.after, f"{turn.before.summary()}: the engine's successor differs from the game's"


OTHER = "shipped, other rulings"
WHOLE_GAMES = {"shipped": GAMES["shipped"], "large": Game(load_cards(DATA / "large.toml")), OTHER: GAMES[OTHER]}
WHOLE = (
    ("shipped", 1002, "careful", "greedy", (BONUS, SKIPPED, PAID_ICONS, FLIGHT, AGITATE, GOAL, BAN, OVER, PACING,
                                            BANNED)),
    ("shipped", 1002, "greedy", "greedy", (BONUS, SKIPPED, PAID_ICONS, FLIGHT, AGITATE, ORGANIZE, REFILL, GOAL, BAN,
                                           OVER, BANNED)),
    ("shipped", 1006, "careful", "random", (FULL, SKIPPED, PAID_ICONS, UNLOBBY)),
    ("shipped", 1009, "greedy", "greedy", (BONUS, SKIPPED, FLIGHT, VICTIMS, AGITATE, ORGANIZE, REFILL, GOAL)),
    ("shipped", 1011, "careful", "random", (SURCHARGE, SKIP_FOLLOW, PACING)),
    ("shipped", 1025, "random", "random", (DOUBT,)),
    ("shipped", 1026, "random", "greedy", (BONUS, SKIPPED, PAID_ICONS, AGITATE, ORGANIZE, REFILL, GOAL)),
    ("shipped", 1027, "greedy", "random", (PAID_ICONS, DOUBT, SKIP_FOLLOW)),
    ("large", 1009, "careful", "greedy", (BONUS, SKIPPED, SURCHARGE, PAID_ICONS, AGITATE, GOAL, BAN, OVER, PACING,
                                          BANNED)),
    ("large", 1022, "careful", "random", (FULL, SURCHARGE, PAID_ICONS, SKIP_FOLLOW)),
    ("large", 1026, "greedy", "greedy", (BONUS, SKIPPED, PAID_ICONS, AGITATE, ORGANIZE, REFILL, GOAL, PACING)),
    ("large", 1027, "careful", "random", (PAID_ICONS, DOUBT, SKIP_FOLLOW, UNLOBBY, PACING)),
    ("large", 1031, "greedy", "greedy", (BONUS, FLIGHT, VICTIMS, AGITATE, ORGANIZE, REFILL, GOAL, BAN, OVER, PACING,
                                         BANNED)),
    (OTHER, 1001, "careful", "random", (FULL, PAID_ICONS, ORGANIZE, SKIP_FOLLOW, REFILL)),
    (OTHER, 1008, "careful", "random", (SURCHARGE, PAID_ICONS, UNLOBBY, PACING)),
    (OTHER, 1011, "random", "random", (SKIP_FOLLOW, PACING)),
    (OTHER, 1019, "careful", "greedy", (BONUS, PAID_ICONS, FLIGHT, AGITATE, GOAL, BAN, OVER, BANNED)),
    (OTHER, 1025, "random", "random", (DOUBT,)),
    (OTHER, 1026, "random", "greedy", (BONUS, SKIPPED, PAID_ICONS, AGITATE, ORGANIZE, REFILL, GOAL)),
    (OTHER, 1034, "careful", "greedy", (FULL, BONUS, SKIPPED, SURCHARGE, PAID_ICONS, FLIGHT, VICTIMS, AGITATE, GOAL,
                                        BAN, OVER, PACING, BANNED)),
)
"""Simulated games (card file, seed, agents, situations shown) whose Movement turns show every situation above at
least twice on each card file (picked from seeds 1,000-1,039 and every pairing, fewest checked steps first; the
careful Movement plays as the random one, so its games are left out). Every turn of such a game in a situation
beyond `COMMON` is checked, and so is every Company step in one of the listed Company situations (the first
`BANNED_STEPS` of them for `BANNED`)."""


@pytest.mark.parametrize(("name", "seed", "company", "movement", "situations"), WHOLE)
def test_movement_turns_of_whole_games_agree(name: str, seed: int, company: str, movement: str,
                                             situations: tuple[str, ...]) -> None:
    game = WHOLE_GAMES[name]
    moves = list(iter_game(game, seed, Matchup(company, movement), 40))
    shown: set[str] = set()
    for turn in movement_turns(moves):
        found = turn_situations(turn)
        if found - COMMON:
            check_movement_turn(game, turn)
        shown |= found
    banned = 0
    for move, found in company_steps(moves):
        if found - {BANNED} or (found and banned < BANNED_STEPS):
            banned += BANNED in found
            actions = legal_actions(move.before)
            check_company_action(game, move.before, actions.index(move.action), 0)
        shown |= found
    # The game must still show each situation, or the test would quietly check less.
    assert shown >= set(situations), f"{name} seed {seed}: {company} against {movement} shows {sorted(shown)}"


BANNED_GAMES = (
    ("shipped", 1155, "careful", "random", (BANNED_RESERVE, BANNED_SEQUENCE, BANNED_TRIGGER)),
    ("shipped", 1060, "greedy", "greedy", (BANNED_RESERVE, BANNED_SEQUENCE)),
    ("shipped", 1162, "greedy", "greedy", (BANNED_RESERVE, BANNED_TRIGGER)),
    ("large", 1064, "careful", "greedy", (BANNED_RESERVE, BANNED_SEQUENCE, BANNED_TRIGGER)),
    ("large", 1103, "careful", "greedy", (BANNED_RESERVE, BANNED_SEQUENCE)),
    ("large", 1162, "greedy", "greedy", (BANNED_RESERVE, BANNED_TRIGGER)),
    (OTHER, 1051, "careful", "greedy", (BANNED_RESERVE, BANNED_SEQUENCE)),
    (OTHER, 1107, "careful", "greedy", (BANNED_RESERVE, BANNED_SEQUENCE)),
    (OTHER, 1161, "careful", "greedy", (BANNED_RESERVE, BANNED_TRIGGER)),
    (OTHER, 1088, "careful", "greedy", (BANNED_RESERVE, BANNED_TRIGGER)),
    ("shipped", 1113, "careful", "greedy", (LOOPHOLES,)),
    ("shipped", 1144, "careful", "greedy", (LOOPHOLES,)),
    ("large", 1110, "careful", "greedy", (LOOPHOLES,)),
    ("large", 1112, "careful", "greedy", (LOOPHOLES,)),
    (OTHER, 1140, "careful", "greedy", (LOOPHOLES,)),
    (OTHER, 1170, "careful", "greedy", (LOOPHOLES,)),
)
"""Simulated games (card file, seed, agents, situations shown) in which a card sits in the Company's Reserve while
its kind is banned, or a banned card is played thanks to Loopholes: each situation at least twice per card file
(from seeds 1,000-1,199 and every pairing, where 29 games of 3,600 showed a Sequence or a matching play with a
banned card in the Reserve; none of `WHOLE` shows one)."""


@pytest.mark.parametrize(("name", "seed", "company", "movement", "situations"), BANNED_GAMES)
def test_company_steps_with_a_banned_card_in_the_reserve_agree(name: str, seed: int, company: str, movement: str,
                                                               situations: tuple[str, ...]) -> None:
    """Interference and ruling banned-reserve: every Company step with a banned card in its Reserve (the card never
    triggers; at the Reshuffle Sequence the ruling says whether it stays), and every play of a banned card's standard
    side (only with Loopholes, itself not banned, in the Reserve)."""
    game = WHOLE_GAMES[name]
    moves = list(iter_game(game, seed, Matchup(company, movement), 40))
    shown: set[str] = set()
    others = 0
    for move, found in company_steps(moves):
        # Every Sequence and matching play with such a card; of its other steps, the first few.
        if found & {BANNED_SEQUENCE, BANNED_TRIGGER, LOOPHOLES} or (BANNED_RESERVE in found and others < BANNED_STEPS):
            others += BANNED_RESERVE in found
            check_company_action(game, move.before, legal_actions(move.before).index(move.action), 0)
        shown |= found
    assert shown >= set(situations), f"{name} seed {seed}: {company} against {movement} shows {sorted(shown)}"


def with_market_deck_discarded(state: GameState) -> GameState:
    """`state` with the Market deck's cards moved to the Movement's discards, so that the next refill finds the deck
    empty and makes the discards the deck (Movement Cards, Discard). No simulated game gets there: after 33 rounds
    the Market deck still holds 14 of its 33 cards, and 3,600 games of 40 rounds at most never emptied it."""
    return replace(state, m_deck=(), m_discard=tuple(sorted(state.m_discard + state.m_deck)))


def reshuffles_market(state: GameState, actions: Sequence[Action]) -> bool:
    """Whether playing `actions` from `state`, then the first outcome of each chance up to the next decision, makes
    the Movement's discards the Market deck (`discards_became_deck`)."""
    steps = list(actions)
    while steps or (state.outcome is None and current_actor(state) is Actor.CHANCE):
        after = apply(state, steps.pop(0) if steps else legal_actions(state)[0])
        if discards_became_deck(state, after):
            return True
        state = after
    return False


REFILL_GAMES = {"shipped": ((1036, "careful", "greedy"), (1006, "careful", "greedy")),
                "large": ((1036, "greedy", "random"), (1024, "careful", "random")),
                OTHER: ((1005, "careful", "greedy"),)}
"""Simulated games with Market refills after Movement buys and at Pacing, at least two of each per card file (both
are rare: one or two of each in a game; picked from seeds 1,000-1,039 and every pairing)."""


@pytest.mark.parametrize("name", sorted(REFILL_GAMES))
def test_refills_from_an_empty_market_deck_agree(name: str) -> None:
    """Movement Cards, Discard: each Movement turn and each Pacing of whole games that refills the Market, from its
    state with the Market deck moved to the discards (`with_market_deck_discarded`), is the engine's."""
    game = WHOLE_GAMES[name]
    turns = steps = 0
    for seed, company, movement in REFILL_GAMES[name]:
        moves = list(iter_game(game, seed, Matchup(company, movement), 40))
        for turn in movement_turns(moves):
            state = with_market_deck_discarded(turn.before)
            follows = () if turn.follow is None else (turn.follow,)
            if REFILL in turn_situations(turn) and reshuffles_market(state, (turn.action, *follows)):
                after = apply(state, turn.action)
                pick = 0 if turn.follow is None else legal_actions(after).index(turn.follow)
                check_movement_action(game, state, turn.action, pick, 0)
                turns += 1
        for move, found in company_steps(moves):
            state = with_market_deck_discarded(move.before)
            if PACING in found and reshuffles_market(state, (move.action,)):
                check_company_action(game, state, legal_actions(state).index(move.action), 0)
                steps += 1
    # Each kind must still be met, or the test would quietly check less.
    assert turns >= 2 and steps >= 2, (turns, steps)


@pytest.mark.parametrize(("name", "seed", "matchup"), searching_games(WHOLE_GAMES, Side.MOVEMENT))
def test_every_movement_turn_of_a_searching_agents_game_agrees(name: str, seed: int, matchup: Matchup) -> None:
    """Every Movement turn, and every Company step reading the Movement's side, of a game whose Movement searches
    (`searching_games`): it plans its buys, Messaging and Goals."""
    game = WHOLE_GAMES[name]
    moves = list(played(game, seed, matchup, ROUNDS))
    turns = list(movement_turns(moves))
    for turn in turns:
        check_movement_turn(game, turn)
    for move, found in company_steps(moves):
        if found:
            check_company_action(game, move.before, legal_actions(move.before).index(move.action), 0)
    assert turns


PLAIN_AGENTS = sorted(set(AGENTS) - NEEDS_SPIEL)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(WHOLE_GAMES))
@pytest.mark.parametrize(("company", "movement"), [(c, m) for c in PLAIN_AGENTS for m in PLAIN_AGENTS])
def test_every_movement_turn_of_whole_games_agrees(name: str, company: str, movement: str) -> None:
    """Every Movement turn, and every Company step reading the Movement's side, of two games per pairing of the
    agents that need no optional extra (about 5 CPU-minutes in all)."""
    game = WHOLE_GAMES[name]
    for seed in (2000, 2001):
        moves = list(iter_game(game, seed, Matchup(company, movement), 40))
        for turn in movement_turns(moves):
            check_movement_turn(game, turn)
        for move, found in company_steps(moves):
            if found:
                check_company_action(game, move.before, legal_actions(move.before).index(move.action), 0)
