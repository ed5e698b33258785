"""The Movement's side as a sound over-approximation, one transition per round (the Goal questions).

A state is taken at the start of the Movement's turn. The abstraction keeps what decides how fast
Goals can be achieved and forgets what can only slow the Movement down:

    tokens      Influence, Flight (and Flight spent, reclaimed at Pacing), Messaging, Agitation
    cards       per Movement card: in the hand, in the Tableau, face up (0/1 each); Tableau order is
                forgotten, so a placed card may take its Bonuses from any face-up card, and a Refresh
                may turn any face-down card face up
    Market      per space: holds a card or not; which card is free (any card in neither the hand nor
                the Tableau: best luck, and the discards reshuffle into the Market deck)
    Goals       per place of the structure: the Goal dealt there (fixed by Set-Up, best luck within
                the goal-split ruling), achieved or not, the Agitation tokens on it

The round is the Movement's one action (Pass, Play or Buy with the space's Action), then the
Company's turn, abstracted to: it may remove Market cards, and it may reshuffle in its Draw Phase,
which starts Pacing (Passive Abilities, the Market refilled, Flight reclaimed). Lobbying (Profit on
Market cards and Goals) only raises costs, Doubt only makes Messaging dearer and the piece limits
only cut gains, so all three are left out: every gain is "at most" the rules' amount. Payment may
flip any face-up cards (the no-superfluous-flip ruling only forbids some payments), and a game that
ends early is continued. Every concrete round is therefore one transition of this system; the
tests check that on generated and simulated games (`project` maps a game state to the variables).

State variables are Z3 integers (flags are 0/1), as `RoundSystem` expects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import z3

from doubtspec.model.cards import (
    AddRestriction,
    Ban,
    BonusKind,
    GainFlight,
    GainInfluence,
    HandSize,
    MarketAction,
    TokenKind,
)
from doubtspec.model.game import Game
from doubtspec.model.legal import LOWER_GOALS
from doubtspec.model.movement import COVERED_BY, UPPER_STACK_PLACES
from doubtspec.model.state import NO_CARD, GameState
from doubtspec.solver.abstraction.system import Fresh, Lemma, RoundSystem, State

BONUS_KINDS: tuple[BonusKind, ...] = (BonusKind.INFLUENCE, BonusKind.MESSAGING, BonusKind.AGITATION,
                                      BonusKind.REFRESH)
TOKENS = ("influence", "flight", "flight_spent", "messaging", "agitation")
PLACES = tuple(range(len(COVERED_BY)))


@dataclass(frozen=True, slots=True)
class CardRow:
    """What the abstraction needs of one Movement card."""

    number: int
    influence: int
    research: int
    messaging: int
    agitation: int
    left: tuple[int, int, int, int]
    """Bonus counts on the left edge, per `BONUS_KINDS`."""
    right: tuple[int, int, int, int]
    passive: tuple[int, int, int, int]
    """Passive Abilities: Influence, Messaging, Agitation, Refresh."""


@dataclass(frozen=True, slots=True)
class GoalRow:
    """What the abstraction needs of one Goal."""

    number: int
    cost: int
    points: int
    hand: int
    flight: int
    influence: int
    passive: tuple[int, int, int, int]


def _counts(kinds: Sequence[BonusKind]) -> tuple[int, int, int, int]:
    c = [kinds.count(k) for k in BONUS_KINDS]
    return c[0], c[1], c[2], c[3]


def card_rows(game: Game) -> tuple[CardRow, ...]:
    rows = []
    for number in sorted(game.cards.movement):
        card = game.movement_card(number)
        p = card.passive
        rows.append(CardRow(number, card.influence, card.icons.research, card.icons.messaging,
                            card.icons.agitation, _counts(card.left), _counts(card.right),
                            (p.influence, p.messaging, p.agitation, p.refresh)))
    return tuple(rows)


def goal_rows(game: Game) -> tuple[GoalRow, ...]:
    rows = []
    for number in sorted(game.cards.goals):
        goal = game.goal(number)
        hand = flight = influence = 0
        for effect in goal.effects:
            match effect:
                case HandSize(amount=amount):
                    hand += amount
                case GainFlight(count=count):
                    flight += count
                case GainInfluence(count=count):
                    influence += count
                case Ban() | AddRestriction():
                    pass  # the Company's side only
        p = goal.passive
        rows.append(GoalRow(number, goal.cost, goal.points, hand, flight, influence,
                            (p.influence, p.messaging, p.agitation, p.refresh)))
    return tuple(rows)


def _sum(terms: Sequence[z3.ArithRef | int]) -> z3.ArithRef:
    return z3.Sum([z3.IntVal(t) if isinstance(t, int) else t for t in terms]) if terms else z3.IntVal(0)


def _min(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    return z3.If(a <= b, a, b)


def _flag(term: z3.ArithRef) -> z3.BoolRef:
    return term == 1


class MovementModel:
    """The abstraction's tables for one card file and rulings, and its formulas."""

    def __init__(self, game: Game, first_pacing_round: int = 1) -> None:
        """`first_pacing_round` > 1 only from a proved lemma (`movement_pacing.first_pacing_round`)."""
        self.game = game
        self.first_pacing_round = first_pacing_round
        self.cards = card_rows(game)
        self.goals = goal_rows(game)
        self.spaces = game.cards.market
        self.rules = game.cards.rules
        self.starting = game.cards.movement_starting
        self.variables = self._variables()

    # --- variables -----------------------------------------------------------------------------

    def _variables(self) -> tuple[str, ...]:
        names = list(TOKENS)
        for row in self.cards:
            names += [f"hand_{row.number}", f"tab_{row.number}", f"up_{row.number}"]
        names += [f"full_{s}" for s in range(len(self.spaces))]
        for p in PLACES:
            names += [f"goal_at_{p}", f"done_{p}", f"agon_{p}"]
        return tuple(names)

    def _goal_table(self, goal_at: z3.ArithRef, value: Callable[[GoalRow], int]) -> z3.ArithRef:
        term: z3.ArithRef = z3.IntVal(0)
        for row in self.goals:
            if value(row):
                term = z3.If(goal_at == row.number, value(row), term)
        return term

    def points(self, s: State) -> z3.ArithRef:
        return _sum([s[f"done_{p}"] * self._goal_table(s[f"goal_at_{p}"], lambda g: g.points) for p in PLACES])

    def hand_limit(self, s: State) -> z3.ArithRef:
        bonus = [s[f"done_{p}"] * self._goal_table(s[f"goal_at_{p}"], lambda g: g.hand) for p in PLACES]
        return self.rules.movement_hand_limit + _sum(bonus)

    def goal_achieved(self, s: State, goal: int) -> z3.BoolRef:
        return z3.Or([z3.And(_flag(s[f"done_{p}"]), s[f"goal_at_{p}"] == goal) for p in PLACES])

    def movement_win(self, s: State) -> z3.BoolRef:
        return self.points(s) >= self.rules.goal_points_to_win

    def _limit(self, token: str) -> int:
        kind = TokenKind.FLIGHT if token.startswith("flight") else TokenKind(token)
        return self.game.cards.supply[kind]

    # --- Set-Up ----------------------------------------------------------------------------------

    def domain(self, s: State) -> z3.BoolRef:
        """Every variable's range: flags 0/1, tokens within their piece limits, an up card is in the Tableau.

        (Supply: every token of a kind is in the supply or with its owner, so none holds more than the limit.)
        """
        parts = [z3.And(s[t] >= 0, s[t] <= self._limit(t)) for t in TOKENS]
        for row in self.cards:
            n = row.number
            parts += [z3.Or(s[f"hand_{n}"] == 0, s[f"hand_{n}"] == 1), z3.Or(s[f"tab_{n}"] == 0, s[f"tab_{n}"] == 1),
                      z3.Or(s[f"up_{n}"] == 0, s[f"up_{n}"] == 1), s[f"up_{n}"] <= s[f"tab_{n}"],
                      s[f"hand_{n}"] + s[f"tab_{n}"] <= 1]
        parts += [z3.Or(s[f"full_{i}"] == 0, s[f"full_{i}"] == 1) for i in range(len(self.spaces))]
        for p in PLACES:
            parts += [z3.Or(s[f"done_{p}"] == 0, s[f"done_{p}"] == 1), s[f"agon_{p}"] >= 0,
                      s[f"agon_{p}"] <= self._limit("agitation")]
        return z3.And(parts)

    def deal(self, s: State) -> z3.BoolRef:
        """Movement Set-Up 2 (rulings goal-split, goal-overlap): any deal of the Goals chance allows."""
        numbers = [g.number for g in self.goals]
        at = [s[f"goal_at_{p}"] for p in PLACES]
        parts = [z3.Distinct(at)]
        for p in PLACES:
            pool = numbers if p < UPPER_STACK_PLACES else [g for g in numbers if g in LOWER_GOALS]
            parts.append(z3.Or([at[p] == g for g in pool]))
        return z3.And(parts)

    def init(self, s: State) -> z3.BoolRef:
        """The state before round 1: a starting card face up, starting Influence, the Market dealt."""
        parts = [self.domain(s), self.deal(s), s["influence"] == self.rules.movement_starting_influence]
        parts += [s[t] == 0 for t in TOKENS if t != "influence"]
        parts.append(_sum([s[f"tab_{c}"] for c in self.starting]) == 1)
        for row in self.cards:
            n = row.number
            parts += [s[f"hand_{n}"] == 0, s[f"up_{n}"] == s[f"tab_{n}"]]
            if n not in self.starting:
                parts.append(s[f"tab_{n}"] == 0)
        for p in PLACES:
            parts += [s[f"done_{p}"] == 0, s[f"agon_{p}"] == 0]
        return z3.And(parts)

    # --- one round -------------------------------------------------------------------------------

    def step(self, s: State, t: State, fresh: Fresh, round_: z3.ArithRef) -> z3.BoolRef:
        """One round: the Movement's action, then the Company's turn (its removals, maybe Pacing)."""
        cards, spaces = self.cards, range(len(self.spaces))
        parts: list[z3.BoolRef] = [self.domain(t)]
        parts += [t[f"goal_at_{p}"] == s[f"goal_at_{p}"] for p in PLACES]
        is_play, is_buy = fresh.bool("is_play"), fresh.bool("is_buy")
        parts.append(z3.Not(z3.And(is_play, is_buy)))
        is_pass = z3.Not(z3.Or(is_play, is_buy))

        def one_hot(name: str, options: Sequence[int], active: z3.BoolRef) -> dict[int, z3.ArithRef]:
            flags = {o: fresh.int(f"{name}_{o}") for o in options}
            parts.extend(z3.Or(f == 0, f == 1) for f in flags.values())
            parts.append(_sum(list(flags.values())) == z3.If(active, 1, 0))
            return flags

        numbers = [r.number for r in cards]
        hand = {n: s[f"hand_{n}"] for n in numbers}
        tab = {n: s[f"tab_{n}"] for n in numbers}
        up = {n: s[f"up_{n}"] for n in numbers}

        # Play: a card from the hand (On Your Go, Play).
        played = one_hot("play", numbers, is_play)
        parts += [played[n] <= hand[n] for n in numbers]
        # Buy: a space holding a card, a card in neither hand nor Tableau, room in the hand (Buying a Card).
        space = one_hot("space", list(spaces), is_buy)
        parts += [space[i] <= s[f"full_{i}"] for i in spaces]
        # The bought card is taken last; only a Goal Victory during the Action ends the game before that.
        taken = fresh.bool("taken")
        parts += [z3.Implies(taken, is_buy), z3.Implies(z3.And(is_buy, z3.Not(taken)), self.movement_win(t))]
        bought = one_hot("bought", numbers, taken)
        parts += [bought[n] + hand[n] + tab[n] <= 1 for n in numbers]
        parts.append(z3.Implies(is_buy, _sum(list(hand.values())) < self.hand_limit(s)))

        def action_of(kind: MarketAction) -> z3.BoolRef:
            return _sum([space[i] for i in spaces if self.spaces[i].action is kind]) == 1

        # Spending Influence: flip face-up cards, tokens (Flight first) pay the shortfall.
        cost = _sum([played[r.number] * r.influence for r in cards if r.influence]
                    + [space[i] * self.spaces[i].cost for i in spaces if self.spaces[i].cost])
        flip = {n: fresh.int(f"flip_{n}") for n in numbers}
        parts += [z3.And(flip[n] >= 0, flip[n] <= up[n]) for n in numbers]
        value = _sum([flip[r.number] * r.influence for r in cards if r.influence])
        pay_flight, pay_influence = fresh.int("pay_flight"), fresh.int("pay_influence")
        parts += [pay_flight >= 0, pay_influence >= 0, pay_flight <= s["flight"], pay_influence <= s["influence"],
                  pay_flight + pay_influence == z3.If(cost > value, cost - value, 0)]
        up_paid = {n: up[n] - flip[n] for n in numbers}

        # Icons of the face-up cards after paying (Buying a Card: the space's Action uses them).
        research = _sum([up_paid[r.number] * r.research for r in cards if r.research])
        messaging = _sum([up_paid[r.number] * r.messaging for r in cards if r.messaging])
        agitation = _sum([up_paid[r.number] * r.agitation for r in cards if r.agitation])

        # Organize: a free play from the hand (before the bought card is taken).
        is_organize = z3.And(is_buy, action_of(MarketAction.ORGANIZE))
        organize = fresh.bool("organize")
        parts.append(z3.Implies(organize, is_organize))
        organized = one_hot("organized", numbers, organize)
        parts += [organized[n] <= hand[n] for n in numbers]
        placing = z3.Or(is_play, organize)
        placed = {n: played[n] + organized[n] for n in numbers}

        # Playing a Card: a ninth card first removes one; Bonuses align with a face-up neighbour.
        full_tableau = _sum(list(tab.values())) >= self.rules.tableau_limit
        removed = one_hot("removed", numbers, z3.And(placing, full_tableau))
        parts += [removed[n] <= tab[n] for n in numbers]
        up_left = {n: up_paid[n] - z3.If(removed[n] == 1, up_paid[n], 0) for n in numbers}
        neighbour = {n: fresh.int(f"neighbour_{n}") for n in numbers}
        parts += [z3.And(neighbour[n] >= 0, neighbour[n] <= up_left[n]) for n in numbers]
        parts.append(_sum(list(neighbour.values())) <= z3.If(placing, 1, 0))
        right = fresh.bool("right")
        bonus: list[z3.ArithRef] = []
        for k in range(len(BONUS_KINDS)):
            new_left = _sum([placed[r.number] * r.left[k] for r in cards if r.left[k]])
            new_right = _sum([placed[r.number] * r.right[k] for r in cards if r.right[k]])
            nb_left = _sum([neighbour[r.number] * r.left[k] for r in cards if r.left[k]])
            nb_right = _sum([neighbour[r.number] * r.right[k] for r in cards if r.right[k]])
            bonus.append(z3.If(right, _min(new_left, nb_right), _min(new_right, nb_left)))
        bonus_influence, bonus_messaging, bonus_agitation, bonus_refresh = bonus

        # The space's Action (Buying a Card).
        is_research = z3.And(is_buy, action_of(MarketAction.RESEARCH))
        is_messaging = z3.And(is_buy, action_of(MarketAction.MESSAGING))
        is_agitation = z3.And(is_buy, action_of(MarketAction.AGITATION))
        is_refresh = z3.And(is_buy, action_of(MarketAction.REFRESH))
        # Messaging: each Victim removed costs one Messaging (icons first) and gains one Influence.
        victims, spent_messaging = fresh.int("victims"), fresh.int("spent_messaging")
        parts += [victims >= 0, spent_messaging >= 0, spent_messaging <= s["messaging"],
                  z3.Implies(z3.Not(is_messaging), z3.And(victims == 0, spent_messaging == 0)),
                  victims <= messaging + spent_messaging]
        # Agitation: one available Goal; achieve it, or leave the Agitation on it.
        target = one_hot("target", list(PLACES), fresh.bool("agitate"))
        parts.append(z3.Implies(z3.Not(is_agitation), _sum(list(target.values())) == 0))
        spent_agitation = fresh.int("spent_agitation")
        parts += [spent_agitation >= 0, spent_agitation <= s["agitation"],
                  z3.Implies(_sum(list(target.values())) == 0, spent_agitation == 0)]
        achieve = fresh.bool("achieve")
        achieved_now: dict[int, z3.BoolRef] = {}
        for p in PLACES:
            chosen = target[p] == 1
            open_place = z3.And([s[f"done_{p}"] == 0] + [s[f"done_{q}"] == 1 for q in COVERED_BY[p]])
            cost_p = self._goal_table(s[f"goal_at_{p}"], lambda g: g.cost)
            parts.append(z3.Implies(chosen, open_place))
            now = z3.And(chosen, achieve)
            achieved_now[p] = now
            parts.append(z3.Implies(now, agitation + spent_agitation + s[f"agon_{p}"] >= cost_p))
            parts.append(t[f"done_{p}"] == z3.If(now, 1, s[f"done_{p}"]))
            progress = fresh.int(f"progress_{p}")
            parts += [progress >= 0, progress <= agitation]
            parts.append(t[f"agon_{p}"] == z3.If(now, 0, z3.If(chosen, s[f"agon_{p}"] + spent_agitation + progress,
                                                              s[f"agon_{p}"])))
        goal_influence = _sum([z3.If(achieved_now[p], self._goal_table(s[f"goal_at_{p}"], lambda g: g.influence), 0)
                               for p in PLACES])
        goal_flight = _sum([z3.If(achieved_now[p], self._goal_table(s[f"goal_at_{p}"], lambda g: g.flight), 0)
                            for p in PLACES])

        # Pass: one Influence, two with none (ruling pass-bonus: at most two either way here).
        pass_gain = z3.If(is_pass, z3.If(s["influence"] == 0, 2, 1), 0)

        # Refreshes: Bonus Refreshes, the Refresh Action's one flip.
        refresh_count = bonus_refresh + z3.If(is_refresh, 1, 0)

        # Cards after the Movement's action.
        hand_mid = {n: hand[n] - placed[n] + bought[n] for n in numbers}
        tab_mid = {n: tab[n] - removed[n] + placed[n] for n in numbers}
        refreshed = {n: fresh.int(f"refreshed_{n}") for n in numbers}
        parts += [z3.And(refreshed[n] >= 0, refreshed[n] <= tab[n] - removed[n] - up_left[n]) for n in numbers]
        parts.append(_sum(list(refreshed.values())) <= refresh_count)
        up_mid = {n: up_left[n] + placed[n] + refreshed[n] for n in numbers}

        # Tokens after the Movement's action: each gain is at most the rules' amount.
        def gain(name: str, most: z3.ArithRef) -> z3.ArithRef:
            g = fresh.int(name)
            parts.extend([g >= 0, g <= most])
            return g

        influence_mid = (s["influence"] - pay_influence
                         + gain("g_influence", pass_gain + bonus_influence + z3.If(is_research, 2 * research, 0)
                                + victims + goal_influence))
        flight_mid = s["flight"] - pay_flight + gain("g_flight", goal_flight)
        messaging_mid = s["messaging"] - spent_messaging + gain("g_messaging", bonus_messaging)
        agitation_mid = s["agitation"] - spent_agitation + gain("g_agitation", bonus_agitation)
        flight_spent_mid = s["flight_spent"] + pay_flight

        # The Company's turn: it may remove Market cards; a Reshuffle in its Draw Phase starts Pacing.
        pacing = fresh.bool("pacing")
        if self.first_pacing_round > 1:
            parts.append(z3.Implies(round_ < self.first_pacing_round, z3.Not(pacing)))
        full_mid = {i: z3.If(z3.And(space[i] == 1, taken), 0, z3.If(organize, 1, s[f"full_{i}"])) for i in spaces}
        # (Organize refills every empty space before its own card is taken.)
        for i in spaces:
            parts.append(z3.Implies(z3.Not(pacing), t[f"full_{i}"] <= full_mid[i]))
        # Pacing 1: Passive Abilities of face-up cards and achieved Goals; Refresh passives flip cards.
        done_mid = {p: t[f"done_{p}"] for p in PLACES}

        def passive(k: int) -> z3.ArithRef:
            def of_goal(g: GoalRow) -> int:
                return g.passive[k]
            from_cards = _sum([up_mid[r.number] * r.passive[k] for r in cards if r.passive[k]])
            from_goals = _sum([done_mid[p] * self._goal_table(s[f"goal_at_{p}"], of_goal)
                               for p in PLACES]) if any(g.passive[k] for g in self.goals) else z3.IntVal(0)
            return from_cards + from_goals

        influence_pace = gain("p_influence", z3.If(pacing, passive(0), 0))
        messaging_pace = gain("p_messaging", z3.If(pacing, passive(1), 0))
        agitation_pace = gain("p_agitation", z3.If(pacing, passive(2), 0))
        pace_refresh = {n: fresh.int(f"pace_refresh_{n}") for n in numbers}
        parts += [z3.And(pace_refresh[n] >= 0, pace_refresh[n] <= tab_mid[n] - up_mid[n]) for n in numbers]
        parts.append(_sum(list(pace_refresh.values())) <= z3.If(pacing, passive(3), 0))

        parts += [t["influence"] == influence_mid + influence_pace,
                  t["messaging"] == messaging_mid + messaging_pace,
                  t["agitation"] == agitation_mid + agitation_pace,
                  # Pacing 3 (ruling flight): spent Flight comes back.
                  t["flight"] == flight_mid + z3.If(pacing, flight_spent_mid, 0),
                  t["flight_spent"] == z3.If(pacing, 0, flight_spent_mid)]
        for n in numbers:
            parts += [t[f"hand_{n}"] == hand_mid[n], t[f"tab_{n}"] == tab_mid[n],
                      t[f"up_{n}"] == up_mid[n] + pace_refresh[n]]
        return z3.And(parts)

    # --- targets and the system ------------------------------------------------------------------

    def system(self, name: str, target: Callable[[State], z3.BoolRef],
               lemmas: Sequence[Lemma] = ()) -> RoundSystem:
        return RoundSystem(name, self.variables, self.init, self.step, target, tuple(lemmas))

    def goal_system(self, goal: int) -> RoundSystem:
        return self.system(f"movement_goal_{goal}", lambda s: self.goal_achieved(s, goal))

    def win_system(self) -> RoundSystem:
        return self.system("movement_win", self.movement_win)

    # --- the engine's states as values of the variables --------------------------------------------

    def project(self, state: GameState, goals: Mapping[int, int] | None = None) -> dict[str, int]:
        """A game state at the start of a Movement turn (or over) as values of the state variables.

        `goals` gives the Goal dealt at each place (achieved places no longer show it in the state).
        """
        values: dict[str, int] = {"influence": state.influence, "flight": state.flight,
                                  "flight_spent": state.flight_spent, "messaging": state.messaging,
                                  "agitation": state.agitation}
        tableau = dict(state.tableau)
        for row in self.cards:
            n = row.number
            values[f"hand_{n}"] = int(n in state.m_hand)
            values[f"tab_{n}"] = int(n in tableau)
            values[f"up_{n}"] = int(tableau.get(n, False))
        for i, card in enumerate(state.market):
            values[f"full_{i}"] = int(card != NO_CARD)
        for p in PLACES:
            dealt = state.goals[p] if goals is None else goals[p]
            values[f"goal_at_{p}"] = dealt
            values[f"done_{p}"] = int(state.goals[p] == NO_CARD)
            values[f"agon_{p}"] = state.goal_agitation[p]
        return values


class RoundCheck:
    """Whether concrete rounds are transitions of the abstraction: the oracle of its tests.

    One solver holds the round's formula over named before/after variables and the round number;
    each check fixes them to a game's projected values and asks Z3 for the round's unknowns.
    """

    def __init__(self, model: MovementModel) -> None:
        self.model = model
        self.before = {name: z3.Int(f"{name}@before") for name in model.variables}
        self.after = {name: z3.Int(f"{name}@after") for name in model.variables}
        self.round = z3.Int("round@check")
        self.round_solver = z3.Solver()
        self.round_solver.add(model.domain(self.before),
                              model.step(self.before, self.after, Fresh("@round"), self.round))
        self.setup_solver = z3.Solver()
        self.setup_solver.add(model.init(self.before))

    def _holds(self, solver: z3.Solver, fixed: list[z3.BoolRef]) -> bool:
        solver.push()
        solver.add(*fixed)
        result = solver.check()
        solver.pop()
        return bool(result == z3.sat)

    def admits_setup(self, values: Mapping[str, int]) -> bool:
        return self._holds(self.setup_solver, [self.before[k] == v for k, v in values.items()])

    def admits_round(self, before: Mapping[str, int], after: Mapping[str, int], round_number: int) -> bool:
        """Round `round_number` (1, 2, ...) from `before` to `after`."""
        return self._holds(self.round_solver, [self.before[k] == v for k, v in before.items()]
                           + [self.after[k] == v for k, v in after.items()] + [self.round == round_number])
