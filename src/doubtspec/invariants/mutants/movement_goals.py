"""Breakages of Messaging and of Agitation and Goals."""

from __future__ import annotations

import dataclasses

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import engine, legal, movement
from doubtspec.model.actions import Action, Agitate, Message, Skip
from doubtspec.model.cards import AddRestriction, TokenKind, Zone
from doubtspec.model.game import Game
from doubtspec.model.state import TOKEN_INDEX, GameState, OutcomeReason, Side
from doubtspec.model.steps import Agitation, Messaging
from doubtspec.model.work import Work, replace_at, sorted_with


def ban_charges_reserve_cards() -> tuple[Patch, ...]:
    original = movement.achieve

    def achieve(w: Work, slot: int) -> None:
        # A ban also takes a Banned token for each card of the kind already in the Company's Reserve.
        before = set(w.banned)
        original(w, slot)
        for kind in set(w.banned) - before:
            w.take(TokenKind.BANS, sum(1 for c in w.c_reserve if w.game.company_card(c).kind == kind))

    return ((movement, "achieve", achieve),)


def doubt_top_down() -> tuple[Patch, ...]:
    def doubt_cost(game: Game, column: Zone, present: int, count: int) -> int:
        # Removal priced from the top space down instead of the bottom one up.
        values = game.cards.display.doubt_values[column]
        return sum(values[i] for i in range(count))

    return ((movement, "doubt_cost", doubt_cost), (legal, "doubt_cost", doubt_cost))


def messaging_goes_on() -> tuple[Patch, ...]:
    original = movement.message

    def message(w: Work, icons: int, zone: Zone, doubts: int, victims: int) -> int:
        # The icons left over start another Messaging, as under messaging-zones=any-zones, whatever the ruling.
        left = original(w, icons, zone, doubts, victims)
        if not w.game.messaging_any_zones:
            w.push(Messaging(left))
        return left

    return ((movement, "message", message),)


def messaging_icons_reused() -> tuple[Patch, ...]:
    original = movement.message

    def message(w: Work, icons: int, zone: Zone, doubts: int, victims: int) -> int:
        # The next Zone gets every icon again, not only those this Zone left over.
        original(w, icons, zone, doubts, victims)
        return icons

    return ((movement, "message", message),)


def spent_messaging_kept_out() -> tuple[Patch, ...]:
    original = movement.message

    def message(w: Work, icons: int, zone: Zone, doubts: int, victims: int) -> int:
        # Under ruling messaging-zones=any-zones the Messaging tokens spent are held back until the last Zone, and
        # then never go back to the supply.
        held = w.messaging
        left = original(w, icons, zone, doubts, victims)
        if w.game.messaging_any_zones:
            w.take(TokenKind.MESSAGING, held - w.messaging)
        return left

    return ((movement, "message", message),)


def victims_discounted() -> tuple[Patch, ...]:
    def message(w: Work, icons: int, zone: Zone, doubts: int, victims: int) -> int:
        # Each Victim removed takes one Messaging off the Doubt's price instead of adding one.
        cost = max(0, movement.doubt_cost(w.game, zone, w.doubt[zone], doubts) - victims)
        from_icons = min(icons, cost)
        from_tokens = cost - from_icons
        w.messaging -= from_tokens
        w.give_back(TokenKind.MESSAGING, from_tokens)
        w.doubt = replace_at(w.doubt, zone, w.doubt[zone] - doubts)
        w.give_back(TokenKind.DOUBT, doubts)
        w.victims = replace_at(w.victims, zone, w.victims[zone] - victims)
        w.give_back(TokenKind.VICTIMS, victims)
        movement.gain(w, influence=victims)
        return icons - from_icons

    return ((movement, "message", message),)


def icons_or_tokens() -> tuple[Patch, ...]:
    original = legal.messaging_choices

    def messaging_choices(state: GameState, step: Messaging) -> list[Action]:
        # Icons and tokens do not add up: a Messaging may spend the larger of the two only.
        return original(dataclasses.replace(state, messaging=0), Messaging(icons=max(step.icons, state.messaging)))

    return ((legal, "messaging_choices", messaging_choices),)


def part_of_column_clears_it() -> tuple[Patch, ...]:
    original = movement.message

    def message(w: Work, icons: int, zone: Zone, doubts: int, victims: int) -> int:
        # Removing the bottom part of a column's Doubt takes the whole column off the display.
        present = w.doubt[zone]
        left = original(w, icons, zone, doubts, victims)
        if 0 < doubts < present:
            w.doubt = tuple(0 if i == zone else n for i, n in enumerate(w.doubt))
        return left

    return ((movement, "message", message),)


def progress_not_credited() -> tuple[Patch, ...]:
    original = legal.agitation_choices

    def agitation_choices(state: GameState, step: Agitation) -> list[Action]:
        # The tokens offered for a Goal ignore the Agitation already on it.
        return original(dataclasses.replace(state, goal_agitation=(0,) * len(state.goal_agitation)), step)

    return ((legal, "agitation_choices", agitation_choices),)


def agitation_needs_two() -> tuple[Patch, ...]:
    original = legal.agitation_choices

    def agitation_choices(state: GameState, step: Agitation) -> list[Action]:
        # A Goal is offered only with two Agitation or more from icons and tokens together.
        kept = [a for a in original(state, step) if not isinstance(a, Agitate) or step.icons + a.tokens > 1]
        return kept if any(isinstance(a, Agitate) for a in kept) else []

    return ((legal, "agitation_choices", agitation_choices),)


def agitation_forced() -> tuple[Patch, ...]:
    original = legal.agitation_choices

    def agitation_choices(state: GameState, step: Agitation) -> list[Action]:
        # Declining an Agitation is not offered: the Movement must put its icons or tokens on a Goal.
        return [a for a in original(state, step) if not isinstance(a, Skip)]

    return ((legal, "agitation_choices", agitation_choices),)


def declined_agitation_banked() -> tuple[Patch, ...]:
    original = engine._apply_to_step

    def apply_to_step(w: Work, action: Action) -> None:
        # Declining an Agitation keeps its icon Agitation as tokens for a later one.
        step = w.pending[0] if w.pending else None
        original(w, action)
        if isinstance(step, Agitation) and isinstance(action, Skip):
            movement.gain(w, agitation=step.icons)

    return ((engine, "_apply_to_step", apply_to_step),)


def progress_kept_on_achieving() -> tuple[Patch, ...]:
    original = movement.agitate

    def agitate(w: Work, icons: int, slot: int, tokens: int) -> None:
        # Achieving a Goal returns the tokens spent now, but the progress on it leaves the game.
        progress = w.goal_agitation[slot]
        achieved = len(w.achieved)
        original(w, icons, slot, tokens)
        if progress and len(w.achieved) > achieved:
            w.take(TokenKind.AGITATION, progress)

    return ((movement, "agitate", agitate),)


def icons_not_left_on_goal() -> tuple[Patch, ...]:
    original = movement.agitate

    def agitate(w: Work, icons: int, slot: int, tokens: int) -> None:
        # A Goal not achieved keeps only the tokens put on it: the icon Agitation is not converted.
        if icons + tokens >= movement.goal_need(w, slot):
            original(w, icons, slot, tokens)
            return
        w.agitation -= tokens
        w.goal_agitation = replace_at(w.goal_agitation, slot, w.goal_agitation[slot] + tokens)

    return ((movement, "agitate", agitate),)


def goal_lobbying_not_charged() -> tuple[Patch, ...]:
    original = movement.agitate

    def agitate(w: Work, icons: int, slot: int, tokens: int) -> None:
        # Achieving a Goal compares the Agitation with its printed cost, leaving out the Profit on it.
        if icons + tokens >= movement.goal_need(w, slot) - w.goal_profit[slot]:
            w.agitation -= tokens
            w.give_back(TokenKind.AGITATION, tokens + w.goal_agitation[slot])
            w.goal_agitation = replace_at(w.goal_agitation, slot, 0)
            movement.achieve(w, slot)
            return
        original(w, icons, slot, tokens)

    return ((movement, "agitate", agitate),)


def restriction_withheld() -> tuple[Patch, ...]:
    original = movement.achieve

    def achieve(w: Work, slot: int) -> None:
        # A Goal's Restriction card is not added to the Company's discard pile.
        piles = w.piles
        original(w, slot)
        if w.piles != piles:
            moved = [c for c in sum(piles, ()) if c not in sum(w.piles, ())]
            w.c_discard = tuple(c for c in w.c_discard if c not in moved)
            w.piles = piles

    return ((movement, "achieve", achieve),)


def restriction_from_empty_pile() -> tuple[Patch, ...]:
    original = movement.achieve

    def achieve(w: Work, slot: int) -> None:
        # A Goal's Restriction card is taken from the pile without looking whether one is left.
        pile = w.game.cards.restriction_pile()
        wants = any(isinstance(e, AddRestriction) for e in w.game.goal(w.goals[slot]).effects)
        if pile is not None and wants and not w.piles[pile]:
            w.c_discard = sorted_with(w.c_discard, w.piles[pile][-1])  # raises IndexError: nothing to take
        original(w, slot)

    return ((movement, "achieve", achieve),)


def restriction_from_trash() -> tuple[Patch, ...]:
    original = movement.achieve

    def achieve(w: Work, slot: int) -> None:
        # With the Restrictions pile empty, a Goal takes a Restriction card from the trash pile instead.
        game = w.game
        adds = any(isinstance(e, AddRestriction) for e in game.goal(w.goals[slot]).effects)
        pile = game.cards.restriction_pile()
        empty = pile is not None and not w.piles[pile]
        original(w, slot)
        found = [c for c in w.trash if game.company_card(c).kind == "restriction"]
        if adds and empty and found:
            w.trash = tuple(c for c in w.trash if c != found[-1])
            w.c_discard = sorted_with(w.c_discard, found[-1])

    return ((movement, "achieve", achieve),)


def goal_victory_only_exact() -> tuple[Patch, ...]:
    original = movement.achieve

    def achieve(w: Work, slot: int) -> None:
        # The Goal Victory needs exactly the points to win: a Goal that goes past them lets the game go on.
        original(w, slot)
        target = w.game.cards.rules.goal_points_to_win
        if w.outcome is not None and w.outcome.reason is OutcomeReason.GOAL_VICTORY and (
                sum(w.game.goal(g).points for g in w.achieved) > target):
            w.outcome = None

    return ((movement, "achieve", achieve),)


def winning_goal_gains_withheld() -> tuple[Patch, ...]:
    original = movement.achieve

    def achieve(w: Work, slot: int) -> None:
        # The Goal that wins the game gives no Flight or Influence: the game is over, so its gains seem moot.
        flight, influence = w.flight, w.influence
        original(w, slot)
        if w.outcome is not None and w.outcome.reason is OutcomeReason.GOAL_VICTORY:
            w.give_back(TokenKind.FLIGHT, w.flight - flight)
            w.give_back(TokenKind.INFLUENCE, w.influence - influence)
            w.flight, w.influence = flight, influence

    return ((movement, "achieve", achieve),)


def agitation_surplus_goes_on() -> tuple[Patch, ...]:
    original = movement.agitate

    def agitate(w: Work, icons: int, slot: int, tokens: int) -> None:
        # The icons a Goal did not need read as going on, in the same Action, towards a Goal it opened up.
        need = movement.goal_need(w, slot)
        original(w, icons, slot, tokens)
        left = icons - max(0, need - tokens)
        if icons + tokens >= need and left > 0 and w.outcome is None:
            w.push(Agitation(left))

    return ((movement, "agitate", agitate),)


def messaging_three_victims_at_most() -> tuple[Patch, ...]:
    original = legal.messaging_choices

    def messaging_choices(state: GameState, step: Messaging) -> list[Action]:
        # A Messaging removes at most three Victims, as if the Lobbying limit of three applied to it.
        return [a for a in original(state, step) if not (isinstance(a, Message) and a.victims > 3)]

    return ((legal, "messaging_choices", messaging_choices),)


def messaging_skip_alone() -> tuple[Patch, ...]:
    original = legal.messaging_choices

    def messaging_choices(state: GameState, step: Messaging) -> list[Action]:
        # Declining is offered even when nothing can be removed, so the step waits for a Skip.
        actions = original(state, step)
        return actions or [Skip(Side.MOVEMENT)]

    return ((legal, "messaging_choices", messaging_choices),)


def messaging_victim_beyond_zone() -> tuple[Patch, ...]:
    original = legal.messaging_choices

    def messaging_choices(state: GameState, step: Messaging) -> list[Action]:
        # A budget left over after the zone's last Victim offers one Victim more than the zone holds.
        actions = original(state, step)
        budget = step.icons + state.messaging
        extra: list[Action] = [
            Message(a.zone, a.doubts, a.victims + 1) for a in actions
            if isinstance(a, Message) and a.doubts == state.doubt[a.zone] and a.victims == state.victims[a.zone]
            and movement.doubt_cost(state.game, a.zone, a.doubts, a.doubts) + a.victims < budget]
        return actions + extra if extra else actions

    return ((legal, "messaging_choices", messaging_choices),)


def ban_guard_reads_flight() -> tuple[Patch, ...]:
    original = Work.take

    def take(self: Work, kind: TokenKind, wanted: int) -> int:
        # A Ban is placed only while the Flight supply (not the Bans one) holds a token.
        if kind is TokenKind.BANS and not self.supply[TOKEN_INDEX[TokenKind.FLIGHT]]:
            return 0
        return original(self, kind, wanted)

    return ((Work, "take", take),)


def messaging_rest_queued_last() -> tuple[Patch, ...]:
    original = engine._apply_to_step

    def apply_to_step(w: Work, action: Action) -> None:
        # Under messaging-zones=any-zones the Messaging left over waits behind the buy's other steps.
        head = w.pending[0]
        original(w, action)
        if isinstance(head, Messaging) and w.pending and isinstance(w.pending[0], Messaging):
            w.pending = (*w.pending[1:], w.pending[0])

    return ((engine, "_apply_to_step", apply_to_step),)
