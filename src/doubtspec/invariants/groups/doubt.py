"""The `doubt` invariants. Doubt: column bounds, placing and removing one space at a time, and the Messaging offered."""

from __future__ import annotations

from doubtspec.invariants.derived import legal, memo, messaging_price, remembered, replace
from doubtspec.invariants.shapes import (
    Invariant,
    StateInvariant,
    TransitionInvariant,
)
from doubtspec.model import engine
from doubtspec.model import legal as legality
from doubtspec.model.actions import (
    Action,
    Message,
    PlaceDoubt,
    Skip,
)
from doubtspec.model.cards import AddDoubt, DoubtGroup, TokenKind, Zone
from doubtspec.model.state import TOKEN_INDEX, GameState, Phase, Side
from doubtspec.model.steps import (
    Messaging,
    ResolveEffect,
    StartCompanyTurn,
)
from doubtspec.rulebook import Section

S = Section


def _doubt_bounds(state: GameState) -> str | None:
    values = state.cards.display.doubt_values
    for column, count in enumerate(state.doubt):
        if not 0 <= count <= len(values[column]):
            return f"Doubt column {column} holds {count} tokens; it has {len(values[column])} spaces"
    return None


def _doubt_steps(before: GameState, action: Action, after: GameState) -> str | None:
    b, a = before.doubt, after.doubt
    match action:
        case PlaceDoubt(column=column):
            expected = tuple(n + 1 if i == column else n for i, n in enumerate(b))
            if a != expected:
                return f"placing one Doubt in column {column.key} changed the columns from {list(b)} to {list(a)}"
        case Message(zone=zone, doubts=doubts, victims=victims):
            expected = tuple(n - doubts if i == zone else n for i, n in enumerate(b))
            if a != expected:
                return f"removing {doubts} Doubt from {zone.key} changed the columns from {list(b)} to {list(a)}"
            if victims and doubts != b[zone]:
                return f"{victims} Victims removed from {zone.key} while {b[zone] - doubts} Doubt remain there"
            step = before.pending[0] if before.pending else None
            if isinstance(step, Messaging):
                cost = messaging_price(before, action)
                tokens = max(0, cost - step.icons)
                if before.messaging - after.messaging != tokens:
                    return (f"removing {doubts} Doubt bottom-up and {victims} Victims from {zone.key} costs {cost} "
                            f"({step.icons} from icons, {tokens} tokens), but {before.messaging - after.messaging} "
                            "Messaging tokens were spent")
        case _:
            if a != b:
                return f"Doubt changed from {list(b)} to {list(a)} by {action}"
    return None


_GROUP_COLUMNS: dict[DoubtGroup, tuple[Zone, ...]] = {
    DoubtGroup.I: (Zone.CHILDREN, Zone.ADULTS),
    DoubtGroup.II: (Zone.MIDDLE_AGE, Zone.ELDERLY),
}
"""Adding Doubt: the columns of each group a Doubt effect names (the display's two column pairs)."""


def _doubt_group(before: GameState, action: Action, after: GameState) -> str | None:
    """A Doubt effect places its tokens only in the columns of the group it names."""
    if not isinstance(action, PlaceDoubt) or not before.pending:
        return None
    head = before.pending[0]
    if not isinstance(head, ResolveEffect) or not isinstance(head.effect, AddDoubt):
        return None
    columns = _GROUP_COLUMNS[head.effect.group]
    if action.column not in columns:
        return (f"{action} placed Doubt in {action.column.key} for an effect of group {head.effect.group.value}, "
                f"whose columns are {[z.key for z in columns]}")
    return None


def _adding_doubt(state: GameState) -> bool:
    """A Doubt effect waits for its column (the game not over)."""
    return (state.outcome is None and bool(state.pending) and isinstance(state.pending[0], ResolveEffect)
            and isinstance(state.pending[0].effect, AddDoubt))


def _group_offers(state: GameState) -> str | None:
    """A Doubt effect lets the Company choose any column of its group with a free space (Adding Doubt: the next
    space of a column of the group), as long as the supply has a Doubt token, and nothing else (it cannot be
    declined)."""
    if not _adding_doubt(state):
        return None
    head = state.pending[0]
    assert isinstance(head, ResolveEffect) and isinstance(head.effect, AddDoubt)
    values = state.cards.display.doubt_values
    free = {z for z in _GROUP_COLUMNS[head.effect.group] if state.doubt[z] < len(values[z])}
    if not state.supply[TOKEN_INDEX[TokenKind.DOUBT]]:
        free = set()
    offers = legal(state)
    others = [str(a) for a in offers if not isinstance(a, PlaceDoubt)]
    if others:
        # Adding Doubt: the effect places its token; declining it, or anything else, is no choice it gives.
        return f"a Doubt effect of group {head.effect.group.value} offers {others} besides its columns"
    offered = {a.column for a in offers if isinstance(a, PlaceDoubt)}
    if offered != free:
        return (f"a Doubt effect of group {head.effect.group.value} offers the columns {sorted(z.key for z in offered)}"
                f"; the group's columns with a free space are {sorted(z.key for z in free)}")
    return None


def _messaging_offers(state: GameState) -> str | None:
    """Price every Messaging the engine would offer against each depth of each column, bottom-up, from the card data.

    Messaging against a column of two or three Doubt, or against an emptied one, is rare in generated
    games, so instead of waiting for one, ask the engine's own legality layer what it would offer with
    each zone's column at every depth (and a Victim there), at the budgets around each price: the
    Victims once all the Doubt is removed, each part of the Doubt bottom-up, and never more Doubt or
    Victims than the zone holds.
    """
    if state.outcome is not None or state.pending or state.phase is not Phase.MOVEMENT_TURN:
        return None
    # The probes differ from the state in its Doubt, Victims and Messaging tokens, and the engine's
    # `messaging_choices` they ask reads only those and the card data: the verdict is kept by them.
    return remembered(_MESSAGING_VERDICTS, (state.game, state.doubt, state.victims),
                      lambda: _messaging_offers_now(state))


_MESSAGING_VERDICTS = memo()


def _messaging_offers_now(state: GameState) -> str | None:
    """`_messaging_offers`, asking the engine."""
    # Tokens held would add to the budget; ask with icons alone.
    bare = replace(state, messaging=0)
    for zone in Zone:
        values = state.cards.display.doubt_values[zone]
        for present in range(len(values) + 1):
            doubt = list(bare.doubt)
            victims = list(bare.victims)
            doubt[zone], victims[zone] = present, max(victims[zone], 1)
            probe = replace(bare, doubt=tuple(doubt), victims=tuple(victims))
            message = _column_offers(probe, zone, present, values)
            if message is not None:
                return message
    return None


def _column_offers(probe: GameState, zone: Zone, present: int, values: tuple[int, ...]) -> str | None:
    """`_messaging_offers` for one column holding `present` Doubt (with at least one Victim in its zone)."""
    where = f"{zone.key} holding {present} Doubt"
    # Victims: once a zone's Doubt is all removed, each further Messaging removes one of its Victims.
    price = sum(values[present - 1 - i] for i in range(present))
    for budget, offered in ((price, False), (price + 1, True)):
        choices = legality.messaging_choices(probe, Messaging(icons=budget))
        if (Message(zone, present, 1) in choices) is not offered:
            return (f"with {budget} Messaging and {where}, removing all of it (price {price}) and one Victim was "
                    f"{'not ' if offered else ''}offered")
    for doubts in range(1, present + 1):
        price = sum(values[present - 1 - i] for i in range(doubts))
        for budget, offered in ((price - 1, False), (price, True)):
            if budget < 0:
                continue
            choices = legality.messaging_choices(probe, Messaging(icons=budget))
            if (Message(zone, doubts, 0) in choices) is not offered:
                return (f"with {budget} Messaging and {where}, removing {doubts} of it (bottom-up price {price}) "
                        f"was {'not ' if offered else ''}offered")
    plenty = sum(values) + probe.victims[zone] + 1
    choices = legality.messaging_choices(probe, Messaging(icons=plenty))
    offers = [a for a in choices if isinstance(a, Message) and a.zone == zone]
    if offers and Skip(Side.MOVEMENT) not in choices:
        # Messaging: the Movement may remove Doubt and Victims, as many as it likes and can pay; none is a choice.
        return f"with {where}, Messaging was offered without Skip: the Movement may remove nothing"
    beyond = [a for a in offers if a.doubts > present]
    if beyond:
        return f"with {where}, {beyond[0]} was offered (more Doubt than the column holds)"
    # With a budget for every Victim and one more, no removal may take more Victims than the zone holds.
    crowded = [a for a in offers if a.victims > probe.victims[zone]]
    if crowded:
        return f"with {where} and {probe.victims[zone]} Victims, {crowded[0]} was offered (more Victims than it holds)"
    empty = [a for a in offers if a.doubts + a.victims == 0]
    if empty:
        return f"with {where}, {empty[0]} was offered: it removes nothing (declining is Skip)"
    return None


def _movement_turn(state: GameState) -> bool:
    """The Movement's turn, nothing pending (where `doubt.messaging-tokens-offers` starts its Messaging)."""
    return state.outcome is None and not state.pending and state.phase is Phase.MOVEMENT_TURN


def _messaging_tokens_offers(state: GameState) -> str | None:
    """On each Movement turn, pay a Messaging with tokens alone, and with two or three icons and tokens, and check
    what it spends, and that it ends (or goes on with the icons left).

    Generated games pay Messaging almost always with the icons of face-up cards, which leave nothing to count
    (`doubt.order` checks the tokens spent) and no budget for a second Zone. So give the Movement, from the supply,
    what removing all of a column's Doubt bottom-up costs (and one more for a Victim of its zone, or as many more as
    a zone holding two or more has Victims; or, in a column of two or more, its bottom token alone) and one to
    spare, as tokens or as two icons and tokens (their sum is the budget; two, so that the tokens alone fall short
    even with the spare), or as three icons and tokens (so that a removal costing two leaves an icon over for the
    next Zone under any-zones: with at most two icons the leftover is the same for every way of subtracting the
    cost, e.g. a shift), start a Messaging with those icons, apply that removal, and check it as `doubt.order` and
    `rule.messaging` would: under ruling messaging-zones=one-zone the Messaging is then over, the spare kept; under
    any-zones it goes on with the icons the removal left, ahead of the turn's end queued behind it
    (`rule.choice-step`).
    """
    if not _movement_turn(state):
        return None
    from doubtspec.invariants.groups.rule import choice_step_check, messaging_check

    index = TOKEN_INDEX[TokenKind.MESSAGING]
    for zone in Zone:
        present = state.doubt[zone]
        values = state.cards.display.doubt_values[zone]
        removals = [(present, victims) for victims in sorted({0, min(1, state.victims[zone])}) if present + victims]
        if present >= 2:
            removals.append((1, 0))  # only the bottom token: the rest of the column stays
        if state.victims[zone] >= 2:
            removals.append((present, state.victims[zone]))  # every Victim of the zone: a Messaging has no cap
        for doubts, victims in removals:
            price = sum(values[present - 1 - i] for i in range(doubts))
            for icons in (0, 2, 3):
                held = price + victims + 1 - icons
                if held < 0 or held - state.messaging > state.supply[index]:
                    continue
                supply = list(state.supply)
                supply[index] -= max(0, held - state.messaging)
                probe = replace(state, pending=(Messaging(icons=icons),),
                                messaging=max(state.messaging, held), supply=tuple(supply))
                action = Message(zone, doubts, victims)
                if action not in engine.legal_actions(probe):
                    return (f"with {probe.messaging} Messaging tokens and {icons} icons, removing {doubts} of the "
                            f"{present} Doubt under {zone.key} (price {price}) and {victims} Victims is not offered")
                after = engine.apply(probe, action)
                message = _doubt_steps(probe, action, after) or messaging_check(probe, action, after)
                if message is None:
                    # As after a buy, the turn's end waits behind the Messaging: what the removal leaves comes first.
                    queued = replace(probe, pending=(*probe.pending, StartCompanyTurn()))
                    message = choice_step_check(queued, action, engine.apply(queued, action))
                if message is not None:
                    return f"paying a Messaging with {icons} icons and tokens: {message}"
    return None


INVARIANTS: tuple[Invariant, ...] = (
    StateInvariant("doubt.bounds", "Each Doubt column holds between zero and its number of spaces.",
                   (S.COMPANY_ON_YOUR_GO, S.ADDING_DOUBT, S.MESSAGING), _doubt_bounds),
    TransitionInvariant("doubt.group", "A Doubt effect places its tokens only in the columns of the group it "
                        "names.", (S.ADDING_DOUBT,), _doubt_group),
    StateInvariant("doubt.group-offers", "A Doubt effect offers every column of its group that has a free space "
                   "(while the supply has a token), and no other.", (S.ADDING_DOUBT,), _group_offers, _adding_doubt),
    TransitionInvariant("doubt.order",
                        "Doubt is placed one space at a time and removed bottom-up at each space's printed cost.",
                        (S.ADDING_DOUBT, S.MESSAGING), _doubt_steps),
    StateInvariant("doubt.messaging-offers",
                   "Messaging is offered exactly when its budget covers the bottom-up price of the Doubt removed, "
                   "and one more for each Victim, never more Doubt or Victims than the zone holds; removing nothing "
                   "(Skip) is always one of the choices.",
                   (S.MESSAGING,), _messaging_offers),
    StateInvariant("doubt.messaging-tokens-offers",
                   "Messaging paid with tokens, alone or beside icons, spends the bottom-up price of the Doubt removed "
                   "and one more for each Victim (icons first), and ends with the one Zone or goes on with the icons "
                   "left, ahead of the steps queued behind it.", (S.MESSAGING,), _messaging_tokens_offers,
                   _movement_turn),
)
"""The `doubt.*` invariants, in the order they are checked and listed."""
