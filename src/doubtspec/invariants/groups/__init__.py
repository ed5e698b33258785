"""The invariant catalog's groups: one module per group, named as the ids' prefix (`tokens.profit` is in
`groups/tokens.py`).
"""
