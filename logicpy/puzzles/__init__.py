"""Puzzles built on logicpy's core, one package each: `gods`, `einstein`, `epistemic`, `calendar`,
`prisoners`.

Every package has the same roles: `model` (the puzzle as data), `solve`, `verify` (an
independent re-check returning `verification.Verification`), `render`/`display`, `relations`
(goals of the core, usable from `logicpy repl`) and `cli`, plus `explain` and `generate` where
the puzzle has them.
"""
