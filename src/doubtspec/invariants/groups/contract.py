"""The `contract` invariants.

Engine contracts: no crash, canonical hashing, legality agreement, purity, action text, replay.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from doubtspec.invariants.derived import CHOOSING_EFFECTS, from_card_data, legal, memo
from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
    Trace,
    TraceInvariant,
    TransitionInvariant,
)
from doubtspec.model import engine
from doubtspec.model.actions import (
    Action,
    Skip,
    parse_action,
)
from doubtspec.model.cards import CompanyEffect, ReserveSide
from doubtspec.model.legal import choice_actions
from doubtspec.model.rulings import REGISTRY
from doubtspec.model.state import NO_CARD, STATE_FIELDS, GameState, Phase
from doubtspec.model.steps import ResolveEffect
from doubtspec.rulebook import Section

S = Section


def _no_crash(state: GameState) -> str | None:
    try:
        legal(state)
        engine.current_actor(state)
        engine.chance_outcomes(state)
    except Exception as exc:  # the engine failing on a reachable state is the finding
        return f"the engine raised {type(exc).__name__}: {exc} on a reachable state"
    return None


def _real_choices(state: GameState) -> str | None:
    """A pending choice offers something to choose: a choice with nothing to do but decline resolves to nothing
    (`legal.choice_actions` returns no options), so that a trace holds decisions only. A Messaging or Agitation
    that offers its Skip alone, or an effect that can only be declined, is a choice step left waiting for nothing."""
    if state.outcome is not None:
        return None
    if not state.pending:
        return _bare_effect_choices(state)
    actions = legal(state)
    if actions and all(isinstance(a, Skip) for a in actions):
        return f"{type(state.pending[0]).__name__} offers only {[str(a) for a in actions]}: nothing to choose"
    return None


@from_card_data
def _choosing_effects(state: GameState) -> tuple[CompanyEffect, ...]:
    """Every Company effect of the card data that may stop for a choice (each once)."""
    found: dict[CompanyEffect, None] = {}
    for card in state.cards.company.values():
        for side in (card.standard, card.reserve) if card is not None else ():
            if side is None:
                continue
            for effect in (*side.effects, *(side.on_reshuffle if isinstance(side, ReserveSide) else ())):
                if isinstance(effect, CHOOSING_EFFECTS):
                    found.setdefault(effect)
    return tuple(found)


def _bare_effect_choices(state: GameState) -> str | None:
    """At the start of each Company Play Phase, every choosing effect of the card data is asked for its options on
    the same table stripped of what it could choose from (no card in hand, no Profit, no Market card or Goal, every
    Doubt column full): it must offer nothing, so that it resolves to nothing, rather than a lone decline.

    Generated games seldom resolve an effect with nothing to choose from (a hand emptied by its own play, a supply of
    Doubt spent), so the pending choice above seldom meets one."""
    if state.phase is not Phase.COMPANY_PLAY or state.plays:
        return None
    columns = state.cards.display.doubt_values
    bare = dataclasses.replace(state, c_hand=(), profit=0, market=tuple(NO_CARD for _ in state.market),
                               goals=tuple(NO_CARD for _ in state.goals),
                               doubt=tuple(len(values) for values in columns))
    for effect in _choosing_effects(state):
        offered = choice_actions(bare, ResolveEffect(effect, 1))
        if offered and all(isinstance(a, Skip) for a in offered):
            return (f"{effect} with no card in hand, no Profit, no Market card or Goal and the Doubt columns full "
                    f"offers only {[str(a) for a in offered]}: nothing to choose")
    return None


def _distinct_actions(state: GameState) -> str | None:
    """`legal_actions` lists each action once: a duplicate is no new move, but an agent or a search that draws from
    the list (a Hypothesis rule, MCTS, the simulation's random players) would weigh it twice."""
    actions = legal(state)
    if len(set(actions)) != len(actions):
        twice = [f"{action} ({count} times)" for action, count in Counter(actions).items() if count > 1]
        return f"legal_actions lists {', '.join(twice[:3])}"
    return None


_UNORDERED = ("c_deck", "c_hand", "c_discard", "c_removed", "m_deck", "m_hand", "m_discard", "banned")


def _hash_eq(state: GameState) -> str | None:
    try:
        hash(state)
    except TypeError as exc:
        return f"the state cannot be hashed: {exc}"
    problem = _card_data_hashable(state)
    if problem is not None:
        return problem
    # Equal positions must be equal states: collections nobody can see the order of are kept sorted.
    # (Replay, `contract.replay`, checks that states built independently are equal and hash equal.)
    for name in _UNORDERED:
        values = getattr(state, name)
        if len(values) > 1 and values != tuple(sorted(values)):
            return f"{name} is not in canonical (sorted) order: {list(values)}"
    return None


_HASHED_CARDS: list[object] = []
"""The card sets `_card_data_hashable` has checked (kept, not their ids, so a recycled id is never mistaken)."""


def _card_data_hashable(state: GameState) -> str | None:
    """Cards are data: every field of the card set, and every card, Goal and space in its tables, is an
    immutable value that hashes (the solver's encoding and caches key on them); checked once per card set.
    And the rulings in force are choices of the registry's rulings."""
    cards = state.cards
    if any(seen is cards for seen in _HASHED_CARDS):
        return _rulings_in_force(state)
    for name in (f.name for f in dataclasses.fields(cards)):
        value = getattr(cards, name)
        for key, item in (value.items() if isinstance(value, dict) else ((name, value),)):
            try:
                hash(item)
            except TypeError as exc:
                return f"the card data cannot be hashed ({name}, {key}): {exc}"
    _HASHED_CARDS.append(cards)
    return _rulings_in_force(state)


_CHECKED_RULINGS: list[object] = []
"""The rulings `_rulings_in_force` has checked (kept, not their ids)."""


def _rulings_in_force(state: GameState) -> str | None:
    """Every ruling in force, chosen or by default, is one of the registry's choices for it (once per rulings)."""
    rulings = state.rulings
    if any(seen is rulings for seen in _CHECKED_RULINGS):
        return None
    for ruling in REGISTRY:
        if rulings.get(ruling.id) not in ruling.choice_names:
            return (f"ruling {ruling.id} reads {rulings.get(ruling.id)!r}, which is not one of its choices "
                    f"{list(ruling.choice_names)}")
    _CHECKED_RULINGS.append(rulings)
    return None


def _legal_agreement(before: GameState, action: Action, after: GameState) -> str | None:
    if not engine.is_legal(before, action):
        return f"{action} was listed by legal_actions but is_legal says it is not legal"
    return None


def _apply_pure(before: GameState, action: Action, after: GameState) -> str | None:
    snapshot = tuple(getattr(before, name) for name in STATE_FIELDS)
    again = engine.apply(before, action)
    if tuple(getattr(before, name) for name in STATE_FIELDS) != snapshot:
        return f"apply changed its input state while applying {action}"
    if again != after or hash(again) != hash(after):
        changed = [n for n in STATE_FIELDS if getattr(again, n) != getattr(after, n)]
        return f"applying {action} twice to the same state gave different successors (fields {changed})"
    return None


def _action_text(before: GameState, action: Action, after: GameState) -> str | None:
    text = str(action)
    try:
        back = parse_action(text)
    except Exception as exc:  # a text form that does not parse is exactly what this check reports
        return f"the text form {text!r} of {action!r} does not parse: {exc}"
    if back != action:
        return f"the text form {text!r} parses to {back!r}, not {action!r}"
    return None


class _Replayed:
    """A node of the replays' trie: one more action replayed from Set-Up, and (every `CHECKPOINT` actions) the state
    the replay reached there."""

    __slots__ = ("children", "ended", "state")

    def __init__(self, state: GameState | None = None) -> None:
        self.children: dict[Action, _Replayed] = {}
        self.state = state
        self.ended = False
        """Whether the replay's game was over after this action."""


CHECKPOINT = 8
"""The replays' trie keeps the state replayed after every this many actions (a game resumes from the last one on
its path, replaying at most this many actions less one again)."""

REPLAYED_SIZE = 200_000
"""At most this many actions in the replays' trie; a full trie starts again empty."""

_REPLAYS = memo()
"""Per card set and rulings (`Game`): the root of the trie of actions replayed from Set-Up, and its size."""


def _replay(trace: Trace) -> str | None:
    """Replay the game's actions from Set-Up; the replay must not end early and must reach the game's state.

    Hypothesis plays most of a game again in the next (its mutations and its target phase keep a prefix), and a
    replay of the whole game every time replays that prefix every time. The replays share a trie instead: each
    action of each game is replayed once from Set-Up, in a chain of the engine's own answers that starts at
    `engine.new_game` (never the machine's states met: this checks the engine that the machine's record trusts),
    and a game whose prefix was replayed before resumes that replay at the last checkpoint on its path.
    """
    game = trace.game
    found = _REPLAYS.get(game)
    if not isinstance(found, tuple) or found[1] >= REPLAYED_SIZE:
        found = (_Replayed(engine.new_game(game)), 0)
    root, size = found
    actions = trace.actions
    node, resume, start = root, root, 0
    for depth, action in enumerate(actions, start=1):
        child = node.children.get(action)
        if child is None:
            break
        if child.ended and depth < len(actions):
            return f"replaying the trace, the game ended at step {depth} of {len(actions)}"
        node = child
        if child.state is not None:
            resume, start = child, depth
    state = resume.state
    assert state is not None
    node = resume
    for i in range(start, len(actions)):
        action = actions[i]
        state = engine.apply(state, action)
        child = node.children.get(action)
        if child is None:
            child = node.children[action] = _Replayed()
            size += 1
        if (i + 1) % CHECKPOINT == 0 and child.state is None:
            child.state = state
        if state.outcome is not None:
            child.ended = True
            if i + 1 < len(actions):
                _REPLAYS[game] = (root, size)
                return f"replaying the trace, the game ended at step {i + 1} of {len(actions)}"
        node = child
    _REPLAYS[game] = (root, size)
    if state != trace.final or hash(state) != hash(trace.final):
        changed = [n for n in STATE_FIELDS if n != "game" and getattr(state, n) != getattr(trace.final, n)]
        return f"replaying {len(actions)} actions from Set-Up gives a different state (fields {changed})"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("contract.no-crash", "The engine never raises on a reachable state or a legal action.",
                   (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _no_crash),
    StateInvariant("contract.hash-eq", "Equal states hash equal; unordered collections are kept in canonical order; "
                   "the card data hashes; the rulings in force are registered choices.",
                   (S.COMPANY_CARDS, S.MOVEMENT_CARDS), _hash_eq),
    StateInvariant("contract.real-choices", "A pending choice offers more than declining it (with nothing else to "
                   "choose the step resolves to nothing), and so does every choosing effect of the card data on a "
                   "table with nothing to choose from.", (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO),
                   _real_choices),
    StateInvariant("contract.distinct-actions", "legal_actions lists each action once.",
                   (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _distinct_actions),
    TransitionInvariant("contract.legal", "Every action legal_actions lists is accepted by is_legal.",
                        (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _legal_agreement),
    TransitionInvariant("contract.apply-pure", "apply never changes its input and always gives the same successor.",
                        (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _apply_pure),
    TransitionInvariant("contract.action-text", "Every action's text form parses back to the same action.",
                        (S.COMPANY_ON_YOUR_GO, S.MOVEMENT_ON_YOUR_GO), _action_text),
    TraceInvariant("contract.replay", "Replaying a game's actions from Set-Up reproduces its state.",
                   (S.COMPANY_SETUP, S.MOVEMENT_SETUP), _replay),
)
"""The `contract.*` invariants, in the order they are checked and listed."""
