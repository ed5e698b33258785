"""The solver: "can it happen by turn N?", answered turn by turn by several methods and checked by the engine.

One room per method, each behind `doubtspec.solver.verdict.ProofMethod` (per turn: impossible,
possible or unknown, with the method, its time and the lemmas it used):

    abstraction/    sound over-approximations over Z3 integers, one transition per round: counts of
                    cards per zone, the other side free; their "impossible" is the game's, with no caps
    unrolling/      the exact unrolling of the rules (one step per decision), which finds witnesses;
                    exact within its per-turn caps, which every answer resting on them states
    hunt.py         the witness hunt: a best-luck beam search over the engine (only ever says "yes")
    exhaustive.py   the second opinion for small card files: bounded search over the engine's own actions

    verdict.py      the shared per-turn verdicts and the one time budget of a question
    queries.py      the query catalogue: picks the methods, merges their verdicts into one answer
    progress.py     the hunt's scores per question

Imports flow one way: queries -> (abstraction, unrolling, hunt) -> verdict -> model.
"""
