"""`rule.*` what-ifs of the Company's effects that generated games seldom stretch: a supply too short for a
play's Victims or Profit, Doubt placed one token at a time, and a trash from the hand."""

from __future__ import annotations

from doubtspec.invariants.derived import ONE_STEP_EFFECTS, at_rest, from_card_data, replace, within_reach
from doubtspec.invariants.groups.rule.company_play import PLAY_STEPS, company_play_check, moved_to_play
from doubtspec.invariants.groups.rule.frame import sorted_cards, unchanged_except
from doubtspec.invariants.shapes import Invariant, StateInvariant
from doubtspec.model import engine
from doubtspec.model.actions import PlaceDoubt, PlayStandard, Skip, TrashCard
from doubtspec.model.cards import AddDoubt, AddVictims, DoubtGroup, NamedEffect, ScoreProfit, TokenKind
from doubtspec.model.state import TOKEN_INDEX, GameState, Phase, Side
from doubtspec.model.steps import Effect, FinishPlay
from doubtspec.rulebook import Section

S = Section


@from_card_data
def _short_supply_cards(state: GameState) -> list[tuple[int, tuple[tuple[TokenKind, int], ...]]]:
    """(card, (kind, tokens taken)): each standard side made only of `ONE_STEP_EFFECTS` that takes two or more
    Victims or Profit from the supply, from the card data."""
    found: list[tuple[int, tuple[tuple[TokenKind, int], ...]]] = []
    for card in sorted(n for n, c in state.cards.company.items() if c is not None):
        side = state.game.company_card(card).standard
        if side is None or not all(isinstance(e, ONE_STEP_EFFECTS) for e in side.effects):
            continue
        victims = sum(e.count for e in side.effects if isinstance(e, AddVictims))
        profit = sum(e.count for e in side.effects if isinstance(e, ScoreProfit))
        taken = tuple((kind, n) for kind, n in ((TokenKind.VICTIMS, victims), (TokenKind.PROFIT, profit)) if n >= 2)
        if taken:
            found.append((card, taken))
    return found


_SHORT_SUPPLY_CARDS = 2
"""Cards one `rule.short-supply-offers` check plays (in turn with the round)."""


def _play_phase_start(state: GameState) -> bool:
    """The start of the Company's Play Phase, nothing pending (where `rule.short-supply-offers` asks)."""
    return at_rest(state) and state.phase is Phase.COMPANY_PLAY and not state.plays


def _short_supply_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, play a card that takes two or more Victims or Profit with a supply that
    holds fewer.

    The supplies are piece-limited and a gain larger than what is left takes what remains (ruling
    supply-exhausted); a play's effects resolve in their printed order, so the first ones take the last tokens.
    Generated games seldom run the Victims or Profit supply this low. Each card of the kind (two a turn, in turn
    with the round) is moved into the hand with no Reserve and no ban, and played with each supply from one
    token up to one short of what it takes: the play must still be offered with the same payment (a short supply
    withholds nothing), and `rule.company-play` checks where every token went.
    """
    if not _play_phase_start(state):
        return None
    cards = _short_supply_cards(state)
    for k in range(min(_SHORT_SUPPLY_CARDS, len(cards))):
        card, taken = cards[(_SHORT_SUPPLY_CARDS * state.round + k) % len(cards)]
        moved = moved_to_play(state, card, None)
        if moved is None:
            continue
        moved = replace(moved, c_reserve=(), trash=(*moved.trash, *moved.c_reserve), banned=())
        play = next((a for a in engine.legal_actions(moved) if isinstance(a, PlayStandard) and a.card == card), None)
        if play is None:
            continue
        for kind, count in taken:
            for left in range(1, count):
                supply = list(moved.supply)
                supply[TOKEN_INDEX[kind]] = left
                probe = replace(moved, supply=tuple(supply))
                if play not in engine.legal_actions(probe):
                    return (f"with {left} {kind.value} left in the supply, {play} is not offered; a gain larger "
                            f"than the supply takes what is left")
                message = company_play_check(probe, play, engine.apply(probe, play))
                if message is not None:
                    return f"with {left} {kind.value} left in the supply: {message}"
    return None


def _doubt_count_offers(state: GameState) -> str | None:
    """At the start of each Play Phase, play a card whose Doubt effects place two or more tokens, all the way.

    An effect that needs a choice is resolved once per token it places (Standard Effects > Adding
    Doubt); a rule that stops after the first choice breaks no conservation law. With the cheapest
    such card moved into the hand (from wherever the Company has it), the Reserve moved to the discard
    pile (no trigger adds Doubt of its own), and the card played with the first option
    of each choice, the Doubt on the display must grow by the sum of its effects' counts, when each Doubt
    group's columns have room for what the card's effects place there and the supply holds enough. (Room counted per
    group, not per column: a column too short for the largest count, as on a display of two-space columns, must not
    switch the check off.) The play is made a second time with every other supply empty (Victims, Profit and the
    rest): a Doubt effect asks only for Doubt tokens and room, and games seldom empty another supply (a guard that
    read the Victims supply for the Doubt one would show only then). A third time the Doubt supply holds one token
    fewer than the card places: the effects take what is left (ruling supply-exhausted), so all but one are placed
    (games seldom run the Doubt supply this low, and a guard that wants the whole count before the first choice
    would place none).
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    columns = state.cards.display.doubt_values
    for card, effects in _doubt_cards(state):
        counts = tuple(count for _, count in effects)
        room = {group: sum(len(columns[zone]) - state.doubt[zone] for zone in group.columns) for group, _ in effects}
        if (state.supply_of(TokenKind.DOUBT) < sum(counts)
                or any(sum(count for g, count in effects if g is group) > free for group, free in room.items())):
            return None
        if not within_reach(state, card):
            continue

        def rest(cards: tuple[int, ...], moving: int = card) -> tuple[int, ...]:
            return tuple(c for c in cards if c != moving)

        # The Reserve goes to the discard pile, so that no Reserve card the play triggers adds Doubt of its own.
        probe = replace(state, c_deck=rest(state.c_deck),
                        c_discard=sorted_cards(rest(state.c_discard) + rest(state.c_reserve)),
                        c_hand=sorted_cards((*rest(state.c_hand), card)), c_reserve=(),
                        trash=rest(state.trash), piles=tuple(rest(pile) for pile in state.piles))
        plays = [a for a in engine.legal_actions(probe) if isinstance(a, PlayStandard) and a.card == card]
        if not plays:
            continue
        play = min(plays, key=lambda a: len(a.pay))
        doubt = TOKEN_INDEX[TokenKind.DOUBT]
        doubt_only = tuple(n if i == doubt else 0 for i, n in enumerate(probe.supply))
        short = tuple(sum(counts) - 1 if i == doubt else n for i, n in enumerate(probe.supply))
        for supply, told in ((probe.supply, ""), (doubt_only, ", every other supply empty"),
                             (short, ", one Doubt token fewer than the card places")):
            placed = _doubt_placed(replace(probe, supply=supply), play)
            wanted = min(sum(counts), supply[doubt])
            if placed != wanted:
                return (f"{play} placed {placed} Doubt; its effects place {list(counts)} (the display had room and "
                        f"the supply {supply[doubt]} tokens{told}: it places {wanted})")
        return None
    return None


def _doubt_placed(probe: GameState, play: PlayStandard) -> int:
    """The Doubt `play` places from `probe`, each choice taken with its first option (a Doubt column first)."""
    after = engine.apply(probe, play)
    for _ in range(PLAY_STEPS):
        head = after.pending[0] if after.pending and after.outcome is None else None
        choices = engine.legal_actions(after) if head is not None else ()
        if not choices:
            break
        # A draw or another effect before the Doubt ones is followed too (its first option), so that they come.
        after = engine.apply(after, next((a for a in choices if isinstance(a, PlaceDoubt)), choices[0]))
    return sum(after.doubt) - sum(probe.doubt)


def _doubt_cards(state: GameState) -> list[tuple[int, tuple[tuple[DoubtGroup, int], ...]]]:
    """(card, (group, count) of each Doubt effect) of the standard sides whose Doubt effects place two or more
    tokens, cheapest first."""
    found = []
    for card, data in state.cards.company.items():
        side = None if data is None else data.standard
        if side is None:
            continue
        effects = tuple((e.group, e.count) for e in side.effects if isinstance(e, AddDoubt))
        if effects and max(count for _, count in effects) >= 2:
            found.append((side.cost, card, effects))
    return [(card, effects) for _, card, effects in sorted(found, key=lambda f: (f[0], f[1]))]


_TRASH_FROM_HAND = NamedEffect("trash_from_hand")


def _trash_offers(state: GameState) -> str | None:
    """On each Play Phase with a hand, resolve the named effect `trash_from_hand` now, as a what-if.

    The card file's one card with this (invented) effect is played seldom in generated games, and with
    nothing offered the engine resolves an effect to nothing, silently. The what-if sets the last hand card
    resolving (in play, its discard queued) with the effect pending before it, as a play of it would. Resolving
    the effect must offer each card left in the hand once (not the card in play) and declining (the card text is
    invented: a trash that may be declined, as a Lobby effect may); trashing the first card moves it from the hand
    to the top of the trash pile, ends the effect (it trashes one card) and lets the play finish, and changes
    nothing else.
    """
    if not at_rest(state) or state.phase is not Phase.COMPANY_PLAY or not state.c_hand:
        return None
    if not any(_TRASH_FROM_HAND in side.effects for card in state.cards.company.values()
               for side in (card.standard, card.reserve) if side is not None):
        return None
    resolving = state.c_hand[-1:] if len(state.c_hand) >= 2 else ()
    hand = state.c_hand[:len(state.c_hand) - len(resolving)]
    finish = tuple(FinishPlay(card) for card in resolving)
    probe = engine.settle(replace(state, c_hand=hand, c_in_play=resolving,
                                  pending=(Effect(_TRASH_FROM_HAND), *finish)))
    offered = engine.legal_actions(probe)
    expected = {*(TrashCard(c) for c in hand), Skip(Side.COMPANY)}
    if set(offered) != expected or len(offered) != len(expected):
        return (f"resolving trash_from_hand with hand {list(hand)} and card {list(resolving)} in play offered "
                f"{[str(a) for a in offered]}; each hand card once, and declining, are the choices")
    card = hand[0]
    action = TrashCard(card)
    after = engine.apply(probe, action)
    left = list(hand)
    left.remove(card)
    if sorted(after.c_hand) != sorted(left) or after.trash != (*state.trash, card):
        return (f"{action} left hand {list(after.c_hand)} and trash {list(after.trash)}; the card goes from the "
                f"hand to the top of the trash pile")
    if after.pending or after.c_in_play or after.c_discard != sorted_cards(probe.c_discard + resolving):
        return (f"{action} left {list(after.pending)} pending and {list(after.c_in_play)} in play; the effect "
                f"trashes one card, and then the play finishes with its card discarded")
    return unchanged_except(probe, after, ("c_hand", "trash", "pending", "c_in_play", "c_discard"), action)


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("rule.short-supply-offers", "A play that takes more Victims or Profit than the supply holds "
                   "is still offered and takes what is left, its effects in order: the first ones get the last "
                   "tokens (checked by `rule.company-play`).", (S.ADDING_VICTIMS, S.STANDARD_EFFECTS, S.COMPANY_SETUP),
                   _short_supply_offers, _play_phase_start),
    StateInvariant("rule.doubt-count-offers", "A play whose Doubt effects place two or more tokens places each of "
                   "them, one choice each, as many as the supply holds.", (S.STANDARD_EFFECTS,), _doubt_count_offers),
    StateInvariant("rule.trash-offers", "Resolving a trash-from-hand effect offers each hand card once (not the "
                   "card being played), and declining; the card trashed goes from the hand to the top of the trash "
                   "pile, and the effect is over.",
                   (S.STANDARD_EFFECTS,), _trash_offers),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
