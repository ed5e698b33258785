"""The registry of rulings: every choice the draft rulebook leaves open, decided in one place.

Each ruling names its rulebook section, the reading the engine uses by default and the
alternatives. Where an alternative is cheap to support it is *selectable*
(`--ruling draw-order=reshuffle-first`), so the fuzzer and the solver can run under either
reading; the others list their alternatives for the designer's information only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from doubtspec.errors import OptionError
from doubtspec.rulebook import Section


@dataclass(frozen=True, slots=True)
class Ruling:
    """One open choice: its id, where it arises, the default reading and the alternatives."""

    id: str
    section: Section
    question: str
    choices: tuple[tuple[str, str], ...]
    """(choice name, what it means); the first is the default."""
    selectable: bool

    @property
    def default(self) -> str:
        return self.choices[0][0]

    @property
    def choice_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.choices)


def _r(id: str, section: Section, question: str, *choices: tuple[str, str], selectable: bool = False) -> Ruling:
    return Ruling(id, section, question, tuple(choices), selectable)


S = Section
REGISTRY: tuple[Ruling, ...] = (
    # --- Company ---------------------------------------------------------------------------
    _r("draw-order", S.RESHUFFLE_SEQUENCE,
       "When the Draw Phase finds fewer than five cards in the deck, what is drawn before the Sequence?",
       ("draw-first", "draw what the deck holds, run the Sequence, reshuffle the discards, finish drawing"),
       ("reshuffle-first", "run the Sequence, shuffle the discards into the remaining deck, then draw five"),
       selectable=True),
    _r("economic-defeat", S.COMPANY_ON_YOUR_GO,
       "When is the Company unable to both Play and Buy?",
       ("at-need", "at the start of the Play Phase with no legal play, or on entering the Buy Phase with no"
        " legal buy; a phase cannot end before its first play or buy; no look-ahead"),
       ("look-ahead", "a play is illegal if it leaves no legal buy (not supported)")),
    _r("budget-payment", S.SPENDING_BUDGET,
       "Which sets of hand cards may pay a cost?",
       ("minimal", "a set of other hand cards whose Budget sums to at least the cost and from which no card"
        " can be dropped (the excess of the last card is lost; a cost of 0 is paid with no card). Paying"
        " with a superfluous card only throws it away, since the Draw Phase discards the hand anyway"),
       ("any-cover", "any set of other hand cards whose Budget sums to at least the cost"),
       selectable=True),
    _r("trigger-match", S.RESERVE_EFFECTS,
       "Which Reserve cards does a standard effect's trigger activate?",
       ("trigger-and-icon", "those whose trigger and action type (large icon) both match, left to right"),
       ("trigger-only", "every card with the same trigger (contradicts The Culture example)")),
    _r("trigger-timing", S.STANDARD_EFFECTS,
       "Does a card's trigger fire before or after its own effects?",
       ("after-effects", "the card's own effects resolve first, then matching Reserve cards activate"),
       ("before-effects", "matching Reserve cards activate first, then the card's own effects"),
       selectable=True),
    _r("trash-buy", S.BUYING_CARDS,
       "Which cards of the trash pile can be bought?",
       ("top-only", "only the top (most recently removed) card, at its Budget + 1"),
       ("any", "any card in the trash pile, at its Budget + 1"),
       selectable=True),
    _r("stack-buy", S.COMPANY_SETUP,
       "Which card of an odd/even stack can be bought?",
       ("top-only", "only the top card: the even card until it is bought, then the odd one"),),
    _r("restriction-pile-buy", S.COMPANY_SETUP,
       "Can the Company buy from the Restrictions pile?",
       ("not-buyable", "no: the pile is where Goals take Restriction cards from"),
       ("buyable", "yes, like any pile, at the card's Budget"),
       selectable=True),
    _r("doubt-full-column", S.ADDING_DOUBT,
       "What happens to a Doubt when both columns of its zone group are full?",
       ("lost", "it is not placed and stays in the supply; a full column cannot be chosen"),),
    _r("doubt-values", S.COMPANY_ON_YOUR_GO,
       "Which values do the Doubt spaces carry?",
       ("visible-digits", "the visible digits of the printed sheet, from the card file's display table"),),
    _r("scoring-arithmetic", S.SCORING_DEMOGRAPHICS,
       "How many Victims remain in Middle Age and Adults?",
       ("as-printed", "Middle Age keeps n - 2*(n div 3) (seven leave three); Adults keep n - (n div 2)"),),
    _r("star-timing", S.SEED_DEMOGRAPHICS,
       "When does the third star win?",
       ("immediately", "at step B when it is earned; the rest of the Sequence is not played"),
       ("end-of-turn", "at the end of the Company's turn (a Marginalization in between would win instead)")),
    _r("profit-victory", S.COMPANY_RULES,
       "Which Profit counts for the 70-Profit victory?",
       ("held-after-sequence", "Profit the Company holds (not on Movement cards) at the end of the Sequence,"
        " checked after step D's draw, so a Marginalization at step D ends the game first"),),
    _r("reshuffle-draw", S.RESHUFFLE_AND_DRAW,
       "A Reserve card's reshuffle effect draws cards in step C: how many does step D draw?",
       ("up-to-hand-size", "only up to five: the cards drawn in step C stay, so the turn may start with more"),),
    _r("mid-play-reshuffle", S.RESHUFFLE_SEQUENCE,
       "A card draws from an empty deck during the Play Phase.",
       ("silent", "shuffle the discards into the deck without the Sequence and without Pacing"),),
    _r("lobby-targets", S.COMPANY_INTERFERENCE,
       "Which Movement cards can carry Lobbying Profit?",
       ("market-and-goals", "cards in the Movement's Market spaces and Goals still in the structure"),
       ("market-only", "only cards in the Movement's Market spaces"),
       selectable=True),
    _r("lobby-optional", S.COMPANY_INTERFERENCE,
       "Must a lobby effect be used?",
       ("optional", "each token may be placed or skipped; one Profit is spent per token placed"),),
    _r("unlobby", S.COMPANY_INTERFERENCE,
       "The voluntary removal of Profit at the start of the Company's turn.",
       ("one-card-before-first-play", "all tokens of one card, before the turn's first play; back to the supply"),),
    _r("banned-reserve", S.COMPANY_INTERFERENCE,
       "What happens to a banned card already in the Reserve at step C of the Reshuffle Sequence?",
       ("no-effect", "it has no effect at all: its reshuffle effects are skipped and an instruction to stay in the"
        " Reserve is ignored, so it goes to the trash pile like a card without instructions"),
       ("stays-honoured", "its reshuffle effects are skipped, but a card that says it stays remains in the Reserve"
        " (staying is read as not being an effect)"),
       selectable=True),
    _r("ban-scope", S.MOVEMENT_INTERFERENCE,
       "What does a ban cover, and what does it cost?",
       ("kind", "every card of the banned pile's kind, wherever it is; one Ban token on that pile"),),
    _r("discount-scope", S.BUYING_CARDS,
       "How long does a cost reduction last?",
       ("next-buy", "it reduces the next Buy of the same turn, never below zero; unused at turn end, it is lost"),),
    _r("remove-market-destination", S.MOVEMENT_INTERFERENCE,
       "Where does a card removed from the Movement's Market go?",
       ("movement-discard", "to the Movement's discard pile; the space stays empty until refilled"),),
    _r("restriction-source", S.AGITATION_AND_GOALS,
       "Where do Restriction cards added by Goals come from?",
       ("pile-only", "the top of the Restrictions pile, only while it has cards; never the trash pile"),),
    _r("pile-order", S.COMPANY_SETUP,
       "In which order do the five piles lie (Set-Up does not shuffle them)?",
       ("lowest-on-top", "by card number, the lowest on top"),),
    _r("named-effects", S.COMPANY_CARDS,
       "Card texts that are not icons.",
       ("registry", "each is implemented once in the engine and referenced by name from the card file"),),
    # --- Movement --------------------------------------------------------------------------
    _r("tableau-geometry", S.PLAYING_A_CARD,
       "Where can a card be played in the Tableau?",
       ("ends", "at the left or right end of the row; at most the Tableau limit; the ninth card first"
        " removes one not used to pay, to the Movement's discard"),),
    _r("bonus-alignment", S.PLAYING_A_CARD,
       "Which Bonuses align?",
       ("facing-edges", "the new card's edge facing its nearest unflipped neighbour against that neighbour's"
        " facing edge; each kind on both edges is received once per matching pair"),),
    _r("refresh-bonus", S.PLAYING_A_CARD,
       "What does a Refresh bonus or action do with no flipped card?",
       ("nothing", "nothing; it never triggers another Bonus"),),
    _r("influence-payment", S.SPENDING_INFLUENCE,
       "How are tokens and flipped cards combined?",
       ("shortfall-tokens", "the player chooses face-up cards to flip, none of them superfluous (the set"
        " without its smallest card would not cover the cost); tokens pay exactly the shortfall; Flight"
        " tokens are spent before Influence tokens (they come back at Pacing)"),),
    _r("refresh-passives", S.PACING,
       "Which Refresh Passive Abilities count at Pacing step 1?",
       ("face-up-tableau", "those of face-up Tableau cards, like the token passives (only face-up cards act); a"
        " Refresh passive on an achieved Goal does nothing, since the step counts only the Tableau's"),
       ("whole-tableau", "those of every Tableau card, face up or face down (not supported)"),
       ("tableau-and-goals", "those of face-up Tableau cards and of achieved Goals (not supported)")),
    _r("pass-bonus", S.MOVEMENT_ON_YOUR_GO,
       "When does Pass give two Influence?",
       ("no-tokens", "when the Movement holds no Influence tokens"),
       ("no-influence", "when it holds no Influence tokens and no face-up Tableau card"),
       selectable=True),
    _r("hand-limit", S.MOVEMENT_CARDS,
       "The Movement's hand limit.",
       ("three-plus-goals", "three plus one per achieved hand-size Goal; a full hand cannot Buy"),),
    _r("messaging-zones", S.MESSAGING,
       "How many zones may one Messaging action target?",
       ("one-zone", "one zone: Doubt of its column bottom-up, then its Victims"),
       ("any-zones", "several zones, one after another, from the same Messaging"),
       selectable=True),
    _r("messaging-spend-order", S.MESSAGING,
       "Icons or tokens first?",
       ("icons-first", "face-up icons are spent first (they are not kept), then tokens; unspent tokens stay"),),
    _r("agitation-progress", S.AGITATION_AND_GOALS,
       "Partial progress on a Goal.",
       ("icons-then-tokens", "icon Agitation is converted to tokens first; the player adds tokens; a Goal"
        " whose progress reaches its cost is achieved and only the needed tokens are spent"),),
    _r("goal-split", S.MOVEMENT_SETUP,
       "How are G1-G6 split before G7-G9 are shuffled in?",
       ("even", "three and three: G7-G9 and three of G1-G6 fill the first six places dealt"),),
    _r("goal-overlap", S.AGITATION_AND_GOALS,
       "Which Goals overlap which?",
       ("pyramid", "a card of a lower row covers the two cards above it that it sits between; later rows lie"
        " on top, so at first only the two-card row is available"),),
    _r("market-shift", S.PACING,
       "The Market shift at Pacing.",
       ("reading-order", "cards move towards the first space in reading order (top row, then bottom row);"
        " empty spaces are refilled from the deck, an empty deck reshuffles the Movement's discards"),),
    _r("organize", S.BUYING_A_CARD,
       "Organize with an empty hand or a full Tableau.",
       ("optional-play", "the play is optional; the ninth-card removal applies; empty spaces refill first"),),
    _r("flight", S.PACING,
       "What Flight tokens do (the rulebook does not say).",
       ("wild-influence", "earned from Goals; each pays one Influence, spent before the Influence tokens; "
                          "spent ones return at Pacing step 3"),),
    _r("supply-exhausted", S.MOVEMENT_SETUP,
       "A gain larger than what the supply holds.",
       ("take-what-remains", "the gain is cut to what the supply holds; nothing is created"),),
    _r("turn-numbering", S.MOVEMENT_ON_YOUR_GO,
       "What is 'turn N' in reports and solver queries?",
       ("round", "round N: the Movement's Nth turn followed by the Company's Nth turn"),
       ("company-turn", "the Company's Nth turn (the same bound, since the Movement moves first)")),
)

BY_ID: Mapping[str, Ruling] = {r.id: r for r in REGISTRY}


@dataclass(frozen=True, slots=True)
class Rulings:
    """The choices in force for one game; hashable, so it can travel with a state or a report."""

    choices: tuple[tuple[str, str], ...] = ()
    """Non-default choices only, sorted by id."""

    def get(self, ruling_id: str) -> str:
        for rid, choice in self.choices:
            if rid == ruling_id:
                return choice
        return BY_ID[ruling_id].default

    def with_choice(self, ruling_id: str, choice: str) -> Rulings:
        ruling = BY_ID.get(ruling_id)
        if ruling is None:
            known = ", ".join(r.id for r in REGISTRY if r.selectable)
            raise OptionError(f"unknown ruling {ruling_id!r}; selectable rulings: {known}", field="--ruling")
        if choice not in ruling.choice_names:
            raise OptionError(
                f"ruling {ruling_id!r} has no choice {choice!r}; choices: {', '.join(ruling.choice_names)}",
                field="--ruling",
            )
        if not ruling.selectable and choice != ruling.default:
            raise OptionError(f"ruling {ruling_id!r} is not selectable; only {ruling.default!r} is supported",
                              field="--ruling")
        rest = {rid: c for rid, c in self.choices if rid != ruling_id}
        if choice != ruling.default:
            rest[ruling_id] = choice
        return Rulings(tuple(sorted(rest.items())))

    @classmethod
    def parse(cls, specs: Iterable[str]) -> Rulings:
        """Build from `ID=CHOICE` strings, as given on the command line."""
        rulings = cls()
        for spec in specs:
            rid, sep, choice = spec.partition("=")
            if not sep:
                raise OptionError(f"expected ID=CHOICE, got {spec!r}", field="--ruling")
            rulings = rulings.with_choice(rid.strip(), choice.strip())
        return rulings

    def as_dict(self) -> dict[str, str]:
        """Every ruling with the choice in force (defaults included)."""
        return {r.id: self.get(r.id) for r in REGISTRY}

    def __str__(self) -> str:
        return ",".join(f"{rid}={c}" for rid, c in self.choices) or "defaults"


DEFAULT_RULINGS = Rulings()
