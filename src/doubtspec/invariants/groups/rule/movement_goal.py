"""`rule.*` postconditions of Agitation and Goals: what an Agitation offers, and what achieving a Goal (or
progress on it) does."""

from __future__ import annotations

from typing import cast

from doubtspec.invariants.derived import at_rest, icon_agitations, legal, replace
from doubtspec.invariants.groups.rule.frame import TURN_START, in_supply, minus, sorted_cards, unchanged_except
from doubtspec.invariants.groups.rule.movement_play import Table, movement_turn
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, Agitate, Skip
from doubtspec.model.cards import AddRestriction, Ban, GainFlight, GainInfluence, TokenKind
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, GameState, OutcomeReason, Phase, Side
from doubtspec.model.steps import Agitation, Messaging, Organize
from doubtspec.rulebook import Section

S = Section


_MOVEMENT_ACTIONS = (Agitation, Messaging, Organize)
"""The Actions of a Market space, each a choice of the Movement's once bought."""


def _goal(before: GameState, action: Action, after: GameState) -> str | None:
    """Agitation and Goals: achieve the Goal when icons and tokens cover its cost (plus its Profit, less the
    Agitation on it), with exactly its effects; otherwise the Agitation stays on it as progress
    (`_goal_progress`)."""
    if not isinstance(action, Agitate) or not before.pending or not isinstance(before.pending[0], Agitation):
        return None
    icons, slot = before.pending[0].icons, action.slot
    number = before.goals[slot]
    goal = before.game.goal(number)
    need = goal.cost + before.goal_profit[slot] - before.goal_agitation[slot]
    if after.agitation != before.agitation - action.tokens:
        return f"{action} left {after.agitation} Agitation tokens; {action.tokens} were spent"
    # An Agitation works on one Goal (Buying a Card: the Action completes a Goal), whatever the icons left over; the
    # frame below lets `pending` change as the Company's turn starts, so a further Movement choice is looked for here.
    further = [type(s).__name__ for s in after.pending if isinstance(s, _MOVEMENT_ACTIONS)]
    if after.outcome is None and further:
        return f"{action} left {', '.join(further)} pending; the Agitation works on one Goal and ends the buy"
    frame = ["goals", "goal_profit", "goal_agitation", "achieved", "agitation", "supply", "m_hand", "market",
             *TURN_START]
    if icons + action.tokens < need:
        if after.goals != before.goals or after.achieved != before.achieved:
            return f"{action} achieved Goal {number} with {icons + action.tokens} Agitation of the {need} it needs"
        return _goal_progress(before, action, after, icons) or unchanged_except(
            before, after, ("goal_agitation", "agitation", "supply", "m_hand", "market", *TURN_START), action)
    if after.goals[slot] != NO_CARD or after.achieved != (*before.achieved, number):
        return f"{action} with {icons + action.tokens} Agitation of {need} did not achieve Goal {number}"
    if after.goal_profit[slot] or after.goal_agitation[slot] or after.profit != before.profit:
        return f"{action}: achieving Goal {number} returns its Profit to the Company's supply and clears its Agitation"
    # The tokens spent now and those left on the Goal as progress all go back to the supply.
    agitation = TOKEN_INDEX[TokenKind.AGITATION]
    returned = action.tokens + before.goal_agitation[slot]
    if after.supply[agitation] - before.supply[agitation] != returned:
        return (f"{action}: achieving Goal {number} put {after.supply[agitation] - before.supply[agitation]} "
                f"Agitation back in the supply; the {action.tokens} spent and the {before.goal_agitation[slot]} on "
                f"the Goal make {returned}")
    # Exactly the Goal's effects: its bans, its Restriction cards, its Flight and Influence.
    bans: list[str] = []
    for effect in goal.effects:
        if isinstance(effect, Ban) and effect.kind not in before.banned and effect.kind not in bans:
            bans.append(effect.kind)
    bans = bans[:in_supply(before, TokenKind.BANS)]
    if after.banned != tuple(sorted((*before.banned, *bans))):
        return f"achieving Goal {number} ({goal.name}) banned {list(after.banned)}; it bans {sorted(bans)} more"
    taken = in_supply(before, TokenKind.BANS) - in_supply(after, TokenKind.BANS)
    if taken != len(bans):
        return (f"achieving Goal {number} ({goal.name}) took {taken} Banned tokens from the supply; its "
                f"{len(bans)} new ban(s) take one each, whatever the Company holds of the kind")
    restrictions = sum(e.count for e in goal.effects if isinstance(e, AddRestriction))
    piles, discard = list(before.piles), list(before.c_discard)
    pile = next((i for i, p in enumerate(before.cards.piles) if p.kind == "restriction"), None)
    if pile is not None:
        for _ in range(restrictions):
            if piles[pile]:
                discard.append(piles[pile][-1])
                piles[pile] = piles[pile][:-1]
    if after.trash != before.trash:
        return (f"achieving Goal {number} ({goal.name}) took the trash pile {list(before.trash)} to "
                f"{list(after.trash)}; its Restriction cards come from the Restrictions pile only")
    if after.piles != tuple(piles) or after.c_discard != sorted_cards(discard):
        return (f"achieving Goal {number} ({goal.name}) left the discard pile {list(after.c_discard)}; "
                f"it adds {restrictions} Restriction card(s) from the pile: {sorted_cards(discard)}")
    table = Table.of(before)
    table.gain(TokenKind.FLIGHT, sum(e.count for e in goal.effects if isinstance(e, GainFlight)))
    table.gain(TokenKind.INFLUENCE, sum(e.count for e in goal.effects if isinstance(e, GainInfluence)))
    if after.flight != table.flight or after.influence != table.influence:
        return (f"achieving Goal {number} left Flight {after.flight} and Influence {after.influence}; "
                f"its effects give {table.flight} and {table.influence}")
    points = sum(before.game.goal(g).points for g in after.achieved)
    won = after.outcome is not None and after.outcome.reason is OutcomeReason.GOAL_VICTORY
    if won is not (points >= before.cards.rules.goal_points_to_win):
        return f"with {points} Goal points achieved the game {'ended' if won else 'went on'}"
    return unchanged_except(before, after, (*frame, "banned", "piles", "c_discard", "flight", "influence"), action)


def _goal_progress(before: GameState, action: Agitate, after: GameState, icons: int) -> str | None:
    """Agitation and Goals, a Goal not achieved: the icon Agitation is converted to tokens (as far as the supply
    holds them, ruling supply-exhausted) and left on the Goal with the tokens spent, as progress for a later
    Agitation; no Agitation goes back to the supply."""
    slot, index = action.slot, TOKEN_INDEX[TokenKind.AGITATION]
    converted = min(icons, before.supply[index])
    progress = before.goal_agitation[slot] + converted + action.tokens
    expected = (*before.goal_agitation[:slot], progress, *before.goal_agitation[slot + 1:])
    if after.goal_agitation != expected:
        return (f"{action} left the Agitation on the Goals at {list(after.goal_agitation)}; Goal place {slot} "
                f"holds {before.goal_agitation[slot]}, gains {converted} converted from the {icons} icons and the "
                f"{action.tokens} tokens spent: {list(expected)}")
    supply = list(before.supply)
    supply[index] -= converted
    if after.supply != tuple(supply):
        return (f"{action} took the supply from {list(before.supply)} to {list(after.supply)}; converting "
                f"{converted} icon Agitation to tokens takes exactly those from it: {supply}")
    return None


def _agitation_applies(state: GameState) -> bool:
    """An Agitation choice pending (where `rule.agitation-offers` asks its question)."""
    return state.outcome is None and bool(state.pending) and isinstance(state.pending[0], Agitation)


def _agitation_offers(state: GameState) -> str | None:
    """At an Agitation choice, each Goal offered takes from no tokens up to what it still needs, and with one and
    two Agitation already on it (progress is rare in generated games, and so are tokens to spend: the
    what-if holds nine) one and two tokens fewer.

    The same is asked of an Agitation with no icon and with one (generated games mostly bring two or
    more), and of a Goal already paid for (its Agitation at its cost plus its Profit, or one beyond: the
    Company took back Lobbying after progress was placed), which is claimed with no new Agitation. Spending
    is the player's choice (unspent tokens stay), so declining is offered whenever some Goal is.
    """
    if not _agitation_applies(state):
        return None
    from doubtspec.model.legal import choice_actions

    pending = cast(Agitation, state.pending[0])  # what `_agitation_applies` asked
    slots = sorted({a.slot for a in legal(state) if isinstance(a, Agitate)})
    for slot in slots:
        full = state.game.goal(state.goals[slot]).cost + state.goal_profit[slot]
        for icons in sorted({pending.icons, 0, 1}):
            step = Agitation(icons=icons)
            for progress, held in ((state.goal_agitation[slot], state.agitation), (1, 9), (2, 9), (full, 9),
                                   (full + 1, 9)):
                # With nine tokens held the offer is bounded by the Goal's need, not by the tokens.
                agitation = (*state.goal_agitation[:slot], progress, *state.goal_agitation[slot + 1:])
                probe = replace(state, goal_agitation=agitation, agitation=max(held, state.agitation))
                need = full - progress
                top = min(probe.agitation, max(0, need - icons))
                expected = {t for t in range(top + 1) if icons + t > 0 or need <= 0}
                choices = choice_actions(probe, step)
                offered = {a.tokens for a in choices if isinstance(a, Agitate) and a.slot == slot}
                if (Skip(Side.MOVEMENT) in choices) is not any(isinstance(a, Agitate) for a in choices):
                    return (f"with {progress} Agitation on Goal place {slot} and {icons} from icons the engine "
                            f"offers {[str(a) for a in choices]}: declining (spending nothing) is offered exactly "
                            "when some Goal is")
                if offered != expected:
                    return (f"with {progress} Agitation on Goal place {slot} (needing {need}, {icons} from icons, "
                            f"{probe.agitation} tokens held) the engine offers {sorted(offered)} tokens, not "
                            f"{sorted(expected)}")
    return None


_PYRAMID_ROWS = (4, 3, 2)
"""Movement Set-Up 2 and ruling goal-overlap=pyramid: places 0-3 in the first row, 4-6 on them, 7-8 on top."""


def _pyramid_available(goals: tuple[int, ...]) -> set[int]:
    """The places whose Goal is unobstructed: a card of the next row lies across the two cards it sits between."""
    starts = [sum(_PYRAMID_ROWS[:r]) for r in range(len(_PYRAMID_ROWS))]
    free = set()
    for row, size in enumerate(_PYRAMID_ROWS):
        for i in range(size):
            place = starts[row] + i
            above = [] if row + 1 == len(_PYRAMID_ROWS) else [
                starts[row + 1] + j for j in (i - 1, i) if 0 <= j < _PYRAMID_ROWS[row + 1]]
            if goals[place] != NO_CARD and all(goals[a] == NO_CARD for a in above):
                free.add(place)
    return free


def _goal_structure_applies(state: GameState) -> bool:
    """A Movement turn, nothing pending, with the nine places of a pyramid of Goals (ruling goal-overlap)."""
    return (movement_turn(state) and state.rulings.get("goal-overlap") == "pyramid"
            and len(state.goals) == sum(_PYRAMID_ROWS))


def _goal_structure_offers(state: GameState) -> str | None:
    """On each Movement turn, the Goals an Agitation may work on are exactly the unobstructed ones.

    Agitation and Goals: only a Goal no other card covers is available (ruling goal-overlap); with
    icons enough for any Goal, the places offered must be the structure's free places.
    """
    if not _goal_structure_applies(state):
        return None
    offered = {a.slot for a in icon_agitations(state)[1]}
    free = _pyramid_available(state.goals)
    if offered != free:
        return (f"with the Goal structure {list(state.goals)}, Agitation was offered places {sorted(offered)}; "
                f"the unobstructed ones are {sorted(free)}")
    return None


def _goal_offers(state: GameState) -> str | None:
    """On each Movement turn, achieve each available Goal with Agitation to spare and check what it does,
    also with the Restrictions pile empty (and, for the Goals that add a Restriction card, with one of its
    cards on the trash pile), and once more with one Agitation already on it and one token spent.

    What a Goal does to the Company (its bans, its Restriction card) happens only when a Goal is
    achieved, which generated games reach late; an Agitation with icons enough for any Goal, answered
    for each available Goal, checks `rule.goal` for every Goal the structure offers, every turn. A Goal
    achieved over several turns (progress on it, then tokens) is rarer still, and it is the one case
    where tokens from two places go back to the supply at once.
    """
    if not at_rest(state) or state.phase is not Phase.MOVEMENT_TURN:
        return None
    situations = [("", state, False)]
    pile = next((i for i, p in enumerate(state.cards.piles) if p.kind == "restriction"), None)
    if pile is not None and state.piles[pile]:
        # The Restrictions pile already emptied by earlier Goals (its cards in the Company's discard pile):
        # a Goal's Restriction card then adds nothing, a state generated games hardly ever reach.
        emptied = replace(state, piles=tuple(() if i == pile else p for i, p in enumerate(state.piles)),
                          c_discard=sorted_cards(state.c_discard + state.piles[pile]))
        situations.append((" with the Restrictions pile empty", emptied, False))
    if pile is not None:
        trashed = _restriction_on_trash(state, pile)
        if trashed is not None:
            situations.append((" with the Restrictions pile empty and a Restriction card on the trash pile",
                               trashed, True))
    reserved = _banned_kinds_in_reserve(state)
    if reserved is not None:
        situations.append((" with a card of each kind its Goals ban in the Reserve", reserved, False))
    asked = icon_agitations(state)
    winning = _one_goal_from_victory(state, {a.slot for a in asked[1] if a.tokens == 0})
    if winning is not None:
        situations.append((" with the Movement one Goal from victory", winning, False))
    available: set[int] = set()
    for situation, base, restricting in situations:
        probe, agitations = asked if base is state else icon_agitations(base)
        for action in agitations:
            effects = probe.game.goal(probe.goals[action.slot]).effects
            if restricting and not any(isinstance(e, AddRestriction) for e in effects):
                continue  # the trash pile matters only to a Goal that adds a Restriction card
            if action.tokens == 0:
                if not situation:
                    available.add(action.slot)
                try:
                    after = engine.apply(probe, action)
                except Exception as exc:  # the engine failing on a legal Goal is the finding
                    return f"achieving the Goal at place {action.slot}{situation} raised {type(exc).__name__}: {exc}"
                message = _goal(probe, action, after)
                if message is not None:
                    return f"achieving the Goal at place {action.slot}{situation}: {message}"
    return _goal_progress_offers(state, available)


def _one_goal_from_victory(state: GameState, available: set[int]) -> GameState | None:
    """`state` with Goals of the structure that are not `available` counted as achieved until achieving any available
    Goal wins the game, or None when no choice of them lands there: the Goal that wins still does all it does
    (Agitation and Goals), and a victory by Goals ends a generated game only after dozens of decisions."""
    game, target = state.game, state.cards.rules.goal_points_to_win
    if not available:
        return None
    needed = target - min(game.goal(state.goals[s]).points for s in available)
    points = sum(game.goal(g).points for g in state.achieved)
    goals, achieved = list(state.goals), list(state.achieved)
    # Marking a Goal achieved only uncovers others, so the available ones stay available.
    for place, number in sorted(enumerate(state.goals), key=lambda p: -game.goal(p[1]).points if p[1] else 0):
        if points >= needed:
            break
        if (place in available or number == NO_CARD or state.goal_profit[place] or state.goal_agitation[place]
                or points + game.goal(number).points >= target):
            continue
        points += game.goal(number).points
        goals[place], achieved = NO_CARD, [*achieved, number]
    if not needed <= points < target:
        return None
    return replace(state, goals=tuple(goals), achieved=tuple(achieved))


def _banned_kinds_in_reserve(state: GameState) -> GameState | None:
    """`state` with one card the Company owns of each kind a Goal in the structure bans moved into its Reserve (a
    card with a Reserve side, not banned yet), or None when it owns none: a ban puts one Banned token on the
    kind whatever its cards in play (Movement Rules > Interference), and generated games seldom achieve a banning
    Goal with such a card in the Reserve."""
    game = state.game
    kinds = {e.kind for g in state.goals if g != NO_CARD for e in game.goal(g).effects
             if isinstance(e, Ban) and e.kind not in state.banned}
    moved: list[int] = []
    for kind in sorted(kinds):
        card = next((c for c in (*state.c_hand, *state.c_deck, *state.c_discard)
                     if game.company_card(c).kind == kind and game.company_card(c).reserve is not None
                     and c not in moved), None)
        if card is not None:
            moved.append(card)
    if not moved:
        return None
    return replace(state, c_hand=minus(state.c_hand, moved), c_deck=tuple(c for c in state.c_deck if c not in moved),
                   c_discard=minus(state.c_discard, moved), c_reserve=(*state.c_reserve, *moved))


def _lobbied_goal_applies(state: GameState) -> bool:
    """A Movement turn, nothing pending, under a ruling that lets the Company lobby Goals."""
    return movement_turn(state) and state.rulings.get("lobby-targets") == "market-and-goals"


def _lobbied_goal_offers(state: GameState) -> str | None:
    """On each Movement turn, agitate each available Goal carrying Company Profit with exactly its printed cost
    (less the Agitation on it), and with that cost plus the Profit.

    Agitation and Goals: each Profit the Company lobbied onto a Goal raises its cost by one (the section's
    printed example counts it in the Agitation still needed). Generated games seldom have the Movement
    agitate a lobbied Goal, so one to three Profit (in turn with the round and the place) are put on each
    available Goal from the Company's supply and an Agitation of icons alone is pending: the printed cost
    must leave the Goal in the structure with the Agitation on it (`rule.goal`), the cost plus the Profit
    must achieve it. Not under ruling lobby-targets=market-only, where no Goal carries Profit.
    """
    if not _lobbied_goal_applies(state):
        return None
    from doubtspec.model.legal import choice_actions

    index = TOKEN_INDEX[TokenKind.PROFIT]
    for slot in sorted({a.slot for a in icon_agitations(state)[1]}):
        lobbied = 1 + (state.round + slot) % 3
        printed, progress = state.game.goal(state.goals[slot]).cost, state.goal_agitation[slot]
        if printed - progress < 1 or lobbied - state.goal_profit[slot] > state.supply[index]:
            continue
        supply = list(state.supply)
        supply[index] -= lobbied - state.goal_profit[slot]
        profit = (*state.goal_profit[:slot], lobbied, *state.goal_profit[slot + 1:])
        for icons in (printed - progress, printed - progress + lobbied):
            step = Agitation(icons=icons)
            probe = replace(state, pending=(step,), goal_profit=profit, supply=tuple(supply))
            action = Agitate(slot, 0)
            where = (f"with {lobbied} Profit on Goal {state.goals[slot]} at place {slot} (printed cost {printed}, "
                     f"{progress} Agitation on it), an Agitation of {icons} icons")
            if action not in choice_actions(probe, step):
                return f"{where} is not offered to work on it"
            after = engine.apply(probe, action)
            achieved = after.goals[slot] == NO_CARD
            if achieved is not (icons >= printed - progress + lobbied):
                return (f"{where} {'achieved' if achieved else 'did not achieve'} it; it needs "
                        f"{printed - progress + lobbied}")
            message = _goal(probe, action, after)
            if message is not None:
                return f"{where}: {message}"
    return None


def _restriction_on_trash(state: GameState, pile: int) -> GameState | None:
    """`state` with the Restrictions pile (`pile`) empty and one Restriction card on top of the trash pile.

    Agitation and Goals: a Goal adds a Restriction card only from the Restrictions pile, never from the
    trash pile (ruling restriction-source). Generated games seldom put one there (the Company must buy it,
    under ruling restriction-pile-buy=buyable, and shred it): the pile's top card goes on the trash pile and
    the rest to the Company's discard pile; with the pile spent already, a Restriction card the Company
    holds goes there instead (None if it holds none).
    """
    cards = state.piles[pile]
    if cards:
        return replace(state, piles=tuple(() if i == pile else p for i, p in enumerate(state.piles)),
                       c_discard=sorted_cards(state.c_discard + cards[:-1]),
                       trash=(*state.trash, cards[-1]))
    kind = state.cards.piles[pile].kind
    card = next((c for c in (*state.c_discard, *state.c_deck, *state.c_hand)
                 if state.game.company_card(c).kind == kind), None)
    if card is None:
        return None
    gone = (card,)  # from whichever of the three holds it
    return replace(state, c_discard=minus(state.c_discard, gone), c_deck=minus(state.c_deck, gone),
                   c_hand=minus(state.c_hand, gone), trash=(*state.trash, card))


def _goal_progress_offers(state: GameState, available: set[int]) -> str | None:
    """`_goal_offers` for each `available` Goal place with one Agitation on it, achieved with icons and one
    token (both from the supply)."""
    from doubtspec.model.legal import choice_actions

    index = TOKEN_INDEX[TokenKind.AGITATION]
    short = max(0, 1 - state.agitation)
    if state.supply[index] < 1 + short:
        return None
    supply = list(state.supply)
    supply[index] -= 1 + short
    for slot in sorted(available):
        full = state.game.goal(state.goals[slot]).cost + state.goal_profit[slot]
        if full < 2 or state.goal_agitation[slot]:
            continue  # the progress alone would pay for it, or the Goal has progress of its own already
        step = Agitation(icons=full - 2)
        agitation = (*state.goal_agitation[:slot], 1, *state.goal_agitation[slot + 1:])
        probe = replace(state, pending=(step,), goal_agitation=agitation,
                        agitation=state.agitation + short, supply=tuple(supply))
        action = Agitate(slot, 1)
        if action not in choice_actions(probe, step):
            return (f"with one Agitation on Goal place {slot} (needing {full - 1} more), {full - 2} from icons and "
                    f"{probe.agitation} tokens held, achieving it with one token is not offered")
        try:
            after = engine.apply(probe, action)
        except Exception as exc:
            return f"achieving the Goal at place {slot} over two turns raised {type(exc).__name__}: {exc}"
        message = _goal(probe, action, after)
        if message is not None:
            return f"achieving the Goal at place {slot} with one Agitation already on it: {message}"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rule.agitation-offers", "An Agitation offers each available Goal from no tokens up to what it "
                   "still needs (its cost, plus its Profit, less the Agitation on it, less the icons), and declining "
                   "whenever it offers a Goal.",
                   (S.AGITATION_AND_GOALS,), _agitation_offers, _agitation_applies),
    StateInvariant("rule.lobbied-goal-offers", "An available Goal carrying one, two or three Profit is not "
                   "achieved by Agitation of its printed cost (less the Agitation on it), which stays on it, and is "
                   "achieved by that plus its Profit.", (S.AGITATION_AND_GOALS, S.COMPANY_INTERFERENCE),
                   _lobbied_goal_offers, _lobbied_goal_applies),
    StateInvariant("rule.goal-structure-offers", "Agitation may work on exactly the Goals no other card of the "
                   "structure covers.", (S.AGITATION_AND_GOALS,), _goal_structure_offers,
                   _goal_structure_applies),
    StateInvariant("rule.goal-offers", "Each available Goal, achieved with Agitation to spare, does exactly what "
                   "`rule.goal` says (its bans, Restriction card, gains, points), also with the Restrictions pile "
                   "empty and a Restriction card on the trash pile, which stays there, and when it wins the game.",
                   (S.AGITATION_AND_GOALS, S.MOVEMENT_INTERFERENCE), _goal_offers),
    TransitionInvariant("rule.goal", "Agitation achieves a Goal exactly when it covers the Goal's cost, with exactly "
                        "the Goal's bans, Restriction cards (never from the trash pile) and gains; otherwise it stays "
                        "on the Goal, its icons converted to tokens from the supply.",
                        (S.AGITATION_AND_GOALS, S.MOVEMENT_INTERFERENCE), _goal),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
