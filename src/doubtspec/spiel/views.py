"""What each side sees of a state, and what it cannot: the basis of observations and determinization.

The rules keep two things from a side (Cards > Deck; each side's Hand): the order of a face-down
deck, which the engine never stores (decks are unordered; every draw is a chance event), and the
other side's hand. A side may still work out which cards the other side holds *together with* its
deck (everything else is on the table), so a view shows the other side's hand size and the pool of
its unseen cards (hand and deck as one sorted list), never which of them are in the hand. Everything
else (displays, Reserve, discards, piles, stacks, trash, Market, Tableau, Goals, tokens, the
pending steps of the turn) lies face up.

Chance outcomes are seen by both sides except the Company's draws, which only the Company sees.
"""

from __future__ import annotations

import random
from dataclasses import replace

from doubtspec.model.actions import Action, Chance
from doubtspec.model.engine import legal_actions
from doubtspec.model.state import STATE_FIELDS, GameState, Side
from doubtspec.model.steps import CompanyDraw, DrawToHandSize

HIDDEN_FROM: dict[Side, tuple[str, str]] = {
    Side.COMPANY: ("m_hand", "m_deck"),
    Side.MOVEMENT: ("c_hand", "c_deck"),
}
"""Per viewer, the other side's (hand, deck) fields whose split the viewer cannot see."""

_SHOWN = tuple(name for name in STATE_FIELDS if name != "game")


def observation_text(state: GameState, viewer: Side) -> str:
    """The table as `viewer` sees it now, one `field=value` per line (no memory of the past)."""
    hand_field, deck_field = HIDDEN_FROM[viewer]
    lines = [f"viewer={viewer.value}"]
    for name in _SHOWN:
        if name == hand_field:
            hand: tuple[int, ...] = getattr(state, hand_field)
            deck: tuple[int, ...] = getattr(state, deck_field)
            lines.append(f"{hand_field}_size={len(hand)}")
            lines.append(f"{hand_field[0]}_unseen={sorted(hand + deck)}")
        elif name == deck_field:
            continue
        else:
            lines.append(f"{name}={getattr(state, name)!r}")
    return "\n".join(lines)


def seen_action(before: GameState, action: Action, viewer: Side) -> str:
    """How `viewer` sees `action` taken in `before`: all of it, except the other side's hidden draws."""
    if (viewer is Side.MOVEMENT and isinstance(action, Chance) and before.pending
            and isinstance(before.pending[0], CompanyDraw | DrawToHandSize)):
        return "chance (a Company draw)"
    return str(action)


def determinize(state: GameState, viewer: Side, rng: random.Random) -> GameState:
    """A state `viewer` cannot tell from `state`: the other side's hand redrawn from its unseen cards.

    The hand keeps its size and is drawn uniformly from the other side's hand and deck together (the
    deck is unordered, so the rest is the deck). What `viewer` may do is unchanged (its legal actions
    depend only on what it sees); a state where that would not hold is returned as it is.
    """
    hand_field, deck_field = HIDDEN_FROM[viewer]
    hand: tuple[int, ...] = getattr(state, hand_field)
    deck: tuple[int, ...] = getattr(state, deck_field)
    if not hand or not deck:
        return state
    pool = hand + deck
    drawn = set(rng.sample(pool, len(hand)))
    new_hand = tuple(sorted(drawn))
    new_deck = tuple(sorted(c for c in pool if c not in drawn))
    if viewer is Side.COMPANY:
        sampled = replace(state, m_hand=new_hand, m_deck=new_deck)
    else:
        sampled = replace(state, c_hand=new_hand, c_deck=new_deck)
    if legal_actions(sampled) != legal_actions(state):
        return state
    return sampled
