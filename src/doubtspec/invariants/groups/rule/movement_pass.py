"""`rule.pass` and `rule.pass-offers`: the Movement's Pass (On Your Go; ruling pass-bonus)."""

from __future__ import annotations

from doubtspec.invariants.derived import replace
from doubtspec.invariants.groups.rule.frame import TURN_START, unchanged_except
from doubtspec.invariants.groups.rule.movement_play import Table, movement_turn
from doubtspec.invariants.shapes import Invariant, StateInvariant, TransitionInvariant
from doubtspec.model import engine
from doubtspec.model.actions import Action, Pass
from doubtspec.model.cards import TokenKind
from doubtspec.model.state import NO_CARD, TOKEN_INDEX, GameState
from doubtspec.rulebook import Section

S = Section


def _pass(before: GameState, action: Action, after: GameState) -> str | None:
    """On Your Go, Pass: one Influence, two with none at all (ruling pass-bonus)."""
    if not isinstance(action, Pass):
        return None
    none = before.influence == 0
    if before.rulings.get("pass-bonus") == "no-influence":
        none = none and not any(up for _, up in before.tableau)
    table = Table.of(before)
    table.gain(TokenKind.INFLUENCE, 2 if none else 1)
    if after.influence != table.influence:
        return f"passing with {before.influence} Influence left {after.influence}; the rule gives {table.influence}"
    return unchanged_except(before, after, ("influence", "supply", *TURN_START), action)


def _pass_offers(state: GameState) -> str | None:
    """On each Movement turn, Pass is offered; and Pass with no Influence token, once with every Tableau card face
    down and once each with only its first or only its last card face up, as a what-if.

    Ruling pass-bonus: under no-tokens (the default) both Passes gain two Influence, the Tableau aside; under
    no-influence only the first does, a face-up card being Influence held. A Movement that runs out of tokens
    with its whole Tableau spent is rare in generated games (and the no-influence reading is only played in the
    ruling variants), so the situation is built: the Influence tokens go back to the supply and the Tableau is
    turned over, nothing else changed but a Messaging and an Agitation token held, in odd rounds a Flight token
    (none of them is an Influence token), and every Goal with a Passive Ability achieved.
    """
    if not movement_turn(state):
        return None
    if Pass() not in engine.legal_actions(state):
        # Movement On Your Go: Pass is one of the three actions, open on every turn (not only when nothing else is)
        return "the Movement's turn does not offer Pass"
    if not state.tableau:
        return None
    supply = list(state.supply)
    supply[TOKEN_INDEX[TokenKind.INFLUENCE]] += state.influence
    flight = state.flight
    if state.round % 2 and not flight and supply[TOKEN_INDEX[TokenKind.FLIGHT]]:
        # In odd rounds with a Flight token held: Flight pays Influence costs but is no Influence token, under
        # either reading of the ruling.
        supply[TOKEN_INDEX[TokenKind.FLIGHT]] -= 1
        flight = 1
    # and with a Messaging and an Agitation token held: they are no Influence either
    held = {TokenKind.MESSAGING: state.messaging, TokenKind.AGITATION: state.agitation}
    for kind in held:
        if not held[kind] and supply[TOKEN_INDEX[kind]]:
            supply[TOKEN_INDEX[kind]] -= 1
            held[kind] = 1
    # and with every Goal that has a Passive Ability achieved: a Goal is no Influence held, its passives act at Pacing
    passive = [s for s, g in enumerate(state.goals) if g != NO_CARD and state.game.goal(g).passive.any()]
    goals = tuple(NO_CARD if s in passive else g for s, g in enumerate(state.goals))
    achieved = (*state.achieved, *(state.goals[s] for s in passive))
    down = tuple((card, False) for card, _ in state.tableau)
    # every card down, only the first up, only the last up: a face-up card anywhere is Influence held
    for tableau in dict.fromkeys((down, ((down[0][0], True), *down[1:]), (*down[:-1], (down[-1][0], True)))):
        # `rule.pass` holds each to what the ruling gives, from the state before
        probe = replace(state, influence=0, flight=flight, messaging=held[TokenKind.MESSAGING],
                        agitation=held[TokenKind.AGITATION], supply=tuple(supply), tableau=tableau, goals=goals,
                        achieved=achieved)
        message = _pass(probe, Pass(), engine.apply(probe, Pass()))
        if message is not None:
            shown = "".join("U" if up else "D" for _, up in tableau)
            return (f"what if the Movement passed with no Influence token, {flight} Flight, "
                    f"{held[TokenKind.MESSAGING]} Messaging, {held[TokenKind.AGITATION]} Agitation and the Tableau "
                    f"{shown} (U face up), ruling pass-bonus={state.rulings.get('pass-bonus')}: {message}")
    return None


INVARIANTS: tuple[Invariant, ...] = (
    TransitionInvariant("rule.pass", "Passing gains one Influence, or two with none at all; nothing else changes.",
                        (S.MOVEMENT_ON_YOUR_GO,), _pass),
    StateInvariant("rule.pass-offers", "Pass is offered on every Movement turn; with no Influence token, it gains "
                   "two Influence whatever the Tableau shows, or (ruling pass-bonus=no-influence) two only while "
                   "every Tableau card is face down and one otherwise.", (S.MOVEMENT_ON_YOUR_GO,), _pass_offers,
                   movement_turn),
)
"""The `rule.*` invariants of this module, in the order they are checked and listed."""
