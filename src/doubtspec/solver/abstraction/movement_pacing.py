"""When Pacing can first happen: a lemma about the Company's deck that the Movement's abstraction uses.

Pacing (the Movement's Passive Abilities, the Market refilled, Flight reclaimed) follows only a
Reshuffle in the Company's Draw Phase, which needs fewer cards in its deck than its hand size (On
Your Go, Draw Phase; Reshuffle Sequence). After Set-Up the deck holds the starting deck less one
hand. In round 1 the Company draws during its Play Phase only through the Draw effects of the
cards it plays, all from its starting deck (bought cards go to the discard pile):

* a card's standard effect is resolved once per play, and a played card goes to the discard pile,
  so within round 1 it is played again only after a mid-play reshuffle, which needs the deck
  emptied first;
* a Reserve effect can fire once per matching Trigger, so a starting card whose Reserve side
  draws is not bounded this way (the lemma is then not claimed).

So if no starting card draws from its Reserve side, and the starting cards' standard Draw counts
together leave at least a hand's worth of cards in the deck (which also rules out the mid-play
reshuffle), no Pacing happens in round 1. The lemma is decided per card file; the tests check it
against simulated games and against a card file for which it must be refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from doubtspec.model.cards import DrawCards
from doubtspec.model.game import Game

NAME = "no-pacing-in-round-1"


@dataclass(frozen=True, slots=True)
class PacingLemma:
    """The first round whose Company turn may end with Pacing, and the argument for it."""

    first_round: int
    """1: Pacing may follow any round (nothing is claimed); 2: never after round 1."""
    why: str

    @property
    def claimed(self) -> bool:
        return self.first_round > 1

    @property
    def names(self) -> tuple[str, ...]:
        return (NAME,) if self.claimed else ()


def first_pacing_round(game: Game) -> PacingLemma:
    """Decide the lemma for one card file (see the module's argument)."""
    cards = game.cards
    hand = cards.rules.company_hand_size
    deck = len(cards.starting_deck) - hand
    most_drawn = 0
    for number in cards.starting_deck:
        card = game.company_card(number)
        if card.reserve is not None and any(isinstance(e, DrawCards)
                                            for e in card.reserve.effects + card.reserve.on_reshuffle):
            return PacingLemma(1, f"starting card {number} draws from its Reserve side: not bounded")
        if card.standard is not None:
            most_drawn += sum(e.count for e in card.standard.effects if isinstance(e, DrawCards))
    if deck - most_drawn >= hand:
        return PacingLemma(2, f"round 1 starts with {deck} cards in the Company's deck and its starting cards "
                              f"draw at most {most_drawn}, leaving at least its hand size ({hand}): no Reshuffle "
                              "in its first Draw Phase")
    return PacingLemma(1, f"the starting cards may draw {most_drawn} of the {deck} cards in the deck: a "
                          "Reshuffle in the first Draw Phase is not ruled out")
