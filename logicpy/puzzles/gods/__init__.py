"""The Hardest Logic Puzzle Ever (Boolos 1996), its variants, and an exact solver.

Three gods stand at positions 1, 2, 3: Truly always speaks truly, Falsely always falsely,
Random answers at random. They understand any yes/no question but answer "ja" or "da",
and we do not know which word means yes. Find every god's type with three questions,
each put to one god.

Vocabulary (concept -> Python):

- type: "truly", "falsely", "random" (`TYPES`), and any `GodType` a puzzle adds (a name,
  a letter, and how it answers given the question's truth, the language and its free choice).
- `Puzzle`: a frozen dataclass: the number of positions, the candidate type assignments
  (built by `Puzzle.permutations` / `Puzzle.choices`, with per-position allowed types or
  known positions), the `Semantics`, the `Grammar` and the possible languages.
- `Semantics`: how Random answers: "free" (ja or da at random), "boolos" (randomly truthful or
  lying), "silent" (may also stay silent: ternary trees); "explode", "explode-silent",
  "explode-boolos" add self-referential questions answered by fixed point (ternary trees).
- `World`: a hidden world, what we want to learn: assignment + language (da means yes/no).
- `ConcreteWorld`: a World plus Random's free answer at ONE step (fresh at every step).
- `Question`: a term such as ("ask", 1, ("is", 2, "random")); `Rule`, `Grammar`: the
  grammar as data, extended with `atom(...)` / `connective(...)`.
- signature: a question's truth in every concrete world (a bit vector); `Universe`: all
  distinct signatures up to a complexity, level by level.
- `Tree` (`Node`/`Leaf`): which god to ask what, and where each utterance leads.

Use: `solve(CLASSIC)` -> `Result` (status, verified trees, statistics); `verify(puzzle,
tree)`; `report(puzzle)`; renderers `render_text`, `render_mermaid`, `tree_to_json` and
`tree_from_json`; relations `questiono`, `evaluateo`, `replyo`, `worldo`, `godo`, and the
tree search as relations: `signatureo`, `distinguishingo`, `treeo`.
"""

from .grammar import (
    ASK,
    CLASSIC_GRAMMAR,
    SEED_GRAMMAR,
    Grammar,
    Question,
    Rule,
    atom,
    complexity,
    connective,
    english,
    evaluate,
    question_from_json,
    question_to_json,
)
from .model import TYPES, ConcreteWorld, GodType, Puzzle, Semantics, World
from .relations import evaluateo, godo, questiono, replyo, worldo
from .solve import Report, Result, least_complexity, least_questions, report, solve
from .tree import Leaf, Node, Tree, render_mermaid, render_text, tree_depth, tree_from_json, tree_to_json
from .tree_relations import distinguishingo, signatureo, tree_from_term, tree_to_term, treeo
from .universe import Universe, universe
from .verify import verify

__all__ = [
    "TYPES", "GodType", "Semantics", "World", "ConcreteWorld", "Puzzle",
    "Rule", "Grammar", "Question", "atom", "connective", "ASK", "CLASSIC_GRAMMAR", "SEED_GRAMMAR",
    "complexity", "english", "evaluate", "question_to_json", "question_from_json",
    "questiono", "evaluateo", "replyo", "worldo", "godo",
    "signatureo", "distinguishingo", "treeo", "tree_to_term", "tree_from_term",
    "Universe", "universe",
    "Tree", "Node", "Leaf", "tree_depth", "tree_to_json", "tree_from_json", "render_text", "render_mermaid",
    "verify",
    "Result", "Report", "solve", "least_questions", "least_complexity", "report",
    "CLASSIC", "KNIGHT_OR_KNAVE", "FOUR_GODS", "RANDOM_NOT_FIRST", "KNOWN_TRULY_FIRST",
]

#: Boolos' puzzle: Truly, Falsely and Random in unknown order, unknown language.
CLASSIC = Puzzle.permutations(("truly", "falsely", "random"), name="classic")
#: The smallest instance: one god, Truly or Falsely, unknown language, one question.
KNIGHT_OR_KNAVE = Puzzle.choices([("truly", "falsely")], name="knight-or-knave")
#: Four gods: two Trulys, a Falsely and a Random in unknown order (4 questions, complexity 2).
FOUR_GODS = Puzzle.permutations(("truly", "truly", "falsely", "random"), name="four-gods")
#: The classic puzzle where Random is known not to stand at position 1.
RANDOM_NOT_FIRST = Puzzle.permutations(allowed={1: ("truly", "falsely")}, name="random-not-first")
#: The classic puzzle where the god at position 1 is known to be Truly.
KNOWN_TRULY_FIRST = Puzzle.permutations(known={1: "truly"}, name="known-truly-first")
