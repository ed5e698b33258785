"""The registry of hand-written mutants, by name, in the order they were added (the order tests and tools list
them in); each one's patches live in the module of the rules it breaks."""

from __future__ import annotations

from doubtspec.invariants.mutants import (
    card_data,
    company_buy,
    company_play,
    lobbying,
    movement_goals,
    movement_market,
    movement_play,
    rejections,
    reshuffle,
    ruling_registry,
    setup,
)
from doubtspec.invariants.mutants.mutant import Mutant

MUTANTS: dict[str, Mutant] = {m.name: m for m in (
    Mutant("scoring-slip", "Scoring keeps half the Adults rounded down instead of up.",
           ("scoring.demographics", "rule.draw-offers"), reshuffle.scoring_slip),
    Mutant("token-from-nothing", "Pass gives the Movement an Influence token that does not come from the supply.",
           ("tokens.influence", "rule.pass"), movement_play.token_from_nothing),
    Mutant("ban-ignored", "Bans are ignored: banned cards can be played and banned Reserve cards trigger.",
           ("ban.play", "reject.banned", "ban.reserve-trigger", "ban.offers"), company_play.ban_ignored),
    Mutant("hand-limit-off-by-one", "The Movement may buy with one card more than its hand limit.",
           ("hand.movement", "reject.full-hand", "hand.movement-buy-offers"), movement_play.hand_limit_off_by_one),
    Mutant("doubt-top-down", "Messaging removes Doubt at the top spaces' printed costs instead of the bottom's.",
           ("doubt.order", "doubt.messaging-offers"), movement_goals.doubt_top_down),
    Mutant("card-duplicated", "A bought card is put into the discard pile twice.",
           ("cards.company",), company_buy.card_duplicated),
    Mutant("profit-victory-ignored", "Holding 70 Profit at the end of a Reshuffle does not win.",
           ("outcome.profit-victory", "outcome.profit-offers"), reshuffle.profit_victory_ignored),
    Mutant("profit-victory-above-target", "Only more than 70 Profit at the end of a Reshuffle wins, not 70 itself.",
           ("outcome.profit-offers",), reshuffle.profit_victory_above_target),
    Mutant("banned-cards-pay-nothing", "Banned cards in the Company's hand cannot be spent as Budget for a buy.",
           ("rule.buy-offers",), company_buy.banned_cards_pay_nothing),
    Mutant("trash-at-face-value", "Cards from the trash pile cost their Budget, without the extra one.",
           ("rule.buy", "rule.buy-offers"), company_buy.trash_at_face_value),
    Mutant("reshuffle-at-five", "A deck of exactly five cards triggers a Reshuffle at the Draw Phase.",
           ("rule.draw-phase", "rule.draw-offers"), reshuffle.reshuffle_at_five),
    Mutant("reserve-trashed-left-to-right",
           "The Reshuffle puts the Reserve into the trash from left to right, skipping its effects.",
           ("rule.draw-phase", "rule.draw-offers"), reshuffle.reserve_trashed_left_to_right),
    Mutant("reserve-cleared-before-effects", "Step C moves every leaving Reserve card at once, then resolves their "
           "effects: a choice of the rightmost card sees the cards to its left gone.", ("rule.reserve-resolve-offers",),
           reshuffle.reserve_cleared_before_effects),
    Mutant("play-beside-lone-card-right-only", "A play beside a lone Tableau card is offered at the right end only.",
           ("rule.influence-payment-offers",), movement_play.play_beside_lone_card_right_only),
    Mutant("bonus-from-flipped", "Tableau Bonuses are taken from the end card even when it is flipped.",
           ("rule.movement-play",), movement_play.bonus_from_flipped),
    Mutant("play-one-cheaper", "The Movement pays one Influence less than the price for every play and buy.",
           ("rule.movement-play", "rule.movement-buy"), movement_play.play_one_cheaper),
    Mutant("restriction-withheld", "Achieving a Goal does not add its Restriction card to the Company's discard.",
           ("rule.goal", "rule.goal-offers", "rule.lobbied-goal-offers"),
           movement_goals.restriction_withheld),
    Mutant("pays-only-unequal", "The Economic Defeat check takes a hand worth exactly a card's cost for one that "
           "cannot pay it, and one worth less for one that can.", ("outcome.defeat-boundary-offers",),
           company_buy.pays_only_unequal),
    Mutant("restriction-from-empty-pile",
           "A Goal takes its Restriction card from the pile without looking whether one is left.",
           ("rule.goal", "rule.goal-offers"), movement_goals.restriction_from_empty_pile),
    Mutant("star-at-thirteen", "A Reshuffle scoring exactly the star threshold earns no star.",
           ("scoring.demographics", "rule.reshuffle-offers", "rule.draw-offers"), reshuffle.star_at_thirteen),
    Mutant("four-lobbies", "A card may hold four Profit tokens of Lobbying.",
           ("lobby.limit", "lobby.offers"), lobbying.four_lobbies),
    Mutant("short-hand-kept", "A Reshuffle that refills the hand to one card short does not marginalize.",
           ("hand.marginalization-offers",), reshuffle.short_hand_kept),
    Mutant("defeat-ignores-bans", "The Economic Defeat check at the start of the turn counts banned cards.",
           ("outcome.economic-defeat", "outcome.defeat-offers"), company_buy.defeat_ignores_bans),
    Mutant("banned-reserve-triggers", "Banned Reserve cards still trigger on a matching play.",
           ("ban.reserve-trigger", "ban.trigger-offers"), company_play.banned_reserve_triggers),
    Mutant("banned-reshuffle-effects", "A banned Reserve card's reshuffle effects still resolve.",
           ("scoring.demographics", "ban.reshuffle-offers", "ban.silent-reshuffle-offers"),
           reshuffle.banned_reshuffle_effects),
    Mutant("removed-card-to-hand", "The card removed from a full Tableau goes to the hand, not the discard pile.",
           ("rule.movement-play", "tableau.full-offers"), movement_play.removed_card_to_hand),
    Mutant("pacing-without-refresh", "Pacing gains the token passives but not the Refresh passives.",
           ("rule.pacing", "rule.pacing-offers"), movement_market.pacing_without_refresh),
    Mutant("progress-not-credited", "The Agitation offered for a Goal ignores the Agitation already on it.",
           ("rule.agitation-offers",), movement_goals.progress_not_credited),
    Mutant("unlobby-next-space", "Taking back a Market card's Lobbying takes the next space's Profit instead.",
           ("rule.unlobby", "rule.unlobby-offers"), lobbying.unlobby_next_space),
    Mutant("organize-wrong-end", "The free play of Organize goes to the other end of the Tableau.",
           ("rule.organize-play", "rule.organize-offers"), movement_market.organize_wrong_end),
    Mutant("organize-one-end", "Organize's free play is offered at the right end only.",
           ("rule.organize-offers",), movement_market.organize_one_end),
    Mutant("organize-removes-below-limit", "Organize's free play removes a Tableau card even below the limit.",
           ("rule.organize-offers", "tableau.removal-offers"), movement_market.organize_removes_below_limit),
    Mutant("shredding-does-nothing", "A trash-from-hand effect offers no card to trash, so it resolves to nothing.",
           ("rule.trash-offers",), company_play.shredding_does_nothing),
    Mutant("supply-overdrawn", "A gain larger than the supply takes it all, leaving the supply below zero.",
           ("tokens.exhausted-offers",), company_play.supply_overdrawn),
    Mutant("victims-overdrawn", "A Victims gain larger than the supply still places every Victim it asks for.",
           ("tokens.exhausted-step",), company_play.victims_overdrawn),
    Mutant("buy-only-when-full", "The Movement may buy only with a full hand (never, in effect).",
           ("hand.movement-buy-offers",), movement_play.buy_only_when_full),
    Mutant("draw-never-ready", "A draw from a deck with cards is never offered and never dropped: the step loops.",
           ("contract.no-crash",), company_play.draw_never_ready),
    Mutant("reshuffle-before-drawing", "The Reshuffle Sequence runs before the deck's last cards are drawn, "
           "although ruling draw-order says draw first.", ("rule.draw-phase", "rule.draw-offers"),
           reshuffle.reshuffle_before_drawing),
    Mutant("reshuffle-first-ignored", "Under ruling draw-order=reshuffle-first the deck's last cards are still drawn "
           "before the Sequence (caught only by the ruling variants).", ("rule.draw-phase", "rule.draw-offers"),
           reshuffle.reshuffle_first_ignored),
    Mutant("draw-without-reshuffle", "A card's draw in the Play Phase with the deck empty draws nothing, instead of "
           "reshuffling the discards without the Sequence.", ("rule.empty-draw-offers",),
           company_play.draw_without_reshuffle),
    Mutant("spent-market-deck-waits", "With the Market deck and the Movement's discards spent, an empty Market "
           "space still waits for a card, and the game stalls.", ("rule.organize-offers",),
           movement_market.spent_market_deck_waits),
    Mutant("lobby-without-profit", "A Lobby effect offers cards to put Profit on when the Company has none.",
           ("lobby.offers",), lobbying.lobby_without_profit),
    Mutant("messaging-icons-reused", "Under ruling messaging-zones=any-zones the Messaging goes on to the next Zone "
           "with all its icons again, not with those left over (caught only by the ruling variants).",
           ("rule.messaging", "doubt.messaging-tokens-offers"), movement_goals.messaging_icons_reused),
    Mutant("trigger-timing-swapped", "A standard play's trigger fires before the card's own effects, although "
           "ruling trigger-timing says after them.", ("rule.trigger-timing",), company_play.trigger_timing_swapped),
    Mutant("unlobby-bare-cards", "Taking back Lobbying is offered on every Market card, lobbied or not.",
           ("rule.unlobby-offers",), lobbying.unlobby_bare_cards),
    Mutant("unlobby-after-play", "Lobbying can be taken back after the turn's first play, until the first buy.",
           ("rule.unlobby-offers",), lobbying.unlobby_after_play),
    Mutant("removed-card-to-market-deck", "A Market card the Company removes goes back into the Market deck.",
           ("rule.remove-market", "rule.remove-market-offers"), lobbying.removed_card_to_market_deck),
    Mutant("removed-card-lobbying-to-company", "A Market card the Company removes gives its Lobbying to the "
           "Company's Profit instead of the supply.", ("rule.remove-market", "rule.remove-market-offers"),
           lobbying.removed_card_lobbying_to_company),
    Mutant("unlobby-once-per-game", "The Company's removal of Lobbying is never allowed again once made: the "
           "turn's start does not clear it.", ("rule.company-turn-start", "rule.company-turn-start-offers"),
           lobbying.unlobby_once_per_game),
    Mutant("profit-before-draw", "A Reshuffle counts the Profit before the draw at step D, so a Company short of "
           "cards wins on Profit instead of being Marginalized.", ("outcome.profit-offers", "outcome.profit-victory"),
           reshuffle.profit_before_draw),
    Mutant("banned-staying-card-resolves", "Under ruling banned-reserve=stays-honoured a banned Reserve card that "
           "stays also resolves its reshuffle effects (caught only by the ruling variants).",
           ("ban.silent-reshuffle-offers",), reshuffle.banned_staying_card_resolves),
    Mutant("reserve-matched-by-standard-icon", "A Reserve card is matched by its standard side's icon, so one whose "
           "sides show different icons never activates.", ("rule.trigger-offers", "rule.company-play"),
           company_play.reserve_matched_by_standard_icon),
    Mutant("goal-victory-only-exact", "A Goal that takes the Movement past the Goal points to win, not exactly to "
           "them, lets the game go on.", ("outcome.goal-victory-offers",), movement_goals.goal_victory_only_exact),
    Mutant("no-flips", "The Movement is never offered to pay by flipping face-up cards.",
           ("rule.flip-offers", "tableau.full-offers"), movement_play.no_flips),
    Mutant("effect-once", "An effect that needs a choice per token (Doubt, Lobbying) resolves only one token.",
           ("rule.doubt-count-offers", "lobby.distinct-offers"), company_play.effect_once),
    Mutant("first-payments-only", "Of the ways to pay a play with the same number of cards, only the first is offered.",
           ("rule.payment-offers",), company_play.first_payments_only),
    Mutant("buy-first-payments-only", "Of the ways to pay a buy with the same number of cards, only the first is "
           "offered.", ("rule.buy-offers",), company_play.buy_first_payments_only),
    Mutant("superfluous-flips", "Two face-up cards are offered to pay together when the larger alone covers the cost.",
           ("rule.influence-payment-offers", "tableau.full-offers"), movement_play.superfluous_flips),
    Mutant("removed-card-pays", "The card a play into a full Tableau removes may still be flipped to pay for it.",
           ("tableau.full-offers",), movement_play.removed_card_pays),
    Mutant("action-icons-face-down", "Messaging, Agitation and Research count the icons of face-down Tableau cards "
           "too.", ("rule.action-icons-offers", "rule.movement-buy"), movement_market.action_icons_face_down),
    Mutant("hand-goals-do-not-stack", "Two hand-size Goals raise the Movement's hand limit by one, not two.",
           ("hand.movement-buy-offers",), movement_play.hand_goals_do_not_stack),
    Mutant("agitation-needs-two", "A Goal is offered only with two Agitation or more from icons and tokens.",
           ("rule.agitation-offers", "rule.goal-offers", "rule.lobbied-goal-offers"),
           movement_goals.agitation_needs_two),
    Mutant("agitation-forced", "An Agitation cannot be declined once a Goal is offered.", ("rule.agitation-offers",),
           movement_goals.agitation_forced),
    Mutant("spent-messaging-kept-out", "Under ruling messaging-zones=any-zones the Messaging tokens a Message spends "
           "never go back to the supply.", ("rule.messaging", "doubt.messaging-tokens-offers", "tokens.messaging"),
           movement_goals.spent_messaging_kept_out),
    Mutant("messaging-three-victims-at-most", "A Messaging removes at most three Victims.",
           ("doubt.messaging-tokens-offers", "doubt.messaging-offers"), movement_goals.messaging_three_victims_at_most),
    Mutant("messaging-goes-on", "A Messaging goes on to another Zone with its icons left over under messaging-zones="
           "one-zone.", ("rule.messaging", "doubt.messaging-tokens-offers"), movement_goals.messaging_goes_on),
    Mutant("victims-discounted", "Each Victim a Messaging removes lowers its price by one instead of raising it.",
           ("doubt.order", "doubt.messaging-tokens-offers"), movement_goals.victims_discounted),
    Mutant("lobbying-not-charged", "A Movement buy pays the space's cost without one Influence per Profit on the card.",
           ("rule.movement-buy", "rule.lobbied-buy-offers"), movement_market.lobbying_not_charged),
    Mutant("flight-spares-lobbying", "A Movement buy is offered only when Flight pays no part of the Lobbying "
           "surcharge.", ("rule.lobbied-buy-offers",), movement_market.flight_spares_lobbying),
    Mutant("flight-sized-by-cost", "A payment that flips cards spends Flight up to the whole cost, not the "
           "shortfall, and the surplus comes back as Influence tokens.", ("rule.lobbied-buy-offers",),
           movement_market.flight_sized_by_cost),
    Mutant("lobby-same-card-twice", "The second token of a Lobby effect may go on the card its first went on.",
           ("lobby.distinct-offers",), lobbying.lobby_same_card_twice),
    Mutant("company-moves-first", "Set-Up ends with the Company's turn, not the Movement's.",
           ("rule.first-turn",), setup.company_moves_first),
    Mutant("draw-reshuffles-early", "A draw in the Play Phase reshuffles the discards into the deck as soon as the "
           "deck holds fewer cards than it draws.", ("rule.empty-draw-offers",), company_play.draw_reshuffles_early),
    Mutant("pass-counts-face-down", "Pass gives two Influence only with no Tableau card at all, face down ones "
           "included, as if pass-bonus=no-influence counted them, whatever the ruling.", ("rule.pass-offers",),
           movement_play.pass_counts_face_down),
    Mutant("victims-all-or-nothing", "A Victims effect larger than what the supply holds places none instead of "
           "what remains.", ("rule.short-supply-offers", "rule.company-play"), company_play.victims_all_or_nothing),
    Mutant("discount-leftover-kept", "A discount larger than the card bought keeps the rest for the next buy.",
           ("rule.buy-offers", "rule.buy"), company_buy.discount_leftover_kept),
    Mutant("rounds-from-two", "The Movement's first turn is counted as round 2 (ruling turn-numbering says 1).",
           ("rule.turn-numbering",), setup.rounds_from_two),
    Mutant("ban-blamed-on-payment", "A banned card's standard play is rejected naming its payment, not the ban.",
           ("reject.banned", "reject.banned-offers"), rejections.ban_blamed_on_payment),
    Mutant("out-of-turn-blamed-on-the-action", "A Company action on the Movement's turn is rejected citing the "
           "Company's own rules, not the Movement's turn.", ("reject.out-of-turn",),
           rejections.out_of_turn_blamed_on_the_action),
    Mutant("buy-out-of-phase-blamed-on-buying", "A Company buy in its Play Phase is rejected naming the rules on "
           "buying, not the order of the Company's turn.", ("reject.wrong-phase",),
           rejections.buy_out_of_phase_blamed_on_buying),
    Mutant("unpaid-play-blamed-on-a-ban", "A play the payment does not cover is rejected naming a ban, not the "
           "payment.", ("reject.unpaid-play",), rejections.unpaid_play_blamed_on_a_ban),
    Mutant("turn-left-unsaid", "An action out of turn is rejected citing the right turn, with a reason that does not "
           "say whose turn it is.", ("reject.out-of-turn",), rejections.turn_left_unsaid),
    Mutant("empty-space-blamed-on-payment", "A buy from an empty Market space is rejected naming its payment, not "
           "the empty space.", ("reject.empty-space",), rejections.empty_space_blamed_on_payment),
    Mutant("icons-or-tokens", "A Messaging's icons and tokens do not add up: it may spend the larger of the two.",
           ("doubt.messaging-tokens-offers",), movement_goals.icons_or_tokens),
    Mutant("part-of-column-clears-it", "Messaging that removes the bottom part of a column's Doubt clears the whole "
           "column.", ("doubt.order", "doubt.messaging-tokens-offers"), movement_goals.part_of_column_clears_it),
    Mutant("progress-not-returned", "Achieving a Goal returns the Agitation tokens spent, but not those already on "
           "the Goal.", ("rule.goal", "rule.goal-offers"), movement_goals.progress_kept_on_achieving),
    Mutant("empty-draw-stalls", "A Play-Phase draw with nothing to draw leaves the next step unresolved.",
           ("rule.empty-draw-offers", "rule.company-play", "liveness.actions"), company_play.empty_draw_stalls),
    Mutant("reshuffle-effects-in-play", "A draw in the Play Phase that reshuffles also resolves the Reserve's "
           "reshuffle effects.", ("rule.empty-draw-offers",), company_play.reshuffle_effects_in_play),
    Mutant("ban-charges-reserve-cards", "A ban also takes a Banned token for each card of its kind in the Reserve.",
           ("rule.goal-offers",), movement_goals.ban_charges_reserve_cards),
    Mutant("organize-twice", "Organize offers another free play after each one.",
           ("rule.organize-play", "rule.organize-offers"), movement_market.organize_twice),
    Mutant("doubt-column-by-opponent", "The Movement picks the column of the Company's Doubt.", ("rule.actor",),
           company_play.doubt_column_by_opponent),
    Mutant("stacks-dealt-by-company", "The Company chooses how its stacks are dealt, instead of chance.",
           ("rule.actor",), setup.stacks_dealt_by_company),
    Mutant("organize-buy-reclaims-flight", "The Flight spent on buying the Organize space comes back at once.",
           ("rule.organize-offers",), movement_market.organize_buy_reclaims_flight),
    Mutant("organize-takes-first", "Organize takes the space's card before refilling, so its own space is refilled "
           "at once.", ("rule.organize-offers",), movement_market.organize_takes_first),
    Mutant("company-turn-before-organize-refill", "The Company's turn starts after Organize's free play, before the "
           "Market refill and the card's taking.", ("rule.organize-offers",),
           movement_market.company_turn_before_organize_refill),
    Mutant("organize-removes-at-its-end", "Organize's free play into a full Tableau may only remove the card at the "
           "end the new one joins.", ("tableau.full-offers",), movement_market.organize_removes_at_its_end),
    Mutant("organize-refill-needs-a-hand", "With an empty hand the Organize space's card is taken at once and the "
           "Market not refilled.", ("rule.organize-offers",), movement_market.organize_refill_needs_a_hand),
    Mutant("flight-kept-with-full-market", "A Market with no gap at Pacing skips the Flight's return too.",
           ("rule.pacing-offers",), movement_market.flight_kept_with_full_market),
    Mutant("trash-from-empty-hand-asked", "A trash-from-hand effect asks even with an empty hand, offering only its "
           "decline.", ("contract.real-choices",), company_play.trash_from_empty_hand_asked),
    Mutant("messaging-card-taken-first", "Buying a Messaging space takes its card into the hand before the "
           "Messaging is worked.", ("rule.movement-buy", "rule.action-icons-offers"),
           movement_market.messaging_card_taken_first),
    Mutant("market-deck-not-renewed", "A spent Market deck is not renewed from the Movement's discards: the spaces "
           "stay empty.", ("rule.organize-offers", "rule.pacing-offers", "rule.pacing-refill"),
           movement_market.market_deck_not_renewed),
    Mutant("icons-not-left-on-goal", "An Agitation that does not achieve its Goal leaves only its tokens on it, not "
           "the icons converted.", ("rule.goal", "rule.lobbied-goal-offers"), movement_goals.icons_not_left_on_goal),
    Mutant("goal-lobbying-not-charged", "Achieving a Goal compares the Agitation with its printed cost, without the "
           "Profit lobbied onto it.", ("rule.goal", "rule.lobbied-goal-offers"),
           movement_goals.goal_lobbying_not_charged),
    Mutant("pacing-refreshes-first", "Pacing flips the Refresh passives' cards before gaining the token passives, "
           "so the flipped cards' passives count too.", ("rule.pacing", "rule.pacing-offers"),
           movement_market.pacing_refreshes_first),
    Mutant("pacing-refresh-cascades", "A card a Refresh passive flips face up during Pacing counts its own Refresh "
           "passive too, flipping the next card.", ("rule.pacing", "rule.pacing-offers"),
           movement_market.pacing_refresh_cascades),
    Mutant("second-lobbying-toggles", "Lobbying a card that holds one Profit takes it away instead of adding a "
           "second.", ("lobby.distinct-offers", "lobby.moves"), lobbying.second_lobbying_toggles),
    Mutant("marginalized-game-not-over", "A Marginalization ends the game but leaves it in the Draw Phase with the "
           "refill of the hand pending.", ("hand.marginalization-offers", "liveness.actions"),
           reshuffle.marginalized_game_not_over),
    Mutant("restriction-from-trash", "With the Restrictions pile empty, a Goal takes a Restriction card from the "
           "trash pile.", ("rule.goal", "rule.goal-offers"), movement_goals.restriction_from_trash),
    Mutant("lobby-forced", "A Lobby effect's token cannot be skipped once a card may take it.", ("lobby.offers",),
           lobbying.lobby_forced),
    Mutant("second-lobby-token-forced", "Once a Lobby effect has placed a token, its remaining tokens cannot be "
           "skipped.", ("lobby.distinct-offers",), lobbying.second_lobby_token_forced),
    Mutant("loopholes-wakes-banned-reserve", "With Loopholes in the Reserve, banned Reserve cards trigger as if not "
           "banned.", ("ban.trigger-offers",), company_play.loopholes_wakes_banned_reserve),
    Mutant("profit-victory-every-turn", "The 70 Profit win at the end of any Draw Phase, not only one with a "
           "Reshuffle.", ("outcome.profit-offers",), reshuffle.profit_victory_every_turn),
    Mutant("refresh-spares-paid-cards", "A Refresh buy turns the leftmost face-down card other than those just "
           "flipped to pay for it.", ("rule.refresh-offers", "rule.movement-buy"),
           movement_market.refresh_spares_paid_cards),
    Mutant("trash-not-counted-for-defeat", "Ending the Play Phase is Economic Defeat when only a trash card could be "
           "bought.", ("outcome.trash-defeat-offers", "outcome.economic-defeat"),
           company_buy.trash_not_counted_for_defeat),
    Mutant("goals-set-aside-dealt-first", "G7-G9 lie on top of their half of the Goals, so they fill the first places "
           "of the structure.", ("rule.chance-offers",), setup.goals_set_aside_dealt_first),
    Mutant("declined-agitation-banked", "Declining an Agitation keeps its icon Agitation as tokens.",
           ("rule.skip-offers", "rule.skip"), movement_goals.declined_agitation_banked),
    Mutant("pass-only-when-stuck", "Pass is offered only when the Movement can neither play nor buy.",
           ("rule.pass-offers",), movement_play.pass_only_when_stuck),
    Mutant("refresh-bonus-cascades", "The card a Refresh Bonus turns up between the new card and its neighbour pays "
           "its own aligned Bonuses.", ("rule.refresh-bonus-offers", "rule.movement-play"),
           movement_play.refresh_bonus_cascades),
    Mutant("reshuffle-effects-keep-card", "A Reserve card with reshuffle effects stays in the Reserve at a Reshuffle.",
           ("rule.reserve-resolve-offers",), reshuffle.reshuffle_effects_keep_card),
    Mutant("chart-counts-reserve-profit", "The chart's row and the star count the Profit the Reserve scores in step C "
           "too.", ("rule.reserve-resolve-offers",), reshuffle.chart_counts_reserve_profit),
    Mutant("loopholes-play-wakes-nothing", "A banned card played through Loopholes activates no Reserve card.",
           ("rule.trigger-offers", "rule.company-play"), company_play.loopholes_play_wakes_nothing),
    Mutant("turn-opens-in-buy", "A Company that cannot play starts its turn in the Buy Phase and loses only if it "
           "cannot buy either.", ("outcome.defeat-offers", "outcome.economic-defeat", "rule.company-turn-start"),
           company_buy.turn_opens_in_buy),
    Mutant("reshuffle-first-deck-drawn-first", "Under draw-order=reshuffle-first the deck's last cards are drawn after "
           "step C, before the discards join the deck.", ("rule.draw-phase", "rule.draw-offers"),
           reshuffle.reshuffle_first_deck_drawn_first),
    Mutant("short-deck-drawn-out", "A draw in the Play Phase with a short deck draws what the deck holds and stops.",
           ("rule.empty-draw-offers",), company_play.short_deck_drawn_out),
    Mutant("doubt-left-column-first", "A Doubt effect fills its group's left column first.", ("doubt.group-offers",),
           company_play.doubt_left_column_first),
    Mutant("reshuffle-lobby-from-supply", "A Lobby at a Reshuffle takes its token from the supply, not the Company.",
           ("rule.reserve-resolve-offers",), reshuffle.reshuffle_lobby_from_supply),
    Mutant("reserve-right-to-left", "The Reserve cards a play activates resolve from right to left.",
           ("rule.trigger-offers", "rule.trigger-timing", "rule.company-play"), company_play.reserve_right_to_left),
    Mutant("organize-skips-full-tableau", "With the Tableau full, Organize offers no free play, only Skip.",
           ("tableau.full-offers", "rule.organize-offers"), movement_market.organize_skips_full_tableau),
    Mutant("one-buy-per-turn", "The Buy Phase offers only its end once a card is bought.", ("rule.buy-offers",),
           company_buy.one_buy_per_turn),
    Mutant("reserve-before-first-play", "Once a card is played, no card in hand is offered for the Reserve.",
           ("rule.payment-offers",), company_play.reserve_before_first_play),
    Mutant("play-while-you-can", "The Play Phase cannot be ended while a card in hand can still be played.",
           ("rule.phase-end-offers",), company_play.play_while_you_can),
    Mutant("lobbied-market-card-kept", "A Market card that carries Lobbying is not offered for removal.",
           ("rule.remove-market-offers",), lobbying.lobbied_market_card_kept),
    Mutant("first-starting-card-only", "The Movement is offered only the first of its starting cards.",
           ("rule.start-offers",), setup.first_starting_card_only),
    Mutant("agitation-surplus-goes-on", "The icon Agitation a Goal did not need goes on to another Goal in the same "
           "Action.", ("rule.goal", "rule.goal-offers", "rule.lobbied-goal-offers"),
           movement_goals.agitation_surplus_goes_on),
    Mutant("any-cover-skips-budgetless", "Under budget-payment=any-cover a card without Budget is never among the "
           "cards that pay.", ("rule.payment-offers",), company_play.any_cover_skips_budgetless),
    Mutant("trash-defeat-top-only", "Under trash-buy=any the Buy Phase's defeat check looks at the trash pile's top "
           "card only.", ("outcome.trash-defeat-offers",), company_buy.trash_defeat_top_only),
    Mutant("defeat-named-marginalization", "A Company that cannot play at the start of its turn is declared "
           "Marginalized, not Economically Defeated.", ("outcome.defeat-offers", "outcome.defeat-boundary-offers"),
           company_buy.defeat_named_marginalization),
    Mutant("doubt-declinable", "A Doubt effect may be declined (Skip offered beside its columns).",
           ("doubt.group-offers",), company_play.doubt_declinable),
    Mutant("removal-declinable", "An effect that removes a Market card may be declined (Skip offered beside the "
           "removals).", ("rule.remove-market-offers",), company_play.removal_declinable),
    Mutant("effect-remainder-last", "The rest of a multi-token effect waits behind the play's other steps.",
           ("rule.choice-step", "rule.choice-step-offers"), company_play.effect_remainder_last),
    Mutant("skip-declines-one-token", "Declining a Lobby of two tokens declines one, and the next is offered.",
           ("rule.choice-step", "rule.choice-step-offers"), company_play.skip_declines_one_token),
    Mutant("payment-held-in-play", "The cards paid for a play stay in play until the play finishes.",
           ("rule.company-play",), company_play.payment_held_in_play),
    Mutant("discard-before-trigger", "A played card is discarded before the Reserve cards it triggers resolve.",
           ("rule.company-play",), company_play.discard_before_trigger),
    Mutant("messaging-rest-queued-last", "Under ruling messaging-zones=any-zones the Messaging left over waits "
           "behind the buy's other steps (caught only by the ruling variants).", ("doubt.messaging-tokens-offers",),
           movement_goals.messaging_rest_queued_last),
    Mutant("passives-in-sequence", "The Movement's passives pay out in the Company's Reshuffle Sequence as well "
           "as at Pacing.", ("rule.draw-phase", "rule.draw-offers"), reshuffle.passives_in_sequence),
    Mutant("trash-card-in-play", "A trash from the hand also offers the card being played.",
           ("rule.trash-offers",), company_play.trash_card_in_play),
    Mutant("trash-repeats", "A trash from the hand may trash every card held, one choice each.",
           ("rule.trash-offers",), company_play.trash_repeats),
    Mutant("messaging-victim-beyond-zone", "Messaging with budget to spare offers one Victim more than the zone "
           "holds.", ("doubt.messaging-offers",), movement_goals.messaging_victim_beyond_zone),
    Mutant("messaging-skip-alone", "A Messaging with nothing it can remove waits for a Skip instead of resolving "
           "to nothing.", ("contract.real-choices",), movement_goals.messaging_skip_alone),
    Mutant("profit-victory-named-marginalization", "A Profit Victory is declared as Marginalization.",
           ("outcome.profit-offers", "hand.marginalization", "hand.marginalization-offers"),
           reshuffle.profit_victory_named_marginalization),
    Mutant("payment-listed-twice", "A play paid with nothing is listed twice among the legal actions.",
           ("contract.distinct-actions",), company_play.payment_listed_twice),
    Mutant("no-influence-counts-flight", "Under pass-bonus=no-influence a Flight token held cancels Pass's bonus.",
           ("rule.pass-offers",), movement_play.no_influence_counts_flight),
    Mutant("no-influence-first-two-cards", "Under pass-bonus=no-influence only the Tableau's first two cards are "
           "looked at: Pass gives two Influence when only a later card is face up.", ("rule.pass-offers",),
           movement_play.no_influence_first_two_cards),
    Mutant("short-deck-keeps-a-hand-card", "A Draw Phase whose deck holds fewer than five cards keeps the hand's "
           "first card instead of discarding it.", ("rule.draw-phase",), reshuffle.short_deck_keeps_a_hand_card),
    Mutant("no-influence-counts-agitation", "Under pass-bonus=no-influence an Agitation token held cancels Pass's "
           "bonus.", ("rule.pass-offers",), movement_play.no_influence_counts_agitation),
    Mutant("no-influence-counts-goal-passives", "Under pass-bonus=no-influence an achieved Goal with a Messaging "
           "passive cancels Pass's bonus.", ("rule.pass-offers",), movement_play.no_influence_counts_goal_passives),
    Mutant("banned-stayer-ends-step-c", "Under banned-reserve=stays-honoured a banned card that stays ends step C: "
           "the Reserve's cards on its left are left unresolved.", ("ban.reshuffle-offers",),
           reshuffle.banned_stayer_ends_step_c),
    Mutant("banned-stayer-playable", "Under banned-reserve=stays-honoured a banned card whose Reserve side stays is "
           "offered for a Reserve play.", ("ban.offers",), company_play.banned_stayer_playable),
    Mutant("banned-stayer-triggers", "Under banned-reserve=stays-honoured a banned card that stays in the Reserve "
           "still triggers.", ("ban.trigger-offers", "ban.reserve-trigger"), company_play.banned_stayer_triggers),
    Mutant("discards-shuffled-before-scoring", "A Reshuffle with nothing to draw first moves the discards into the "
           "deck before it scores (step D before A).", ("rule.reshuffle-trigger", "rule.reshuffle-offers"),
           reshuffle.discards_shuffled_before_scoring),
    Mutant("reshuffle-first-deck-discarded-early", "Under draw-order=reshuffle-first the deck's last cards go onto the "
           "discard pile as the Sequence starts, not in step D.", ("rule.reshuffle-trigger", "rule.reshuffle-offers"),
           reshuffle.reshuffle_first_deck_discarded_early),
    Mutant("trashed-budgetless-at-face-value", "A card of no Budget costs nothing from the trash pile: its extra one "
           "is forgotten.", ("rule.buy-offers",), company_buy.trashed_budgetless_at_face_value),
    Mutant("free-payments-in-every-order", "Under budget-payment=any-cover a cost of nothing may be paid with a set "
           "of cards offered in more than one order.", ("rule.payment-offers",),
           company_play.free_payments_in_every_order),
    Mutant("discards-shuffled-before-reserve", "The discards join the deck before the Reserve resolves (step D's "
           "shuffle before step C).", ("rule.reserve-resolve-offers", "rule.reshuffle-trigger"),
           reshuffle.discards_shuffled_before_reserve),
    Mutant("draws-resolved-first", "A card's draws come before its other effects.",
           ("rule.company-play", "rule.empty-draw-offers"),
           company_play.draws_resolved_first),
    Mutant("company-turn-before-agitation", "The Company's turn starts before the Agitation of the space bought is "
           "worked.", ("rule.movement-buy", "rule.action-icons-offers"), movement_market.company_turn_before_agitation),
    Mutant("budgetless-payers-trashed", "A paying card of no Budget (budget-payment=any-cover) goes to the trash "
           "pile instead of the discard pile.", ("rule.payment-offers",), company_play.budgetless_payers_trashed),
    Mutant("sequence-lobbies-market-only", "A Lobby effect resolved in the Reshuffle Sequence offers the Market's "
           "cards only, never a Goal.", ("lobby.offers",), lobbying.sequence_lobbies_market_only),
    Mutant("staying-card-to-right-end", "At a Reshuffle a Reserve card that stays is moved to the Reserve's right "
           "end instead of keeping its place.", ("rule.reserve-resolve-offers", "cards.reserve-order"),
           reshuffle.staying_card_to_right_end),
    Mutant("doubt-guard-reads-victims", "A Doubt effect places nothing once the Victims supply is empty (its guard "
           "reads the wrong supply).", ("rule.doubt-count-offers",), company_play.doubt_guard_reads_victims),
    Mutant("ban-guard-reads-flight", "A Goal's Ban is placed only while the Flight supply holds a token (its guard "
           "reads the wrong supply).", ("tokens.one-supply-empty-step",), movement_goals.ban_guard_reads_flight),
    Mutant("organize-buy-keeps-turn", "A buy from the Organize space does not end the Movement's turn: it chooses "
           "again.", ("rule.movement-one-choice",), movement_market.organize_buy_keeps_turn),
    Mutant("bans-lifted-at-reshuffle", "Every ban is lifted once a Reshuffle has cleared the Reserve.",
           ("ban.lasting",), reshuffle.bans_lifted_at_reshuffle),
    Mutant("undealt-pairs-to-trash", "Set-Up puts the odd/even pairs not dealt on the trash pile instead of out of "
           "the game.", ("rule.setup",), setup.undealt_pairs_to_trash),
    Mutant("winning-goal-gains-withheld", "The Goal that wins the game gives none of its Flight or Influence.",
           ("rule.goal-offers",), movement_goals.winning_goal_gains_withheld),
    Mutant("movement-dealt-a-hand-card", "Set-Up ends with the Movement drawing the top card of its Market deck "
           "into its hand.", ("rule.setup",), setup.movement_dealt_a_hand_card),
    Mutant("discount-cleared-at-end-play", "Ending the Play Phase clears the discount its plays set up, so no discount "
           "reaches a buy.", ("rule.end-play",), company_buy.discount_cleared_at_end_play),
    Mutant("profit-play-withheld-on-short-supply", "A play that scores more Profit than the supply holds is not "
           "offered.", ("rule.short-supply-offers",), company_play.profit_play_withheld_on_short_supply),
    Mutant("doubt-effect-lost-on-short-supply", "A Doubt effect places nothing when the supply holds fewer tokens "
           "than it has left to place.", ("rule.doubt-count-offers",), company_play.doubt_effect_lost_on_short_supply),
    Mutant("stacks-dealt-last", "The Company's stacks are dealt at the end of Set-Up, after the Movement's Goals "
           "and Market.", ("rule.setup",), setup.stacks_dealt_last),
    Mutant("goals-dealt-after-market", "The Movement fills its Market before it forms its Goals.", ("rule.setup",),
           setup.goals_dealt_after_market),
    Mutant("elderly-icon-loaded-as-middle-age", "The card loader reads a Victims effect's Elderly zone as Middle Age.",
           ("cards.file",), card_data.elderly_icon_loaded_as_middle_age),
    Mutant("budget-payment-default-swapped", "The rulings registry lists budget-payment's readings the other way "
           "round, so a default game pays with any covering set of cards.", ("rulings.defaults",),
           ruling_registry.budget_payment_default_swapped),
    Mutant("lobby-effect-one-token", "A Lobby effect waits as one choice whatever it prints, so Corruption places one "
           "token instead of two.", ("rule.effect-amount",), lobbying.lobby_effect_one_token),
)}
"""Every mutant by name."""
