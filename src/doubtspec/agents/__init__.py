"""Players and whole games: random, careful, greedy and search agents; seeded games and simulations.

`base` holds the agent protocol and the registry behind `--agents`; `greedy_company` and
`greedy_movement` the heuristic players; `mcts` the tree-search players built on OpenSpiel (the
optional `spiel` extra); `simulate` plays seeded games one at a time (`iter_game`, `play_game`) or
by the thousand (`simulate`), optionally across processes.
"""
