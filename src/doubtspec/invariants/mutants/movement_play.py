"""Breakages of the Movement's plays and Pass: the Tableau and its Bonuses, paying Influence by flipping cards,
the hand limit."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import legal, movement
from doubtspec.model.actions import Action, End, MovementBuy, MovementPlay, Pass
from doubtspec.model.cards import BonusKind
from doubtspec.model.game import Game
from doubtspec.model.state import GameState
from doubtspec.model.steps import StartCompanyTurn
from doubtspec.model.work import Work, sorted_with


def play_beside_lone_card_right_only() -> tuple[Patch, ...]:
    original = legal.movement_turn

    def movement_turn(state: GameState) -> list[Action]:
        # A play beside a lone Tableau card is offered at the right end only, as if the Tableau were empty.
        actions = original(state)
        if len(state.tableau) != 1:
            return actions
        return [a for a in actions if not (isinstance(a, MovementPlay) and a.end is End.LEFT)]

    return ((legal, "movement_turn", movement_turn),)


def bonus_from_flipped() -> tuple[Patch, ...]:
    def place_in_tableau(w: Work, card: int, right: bool, remove: int | None) -> None:
        # Bonuses taken from the card at the end of the Tableau even when it is flipped.
        if remove is not None:
            removed, _ = w.tableau[remove]
            w.tableau = w.tableau[:remove] + w.tableau[remove + 1:]
            w.m_discard = sorted_with(w.m_discard, removed)
        game = w.game
        neighbour = (w.tableau[-1] if right else w.tableau[0])[0] if w.tableau else None
        w.tableau = (*w.tableau, (card, True)) if right else ((card, True), *w.tableau)
        if neighbour is None:
            return
        new, other = game.movement_card(card), game.movement_card(neighbour)
        bonuses = movement.aligned(new.left, other.right) if right else movement.aligned(new.right, other.left)
        refreshes = 0
        for kind in bonuses:
            if kind.value in ("influence", "messaging", "agitation"):
                movement.gain(w, **{kind.value: 1})
            else:
                refreshes += 1
        movement.refresh(w, refreshes)

    return ((movement, "place_in_tableau", place_in_tableau),)


def refresh_bonus_cascades() -> tuple[Patch, ...]:
    def place_in_tableau(w: Work, card: int, right: bool, remove: int | None) -> None:
        if remove is not None:
            removed, _ = w.tableau[remove]
            w.tableau = w.tableau[:remove] + w.tableau[remove + 1:]
            w.m_discard = sorted_with(w.m_discard, removed)
        new = w.game.movement_card(card)
        neighbour = next((c for c, up in (reversed(w.tableau) if right else w.tableau) if up), None)
        w.tableau = (*w.tableau, (card, True)) if right else ((card, True), *w.tableau)
        if neighbour is None:
            return
        other = w.game.movement_card(neighbour)
        bonuses = movement.aligned(new.left, other.right) if right else movement.aligned(new.right, other.left)
        for kind in bonuses:
            if kind is not BonusKind.REFRESH:
                movement.gain(w, **{kind.value: 1})
        refreshes = bonuses.count(BonusKind.REFRESH)
        movement.refresh(w, refreshes)
        # A Refresh Bonus only cannot trigger another Refresh: the card it turns up nearer the new card is now the
        # adjacent one, and its other aligned Bonuses are received too.
        rest = w.tableau[:-1] if right else w.tableau[1:]
        nearest = next((c for c, up in (reversed(rest) if right else rest) if up), None)
        if refreshes and nearest is not None and nearest != neighbour:
            turned = w.game.movement_card(nearest)
            for kind in movement.aligned(new.left, turned.right) if right else movement.aligned(new.right, turned.left):
                if kind is not BonusKind.REFRESH:
                    movement.gain(w, **{kind.value: 1})

    return ((movement, "place_in_tableau", place_in_tableau),)


def removed_card_to_hand() -> tuple[Patch, ...]:
    original = movement.place_in_tableau

    def place_in_tableau(w: Work, card: int, right: bool, remove: int | None) -> None:
        # The card removed from a full Tableau goes back to the hand instead of the discard pile.
        if remove is None:
            original(w, card, right, remove)
            return
        removed, _ = w.tableau[remove]
        original(w, card, right, remove)
        w.m_discard = tuple(c for c in w.m_discard if c != removed)
        w.m_hand = sorted_with(w.m_hand, removed)

    return ((movement, "place_in_tableau", place_in_tableau),)


def play_one_cheaper() -> tuple[Patch, ...]:
    original = movement.pay_influence

    def pay_influence(w: Work, flip: tuple[int, ...], cost: int) -> None:
        # Every payment one Influence short (the legal moves still ask for the full price).
        original(w, flip, max(0, cost - 1))

    return ((movement, "pay_influence", pay_influence),)


def no_flips() -> tuple[Patch, ...]:
    original = legal.flip_sets

    def flip_sets(state: GameState, cost: int, exclude: int | None = None) -> list[tuple[int, ...]]:
        # Face-up cards are never offered for flipping: only tokens pay.
        return [flip for flip in original(state, cost, exclude) if not flip]

    return ((legal, "flip_sets", flip_sets),)


def superfluous_flips() -> tuple[Patch, ...]:
    original = legal.flip_sets

    def flip_sets(state: GameState, cost: int, exclude: int | None = None) -> list[tuple[int, ...]]:
        # Two face-up cards are offered together even when the larger one alone covers the cost.
        found = original(state, cost, exclude)
        up = [(pos, state.game.movement_card(card).influence) for pos, (card, face) in enumerate(state.tableau)
              if face and pos != exclude]
        extra = [(a, b) for (a, va), (b, vb) in combinations(up, 2) if max(va, vb) >= cost > 0 and (a, b) not in found]
        return found + extra

    return ((legal, "flip_sets", flip_sets),)


def removed_card_pays() -> tuple[Patch, ...]:
    original = legal.flip_sets

    def flip_sets(state: GameState, cost: int, exclude: int | None = None) -> list[tuple[int, ...]]:
        # The card a play into a full Tableau removes may still be flipped to pay for it.
        return original(state, cost, None)

    return ((legal, "flip_sets", flip_sets),)


def hand_limit_off_by_one() -> tuple[Patch, ...]:
    original = GameState.hand_limit

    def hand_limit(self: GameState) -> int:
        return original(self) + 1

    return ((GameState, "hand_limit", hand_limit),)


def hand_goals_do_not_stack() -> tuple[Patch, ...]:
    original = Game.goal_hand_bonus

    def goal_hand_bonus(self: Game, achieved: tuple[int, ...]) -> int:
        # Any number of hand-size Goals raise the Movement's hand limit by one in all.
        return min(1, original(self, achieved))

    return ((Game, "goal_hand_bonus", goal_hand_bonus),)


def buy_only_when_full() -> tuple[Patch, ...]:
    original = legal.movement_turn

    def movement_turn(state: GameState) -> list[Action]:
        # Buying is offered only with a full hand, instead of below the limit: the Movement never buys.
        actions = original(state)
        if len(state.m_hand) < state.hand_limit():
            return [a for a in actions if not isinstance(a, MovementBuy)]
        return actions

    return ((legal, "movement_turn", movement_turn),)


def token_from_nothing() -> tuple[Patch, ...]:
    def pass_turn(w: Work) -> None:
        # Pass gives its Influence (as ruling pass-bonus says) without taking it from the supply.
        none = w.influence == 0 and not (w.game.pass_counts_cards and any(up for _, up in w.tableau))
        w.influence += 2 if none else 1
        w.push(StartCompanyTurn())

    return ((movement, "pass_turn", pass_turn),)


def pass_counts_face_down() -> tuple[Patch, ...]:
    def pass_turn(w: Work) -> None:
        # Any Tableau card, face down too, counts as Influence held (pass-bonus=no-influence misread, and played
        # under every ruling so that the default games meet it).
        none = w.influence == 0 and not w.tableau
        movement.gain(w, influence=2 if none else 1)
        w.push(StartCompanyTurn())

    return ((movement, "pass_turn", pass_turn),)


def pass_only_when_stuck() -> tuple[Patch, ...]:
    original = legal.movement_turn

    def movement_turn(state: GameState) -> list[Action]:
        # Pass is read as the way out when the Movement can neither play nor buy.
        actions = original(state)
        others: list[Action] = [a for a in actions if not isinstance(a, Pass)]
        return others or actions

    return ((legal, "movement_turn", movement_turn),)


def _no_influence_misread(holds_influence: Callable[[Work], bool]) -> tuple[Patch, ...]:
    """Pass under a misreading of pass-bonus=no-influence: `holds_influence` says whether the Movement, with no
    Influence token, still holds Influence (the rule: a face-up Tableau card)."""
    def pass_turn(w: Work) -> None:
        none = w.influence == 0
        if none and w.game.pass_counts_cards:
            none = not holds_influence(w)
        movement.gain(w, influence=2 if none else 1)
        w.push(StartCompanyTurn())

    return ((movement, "pass_turn", pass_turn),)


def _face_up_card(w: Work) -> bool:
    return any(up for _, up in w.tableau)


def no_influence_counts_flight() -> tuple[Patch, ...]:
    # A Flight token held counts as Influence held: no bonus with one.
    return _no_influence_misread(lambda w: bool(w.flight) or _face_up_card(w))


def no_influence_first_two_cards() -> tuple[Patch, ...]:
    # Only the Tableau's first two cards are looked at (a slice cut short).
    return _no_influence_misread(lambda w: any(up for _, up in w.tableau[:2]))


def no_influence_counts_agitation() -> tuple[Patch, ...]:
    # An Agitation token held counts as Influence held: no bonus with one.
    return _no_influence_misread(lambda w: bool(w.agitation) or _face_up_card(w))


def no_influence_counts_goal_passives() -> tuple[Patch, ...]:
    # An achieved Goal with a Messaging passive counts as Influence held.
    return _no_influence_misread(
        lambda w: _face_up_card(w) or any(w.game.goal(g).passive.messaging for g in w.achieved))
