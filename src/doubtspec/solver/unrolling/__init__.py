"""The exact unrolling: the rules as Z3 terms, one step per Company decision, unrolled round by round.

    encoding.py     the state vector of one step (`name@t` variables), engine states projected onto it
    terms.py        the term layer over Z3 (bit-vectors, Booleans) the encoders write with
    transition.py   one step per Company decision, one clause group per rule (tagged with its Section)
    movement.py     the free Movement's turn, Set-Up and Pacing (builds on transition.py, never the reverse)
    bmc.py          the unrolling and the incremental loop (one solver, one more round per bound)
    witness.py      models turned into engine actions, replayed through the checked engine

It is exact within its caps: at most `Caps.plays` plays and `Caps.buys` buys per Company turn.
Every answer that rests on the caps says so (see `doubtspec.solver.queries`).
"""
