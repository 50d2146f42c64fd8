"""Einstein (zebra) logic-grid puzzles, in einstein-solver's JSON game format or a text notation.

Vocabulary (see `model`): a `Game` has `Kind`s of things and numbered `Clue`s; a clue's
rules are `Relation`s over `Symbol`s (`Time`, `Time::Last Day`) or `Connective`s over
rules. A solution is a `Grid`: one row per thing of the first kind, one column per kind.

    game = load_game("examples/einstein/zebra.txt")   # or a .json file
    result = solve(game)          # every solution, by a SAT solver (engine="fd": FD search)
    result.status                 # "unique", "ambiguous(n)" or "none"
    verify(game, result.solutions[0])                  # clue by clue, without FD: a Verification
    print(render_text(result)); print(render_explanation(explain(game, result.solutions[0])))
    g = generate(kinds=4, things=5, seed=7)            # a new game: unique, minimal, in English
"""

from .explain import Explanation, Step, explain
from .files import load_game, save_game
from .generate import Generated, generate
from .jsonfmt import dump_json, game_from_data, game_to_data, load_json, parse_json
from .model import Clue, Connective, Game, Grid, Kind, Relation, Rule, Symbol
from .notation import dump_text, load_text, parse_text
from .render import (
    render_candidates,
    render_explanation,
    render_grid,
    render_text,
    result_from_data,
    result_to_data,
)
from .solve import Result, count, solve
from .verify import check, verify

__all__ = [
    # model
    "Game", "Kind", "Clue", "Relation", "Connective", "Rule", "Symbol", "Grid",
    # reading and writing games
    "load_game", "save_game", "load_json", "parse_json", "game_from_data", "game_to_data", "dump_json",
    "load_text", "parse_text", "dump_text",
    # solving and checking
    "solve", "count", "Result", "check", "verify",
    # making new games
    "generate", "Generated",
    # explaining and rendering
    "explain", "Explanation", "Step", "render_text", "render_grid", "render_explanation", "render_candidates",
    "result_to_data", "result_from_data",
]
