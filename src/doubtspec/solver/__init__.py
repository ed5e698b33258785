"""The bounded solver: "can it happen by turn N?", answered by Z3 and checked by the engine.

    encoding.py     the state vector of one step (`name@t` variables), engine states projected onto it
    transition.py   one step per Company decision, one clause group per rule (tagged with its Section)
    bmc.py          the unrolling and the incremental loop (one solver, one more round per bound)
    witness.py      models turned into engine actions, replayed through the checked engine
    exhaustive.py   the second opinion: bounded search over the engine's own actions and chance
    queries.py      the query catalogue and answers with their assumptions

What is modelled exactly: the Company's whole side with the Movement passing every turn
(`--opponent passive`): stars, Profit victory and the Company's defeats. Chance is a free choice
(the best luck); turn N is round N (ruling turn-numbering=round). A turn's plays and buys are
capped by the unrolling's slots; a "no" reports whether the caps were shown to cut off no run.
The Movement's side (Goals, Messaging, its Tableau and Market) is not encoded yet: those queries
are refused rather than approximated.
"""
