"""Public-announcement epistemic puzzles: Cheryl's Birthday and who-knows-what, as data.

People are told part of a secret and then announce, in public, what they know; every
announcement keeps the worlds where it is true. Vocabulary (concept -> Python):

- secret / world: one candidate (a `MonthDay`, a pair of numbers, a tuple of ages, a bitmask
  of muddy foreheads); a `Story` holds the finite set of them.
- agent: a name and the `Projection` of the secret it sees (month; day; sum; product; …).
- formula: `knows(a, φ)`, `knows_which(a)` (a knows the secret, or with a question the
  value of that projection), `knows_whether(a, φ)`, `~`, `&`, `|`, `fact(test, text)`,
  `initially(φ)` / `At(k, φ)` (an earlier moment), `seeing(a, view, φ)` (a model where a
  sees something else, e.g. `NOTHING`).
- `Statement`: speaker, the puzzle's own sentence, its formula; a `Story`: worlds, agents,
  statements. The puzzles are constants and builders in `stories`.

Use: `solve(story)` -> `Result` (status, solutions, steps), fast (numpy partitions);
`verify(story, result)` -> `Verification`, the story re-told by the naive evaluator (by size:
in full, a closed form, or the final survivors); `explain.explain(result)`;
relations `storyo(story, secret)`, `survivo(story, moment, secret)` and
`knowso(story, moment, agent, secret)`.
"""

from .dates import MONTHS, MonthDay, parse_date
from .solve import Result, Run, Step, solve
from .model import (
    NOTHING, And, At, Fact, Formula, Knows, KnowsWhether, KnowsWhich, Not, Or, Projection, Seeing,
    Statement, Story, fact, initially, knows, knows_whether, knows_which, seeing,
)
from .verify import NAIVE_LIMIT, replay, verify
from .stories import (
    BUS, CHERYL_AGE, CLASSIC, CLASSIC_DATES, COMPLEX, COMPLEX_DATES, DATE_POOL, EVE, GABE, GABE_DATES,
    LANDING, SUM_PRODUCT, THREE_CHILDREN, birthday, muddy_children, sam_pat, sum_product, what_sum,
)

__all__ = [
    "MONTHS", "MonthDay", "parse_date", "Result", "Run", "Step", "solve", "verify", "NOTHING", "And", "At",
    "Fact", "Formula", "Knows", "KnowsWhether", "KnowsWhich", "Not", "Or", "Projection", "Seeing",
    "Statement", "Story", "fact", "initially", "knows", "knows_whether", "knows_which", "seeing",
    "NAIVE_LIMIT", "replay", "BUS", "CHERYL_AGE", "CLASSIC", "CLASSIC_DATES", "COMPLEX", "COMPLEX_DATES",
    "DATE_POOL", "EVE", "GABE", "GABE_DATES", "LANDING", "SUM_PRODUCT", "THREE_CHILDREN", "birthday",
    "muddy_children", "sam_pat", "sum_product", "what_sum",
]

