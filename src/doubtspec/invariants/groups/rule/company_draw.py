"""`rule.empty-draw-offers`: a card's draw in the Play Phase with the deck empty or short.

A draw in the Play Phase reshuffles the discards without the Reshuffle Sequence (Reshuffle Sequence note);
the Draw Phase and the Sequence itself are `reshuffle`'s.
"""

from __future__ import annotations

from collections import Counter

from doubtspec.invariants.derived import at_rest, from_card_data, replace
from doubtspec.invariants.groups.rule.company_play import PLAY_STEPS, company_play_check, moved_to_play
from doubtspec.invariants.groups.rule.frame import minus, sorted_cards
from doubtspec.invariants.shapes import Invariant, StateInvariant
from doubtspec.model import engine
from doubtspec.model.actions import PlayStandard
from doubtspec.model.cards import DrawCards, NamedEffect, ScoreProfit, StandardSide, TokenKind
from doubtspec.model.state import TOKEN_INDEX, Actor, GameState, OutcomeReason, Phase
from doubtspec.rulebook import Section

S = Section


@from_card_data
def _drawing_cards(state: GameState) -> list[tuple[int, tuple[int, ...]]]:
    """(card, Reserve cards): each standard side that draws, most cards drawn first, with the Reserve sides its
    play triggers (same trigger and icon), from the card data."""
    found: list[tuple[int, int, tuple[int, ...]]] = []
    numbers = sorted(n for n, c in state.cards.company.items() if c is not None)
    for card in numbers:
        side = state.game.company_card(card).standard
        draws = 0 if side is None else sum(e.count for e in side.effects if isinstance(e, DrawCards))
        if side is None or not draws:
            continue
        triggered = tuple(other for other in numbers
                          if side.trigger is not None and other != card
                          and (reserve := state.game.company_card(other).reserve) is not None
                          and reserve.trigger is side.trigger and reserve.icon is side.icon)
        found.append((-draws, card, triggered))
    return [(card, triggered) for _, card, triggered in sorted(found)]


_EMPTY_DRAW_PLAYS = 2
"""Plays one `rule.empty-draw-offers` check makes."""


def _empty_draw_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, play cards that draw with nothing left to draw but their own payment.

    A draw in the Play Phase reshuffles the discards silently when the deck is empty and draws nothing
    when the discard pile is empty too (Reshuffle Sequence note); the play then goes on with what
    follows the draw (its other effects, the Reserve cards it triggers) and ends with the card in the
    discard pile. Generated games seldom empty both piles while such a card is in the hand; moving it
    into the hand (with a Reserve card it triggers into the Reserve) and the deck and the discards
    onto the trash pile, each play (paid with the fewest cards, its choices and draws made with the
    first option) must do what `rule.company-play` says, draw only what its payment put into the
    discard pile, end with the card in the discard pile and leave a legal move.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    played = 0
    for card, triggered in _drawing_cards(state):
        probe = next((p for r in (*triggered, None) if (p := moved_to_play(state, card, r)) is not None), None)
        if probe is None:
            continue
        plays = [a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card]
        if not plays:
            continue
        play = min(plays, key=lambda a: len(a.pay))
        try:
            message = _play_through(probe, play)
        except Exception as exc:  # a broken engine: the play cannot be followed through
            message = f"{play} made the engine raise {type(exc).__name__}: {exc}"
        if message is not None:
            reserve = f"card {probe.c_reserve[-1]} in the Reserve, " if probe.c_reserve else ""
            return f"with {reserve}an empty deck and discard pile: {message}"
        message = (_reshuffling_draw(state, card) or _reshuffle_spares_reserve(state, card)
                   or _short_deck_draw(state, card))
        if message is not None:
            return message
        played += 1
        if played >= _EMPTY_DRAW_PLAYS:
            break
    return None


def _owned_drawing_side(state: GameState, card: int) -> tuple[StandardSide, int, tuple[int, ...]] | None:
    """`card`'s standard side, the cards its effects draw and every card the Company owns (deck, discard pile, hand
    and Reserve), for the what-ifs below; None when the Company does not own `card`, or its standard side is missing
    or has a named effect (which may move cards of the hand)."""
    side = state.game.company_card(card).standard
    if side is None or any(isinstance(e, NamedEffect) for e in side.effects):
        return None
    owned = (*state.c_deck, *state.c_discard, *state.c_hand, *state.c_reserve)
    if card not in owned:
        return None
    return side, sum(e.count for e in side.effects if isinstance(e, DrawCards)), owned


def _reshuffling_draw(state: GameState, card: int) -> str | None:
    """`card` played with the deck empty and every other card of the Company's in the discard pile: its draw
    reshuffles the discards without the Sequence (Reshuffle Sequence note) and draws all it says.

    The Reserve goes to the discard pile too, so that no trigger adds draws or effects of its own; a card
    with a named effect (which may move cards of the hand) is left out, and so is one whose draws the
    discard pile cannot cover. Played with the fewest cards and the first option of each choice and
    draw, the hand must end with the cards not played or paid plus exactly the cards drawn, no card
    from outside, and no Profit, star, round or phase beyond what the card's own effects do.
    """
    drawing = _owned_drawing_side(state, card)
    if drawing is None:
        return None
    side, draws, owned = drawing
    others = [c for c in owned if c != card]
    hand = sorted_cards((*(c for c in state.c_hand if c != card), card))
    discard = sorted_cards(c for c in others if c not in hand)
    if len(discard) < draws:
        return None
    probe = replace(state, c_deck=(), c_discard=discard, c_reserve=(), c_hand=hand)
    play = _cheapest_play(probe, card)
    if play is None:
        return None
    scored, after, message = _follow_play(probe, play)
    if message is not None:
        return f"with the deck empty and the discards full: {message}"
    message = _no_victory_without_sequence(probe, play)
    if message is not None:
        return message
    if after.outcome is not None or after.pending:
        return None
    kept = len(hand) - 1 - len(play.pay)
    if len(after.c_hand) != kept + draws:
        return (f"with the deck empty and {len(discard)} cards in the discard pile, {play} (drawing {draws}) ended "
                f"with {len(after.c_hand)} cards in hand; the {kept} kept and the {draws} drawn make {kept + draws}")
    if Counter((*after.c_hand, *after.c_deck, *after.c_discard)) != Counter((*hand, *discard)):
        return f"with the deck empty and the discards full, {play} changed which cards the Company holds"
    # Lobbying may take Profit away later in the play, and the card's own Profit effects after its draw add theirs;
    # only a Sequence would add more.
    own = sum(e.count for e in side.effects if isinstance(e, ScoreProfit))
    moved = [f for f in ("stars", "round", "phase") if getattr(after, f) != getattr(scored, f)]
    moved += ["profit"] if after.profit > probe.profit + own else []
    if moved:
        return (f"with the deck empty and the discards full, {play}'s draw changed {', '.join(moved)}: a draw in the "
                "Play Phase reshuffles the discards without the Reshuffle Sequence")
    return None


_RESHUFFLE_FREE = ("profit", "stars", "doubt", "market_profit", "goal_profit", "c_reserve", "c_removed", "supply")
"""What a Reserve card's reshuffle effects could change (Profit, Doubt, Lobbying, the trash pile), beside the card
itself: a reshuffle in the Play Phase must leave it as a draw from a full deck does."""


def _reshuffle_spares_reserve(state: GameState, card: int) -> str | None:
    """`card` played with a Reserve card that has reshuffle effects in the Reserve, once with the deck empty and the
    other cards in the discard pile, once with them in the deck: the draw reshuffles in the first and not in the
    second, and nothing else differs. A draw in the Play Phase reshuffles without the Reshuffle Sequence (Reshuffle
    Sequence note), so the Reserve's reshuffle effects (Reserve Effects) must not resolve: both plays end with the
    same Profit, Doubt, Lobbying, Reserve and trash pile.

    The card kept in the Reserve is one the Company owns; generated games seldom hold one there with the deck
    empty. Played with the fewest cards and the first option of each choice and draw, as `_reshuffling_draw`.
    """
    game = state.game
    drawing = _owned_drawing_side(state, card)
    if drawing is None:
        return None
    _, draws, owned = drawing
    kept = next((c for c in owned if c != card and game.company_card(c).kind not in state.banned
                 and (reserve := game.company_card(c).reserve) is not None and reserve.on_reshuffle), None)
    if kept is None:
        return None
    hand = sorted_cards((*(c for c in state.c_hand if c not in (card, kept)), card))
    rest = sorted_cards(c for c in owned if c not in (*hand, kept))
    if len(rest) < draws:
        return None
    shuffled = replace(state, c_deck=(), c_discard=rest, c_reserve=(kept,), c_hand=hand)
    drawn = replace(state, c_deck=rest, c_discard=(), c_reserve=(kept,), c_hand=hand)
    play = _cheapest_play(shuffled, card)
    if play is None or play not in engine.legal_actions(drawn):
        return None
    _, after, message = _follow_play(shuffled, play)
    _, plain, other = _follow_play(drawn, play)
    if message is not None or other is not None:
        return message or other
    if after.outcome is not None or after.pending or plain.outcome is not None or plain.pending:
        return None
    moved = [f for f in _RESHUFFLE_FREE if getattr(after, f) != getattr(plain, f)]
    if moved:
        return (f"with card {kept} in the Reserve, {play}'s draw from an empty deck changed {', '.join(moved)} where "
                "the same draw from a full deck did not: a draw in the Play Phase reshuffles without the Reshuffle "
                "Sequence, so no reshuffle effect resolves")
    return None


def _no_victory_without_sequence(probe: GameState, play: PlayStandard) -> str | None:
    """The reshuffling draw of `_reshuffling_draw` with the Profit to win held: the Profit counts only at the end
    of a Reshuffle Sequence (Company Rules), and a draw in the Play Phase reshuffles without one."""
    target = probe.cards.rules.profit_to_win
    supply = list(probe.supply)
    supply[TOKEN_INDEX[TokenKind.PROFIT]] += probe.profit - target
    if supply[TOKEN_INDEX[TokenKind.PROFIT]] < 0:
        return None
    _, after, _ = _follow_play(replace(probe, profit=target, supply=tuple(supply)), play)
    if after.outcome is not None and after.outcome.reason is OutcomeReason.PROFIT_VICTORY:
        return (f"with {target} Profit held, the deck empty and the discards full, {play}'s draw won on Profit: a draw "
                "in the Play Phase reshuffles without the Reshuffle Sequence, at whose end alone the Profit counts")
    return None


def _short_deck_draw(state: GameState, card: int) -> str | None:
    """`card`, which draws two or more, played with one card fewer in the deck than it draws and the rest of the
    Company's cards in the discard pile: the deck's own cards are drawn before the discards are reshuffled.

    The discards join the deck without the Sequence only once nothing is left to draw (Reshuffle Sequence
    note), so every card the deck held must reach the hand, whichever cards the reshuffled discards then give.
    The deck holds the highest-numbered cards, so that drawing the first option from a deck the discards joined
    too early leaves one of them behind, and the hand must end with every card the effect draws. Set up as
    `_reshuffling_draw` (Reserve emptied into the discards; no named effect); played with the fewest cards and the
    first option of each choice and draw.
    """
    drawing = _owned_drawing_side(state, card)
    if drawing is None or drawing[1] < 2:
        return None
    _, draws, owned = drawing
    hand = sorted_cards((*(c for c in state.c_hand if c != card), card))
    spare = sorted_cards(c for c in owned if c != card and c not in hand)
    if len(spare) < draws:
        return None
    deck, discard = spare[len(spare) - draws + 1:], spare[:len(spare) - draws + 1]
    probe = replace(state, c_deck=deck, c_discard=discard, c_reserve=(), c_hand=hand)
    play = _cheapest_play(probe, card)
    if play is None:
        return None
    _, after, message = _follow_play(probe, play)
    if message is not None:
        return f"with {len(deck)} cards in the deck and the discards full: {message}"
    if after.outcome is not None or after.pending:
        return None
    if not set(deck) <= set(after.c_hand):
        return (f"with the deck holding {list(deck)}, {play} (drawing {draws}) ended with hand {list(after.c_hand)}: "
                "the deck's cards are drawn before the discards are reshuffled into it")
    kept = len(hand) - 1 - len(play.pay)
    if len(after.c_hand) != kept + draws:
        return (f"with {len(deck)} cards in the deck and {len(discard)} in the discard pile, {play} (drawing {draws}) "
                f"ended with {len(after.c_hand)} cards in hand; the {kept} kept and the {draws} drawn make "
                f"{kept + draws}: a short deck is drawn out, then the discards reshuffled for the rest")
    return None


def _cheapest_play(probe: GameState, card: int) -> PlayStandard | None:
    """`card`'s standard play offered in `probe` with the fewest cards paid, or None when none is offered."""
    plays = [a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card]
    return min(plays, key=lambda a: len(a.pay)) if plays else None


def _follow_play(probe: GameState, play: PlayStandard) -> tuple[GameState, GameState, str | None]:
    """`play` applied to `probe`, then its choices and draws with the first option (at most `PLAY_STEPS`).

    Returns the state right after the play, the state where following it stopped (the play over, the
    game over, or the steps used up) and what `rule.company-play` or the way through found wrong.
    """
    first = after = engine.apply(probe, play)
    message = company_play_check(probe, play, after)
    for _ in range(PLAY_STEPS):
        if message is not None or after.outcome is not None or not after.pending:
            break
        choices = engine.legal_actions(after)
        if not choices:
            return first, after, f"{play} left no legal move (next step: {after.pending[0]})"
        if engine.current_actor(after) is Actor.CHANCE and not after.c_deck:
            return first, after, f"{play} offers a draw ({after.pending[0]}) from an empty deck"
        after = engine.apply(after, choices[0])
    return first, after, message


def _play_through(probe: GameState, play: PlayStandard) -> str | None:
    _, after, message = _follow_play(probe, play)
    if message is not None or after.outcome is not None or after.pending:
        return message
    if card_total := Counter(after.c_hand + after.c_deck + after.c_discard) - Counter(probe.c_hand):
        return f"{play} brought cards {sorted(card_total.elements())} from outside the hand"
    hand = minus(probe.c_hand, (play.card, *play.pay))
    if not set(hand) <= set(after.c_hand) or play.card not in after.c_discard:
        return (f"{play} ended with hand {list(after.c_hand)} and discard pile {list(after.c_discard)}; the rest of "
                f"the hand {list(hand)} stays, the card goes to the discard pile")
    if not engine.legal_actions(after):
        return f"{play} left no legal move"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rule.empty-draw-offers", "A play that draws with the deck and the discard pile empty draws "
                   "nothing and goes on to the Reserve cards it triggers; with the deck empty and the discards "
                   "full it reshuffles them without the Sequence (so the Profit to win, held, does not win) and "
                   "draws all it says, no Reserve card's reshuffle effect resolving; with fewer cards in the deck than "
                   "it draws it draws them all before the discards join the deck.",
                   (S.STANDARD_EFFECTS, S.RESERVE_EFFECTS, S.RESHUFFLE_SEQUENCE), _empty_draw_offers),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
