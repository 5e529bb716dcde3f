"""Commands & Colors: Napoleonics (base game, German rulebook 3rd edition), following the digest
`commands-and-colors-napoleonics.md` (rule ids CCN-n, AMB-n, GAP-n).

First slice: the board geometry, terrain, national data and scenario loading, with the checks of
digest 8.2. There is no Ruleset yet (no turn sequence, cards or combat): see README.md.
"""
