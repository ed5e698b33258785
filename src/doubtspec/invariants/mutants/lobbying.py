"""Breakages of Lobbying: putting the Company's Profit on cards, taking it back (Unlobby), and where a removed
Market card and its Lobbying go."""

from __future__ import annotations

import dataclasses

from doubtspec.invariants.mutants.mutant import Patch
from doubtspec.model import company, engine, legal
from doubtspec.model.actions import Action, LobbyWhere, RemoveFromMarket, Skip, Unlobby
from doubtspec.model.cards import CompanyEffect, Lobby, TokenKind
from doubtspec.model.state import NO_CARD, GameState, Phase
from doubtspec.model.steps import ResolveEffect, StartCompanyTurn
from doubtspec.model.work import Work, replace_at, sorted_with


def four_lobbies() -> tuple[Patch, ...]:
    # The limit of three Profit per card read as four.
    return ((legal, "MAX_LOBBY", 4),)


def lobby_without_profit() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A Lobby effect offers its targets even when the Company has no Profit to put on them.
        if isinstance(step.effect, Lobby) and state.profit == 0:
            return original(dataclasses.replace(state, profit=1), step)
        return original(state, step)

    return ((legal, "effect_choices", effect_choices),)


def lobby_same_card_twice() -> tuple[Patch, ...]:
    original = legal.lobby_targets

    def lobby_targets(state: GameState, used: tuple[int, ...] = ()) -> list[int]:
        # The cards an effect has lobbied already are forgotten: its next token may go on the same card.
        return original(state)

    return ((legal, "lobby_targets", lobby_targets),)


def lobby_forced() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A Lobby effect's token cannot be declined once a card may take it.
        choices = original(state, step)
        if isinstance(step.effect, Lobby):
            return [a for a in choices if not isinstance(a, Skip)]
        return choices

    return ((legal, "effect_choices", effect_choices),)


def second_lobby_token_forced() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # Once a Lobby effect has placed a token, its remaining tokens must be placed.
        choices = original(state, step)
        if isinstance(step.effect, Lobby) and step.used:
            return [a for a in choices if not isinstance(a, Skip)]
        return choices

    return ((legal, "effect_choices", effect_choices),)


def second_lobbying_toggles() -> tuple[Patch, ...]:
    def lobby(w: Work, target: int) -> None:
        # The Profit on the card toggles instead of growing: a second token takes the first away.
        w.profit -= 1
        if target >= company.GOAL_TARGET:
            slot = target - company.GOAL_TARGET
            w.goal_profit = replace_at(w.goal_profit, slot, w.goal_profit[slot] ^ 1)
        else:
            w.market_profit = replace_at(w.market_profit, target, w.market_profit[target] ^ 1)

    return ((company, "lobby", lobby),)


def unlobby_next_space() -> tuple[Patch, ...]:
    original = company.unlobby

    def unlobby(w: Work, target: int) -> None:
        # Taking back a Market card's Lobbying takes the next space's instead (the last space's is right).
        if target < company.GOAL_TARGET and target + 1 < len(w.market_profit):
            target += 1
        original(w, target)

    return ((company, "unlobby", unlobby),)


def unlobby_after_play() -> tuple[Patch, ...]:
    original = legal.unlobby_actions

    def unlobby_actions(state: GameState) -> list[Action]:
        # Lobbying can be taken back until the first buy, not only before the first play.
        return original(dataclasses.replace(state, plays=state.buys))

    return ((legal, "unlobby_actions", unlobby_actions),)


def unlobby_bare_cards() -> tuple[Patch, ...]:
    original = legal.unlobby_actions

    def unlobby_actions(state: GameState) -> list[Action]:
        # Every Market card is offered, lobbied or not: taking back nothing still uses up the turn's removal.
        actions = original(state)
        if state.plays or state.unlobbied:
            return actions
        market = [i for i, card in enumerate(state.market) if card != NO_CARD]
        offered: list[Action] = [Unlobby(LobbyWhere.MARKET, i) for i in market]
        return offered + [a for a in actions if isinstance(a, Unlobby) and a.where is LobbyWhere.GOAL]

    return ((legal, "unlobby_actions", unlobby_actions),)


def unlobby_once_per_game() -> tuple[Patch, ...]:
    original = engine._run_auto

    def run_auto(w: Work, step: object) -> None:
        # The start of the Company's turn forgets to clear its removal of Lobbying: once per game, not per turn.
        unlobbied = w.unlobbied
        original(w, step)
        if isinstance(step, StartCompanyTurn):
            w.unlobbied = unlobbied

    return ((engine, "_run_auto", run_auto),)


def removed_card_to_market_deck() -> tuple[Patch, ...]:
    original = company.remove_market_card

    def remove_market_card(w: Work, space: int) -> None:
        # The removed Market card goes back into the Market deck instead of the Movement's discard pile.
        card = w.market[space]
        original(w, space)
        discard = list(w.m_discard)
        discard.remove(card)
        w.m_discard = tuple(discard)
        w.m_deck = sorted_with(w.m_deck, card)

    return ((company, "remove_market_card", remove_market_card),)


def removed_card_lobbying_to_company() -> tuple[Patch, ...]:
    original = company.remove_market_card

    def remove_market_card(w: Work, space: int) -> None:
        # The removed card's Lobbying is credited to the Company's Profit instead of going back to the supply.
        lobbied = w.market_profit[space]
        original(w, space)
        w.take(TokenKind.PROFIT, lobbied)
        w.profit += lobbied

    return ((company, "remove_market_card", remove_market_card),)


def lobbied_market_card_kept() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A Market card carrying Lobbying read as the Company's own investment: it cannot be removed.
        actions = original(state, step)
        return [a for a in actions if not isinstance(a, RemoveFromMarket) or not state.market_profit[a.space]]

    return ((legal, "effect_choices", effect_choices),)


def sequence_lobbies_market_only() -> tuple[Patch, ...]:
    original = legal.effect_choices

    def effect_choices(state: GameState, step: ResolveEffect) -> list[Action]:
        # A Lobby effect of the Reshuffle Sequence (a reshuffle effect) offers the Market's cards only, never a Goal.
        actions = original(state, step)
        if isinstance(step.effect, Lobby) and state.phase is Phase.COMPANY_DRAW:
            return [a for a in actions if getattr(a, "where", None) is not LobbyWhere.GOAL]
        return actions

    return ((legal, "effect_choices", effect_choices),)


def lobby_effect_one_token() -> tuple[Patch, ...]:
    original = company.resolve_effect

    def resolve_effect(w: Work, effect: CompanyEffect) -> None:
        # A Lobby effect places one token whatever it prints (Interference's "each in subsequent actions" read as
        # one per action): it waits as a single choice, and the offers agree.
        if isinstance(effect, Lobby):
            w.push(ResolveEffect(effect, 1))
            return
        original(w, effect)

    return ((company, "resolve_effect", resolve_effect),)
