"""Cross-check logicpy's gods solver against Prolog files in the original solver's vocabulary.

The original Prolog solver (aduriseti/3gods, `final_solution.pl`) and logicpy's own
`prolog/gods.pl` share one vocabulary; this module converts it to logicpy's terms and back:

    original (Prolog)                  logicpy
    ---------------------------------  -----------------------------------------------
    true / fail                        ("true",) / ("false",)
    at_position_question(P, G)         ("is", P, G)
    query_position_question(P, Q)      ("ask", P, Q)   the god at P would answer Q with da
    (A, B) / (A ; B) / A xor B         ("and", A, B) / ("or", A, B) / ("xor", A, B)
    (no counterpart)                   ("not", Q), sent as (Q xor true)
    answer_is(U) (gods_paradox.pl)     ("answer", U)   your answer to this question is U
    tree(q(P, Q), DaTree, JaTree)      Node(P, Q, (("ja", JaTree), ("da", DaTree)))
    tree(q(P, Q), Da, Ja, Silent)      the same plus ("silent", Silent): random_silent.pl
    leaf                               Leaf(assignment): found by replaying the tree
    w([pos(P, G, RandomAnswers)], L)   a hidden world + Random's answer at each step
                                       (L is da_yes or da_no; an answer is true, fail,
                                       or silent under the silent semantics)

`crosscheck_file` runs both directions of the check: the file's own tree, converted and
replayed by logicpy's `verify`; and logicpy's tree, whose every question is put to the
file in every world: the asked god's utterance (the file's `query_position/5`) and the
truth of the question and of each sub-question (its `evaluate/3`), compared with logicpy's.
`logicpy gods crosscheck` runs it from the command line.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ....core.terms import Term, format_term
from ....errors import InputError, PrologError, PrologTimeout
from ..grammar import CLASSIC_GRAMMAR, Question, english, evaluate
from ..model import ConcreteWorld, Puzzle, Semantics, World, type_letters
from ..tree import Leaf, Node, Tree, render_text, tree_to_json
from ..verify import verify

__all__ = [
    "question_from_prolog",
    "question_to_prolog",
    "tree_from_prolog",
    "tree_to_prolog",
    "world_to_prolog",
    "CrossCheck",
    "crosscheck_file",
]

#: Original connective functors and logicpy's names for them.
_CONNECTIVES = {",": "and", ";": "or", "xor": "xor"}
_FUNCTORS = {name: functor for functor, name in _CONNECTIVES.items()}
#: The semantics the original files have: final_solution.pl's free Random, random_silent.pl's.
ORIGINAL_SEMANTICS = (Semantics.FREE, Semantics.SILENT)
#: At most this many disagreements are kept in a result (the count is always exact).
SHOWN_DISAGREEMENTS = 20


# -- questions -------------------------------------------------------------------------
def question_from_prolog(term: Term, where: str = "question") -> Question:
    """The logicpy question for an original-vocabulary question term.

    Errors name the unknown functor and where it sits (`where` is the path so far).

    >>> question_from_prolog(("query_position_question", 1, (",", "true", ("at_position_question", 2, "random"))))
    ('ask', 1, ('and', ('true',), ('is', 2, 'random')))
    """
    if term == "true":
        return ("true",)
    if term in ("fail", "false"):
        return ("false",)
    if isinstance(term, tuple) and len(term) == 2 and term[0] == "answer_is":
        return ("answer", term[1])
    if isinstance(term, tuple) and len(term) == 3:
        functor, a, b = term
        if functor == "at_position_question":
            return ("is", a, b)
        if functor == "query_position_question":
            return ("ask", a, question_from_prolog(b, f"{where}[2]"))
        if functor in _CONNECTIVES:
            return (_CONNECTIVES[functor], question_from_prolog(a, f"{where}[1]"), question_from_prolog(b, f"{where}[2]"))
    shown = f"{term[0]}/{len(term) - 1}" if isinstance(term, tuple) and term else repr(term)
    raise InputError(
        f"{where}: unknown question functor {shown} (the original vocabulary has true, fail, "
        "at_position_question/2, query_position_question/2, ','/2, ';'/2, xor/2; gods_paradox.pl adds answer_is/1)"
    )


def question_to_prolog(q: Question, where: str = "question") -> Term:
    """The original-vocabulary term for a logicpy question; `not Q` becomes `Q xor true`.

    >>> question_to_prolog(("not", ("ask", 2, ("is", 1, "truly"))))
    ('xor', ('query_position_question', 2, ('at_position_question', 1, 'truly')), 'true')
    """
    name = q[0] if isinstance(q, tuple) and q else None
    if name == "true":
        return "true"
    if name == "false":
        return "fail"
    if name == "is":
        return ("at_position_question", q[1], q[2])
    if name == "ask":
        return ("query_position_question", q[1], question_to_prolog(q[2], f"{where}[2]"))
    if name == "not":
        return ("xor", question_to_prolog(q[1], f"{where}[1]"), "true")
    if name == "answer":
        return ("answer_is", q[1])
    if name in _FUNCTORS:
        return (_FUNCTORS[name], question_to_prolog(q[1], f"{where}[1]"), question_to_prolog(q[2], f"{where}[2]"))
    raise InputError(f"{where}: the question operator {name!r} has no counterpart in the original vocabulary")


# -- trees -----------------------------------------------------------------------------
def tree_to_prolog(tree: Tree, where: str = "$") -> Term:
    """The original-vocabulary tree term: tree(q(P, Q), DaTree, JaTree), tree/4 with a
    silent branch last (random_silent.pl), or leaf."""
    if isinstance(tree, Leaf):
        return "leaf"
    words = [w for w, _ in tree.branches]
    if sorted(words) not in (["da", "ja"], ["da", "ja", "silent"]):
        raise InputError(f"{where}: the original trees are da/ja or da/ja/silent; this node has {words}")
    order = ["da", "ja", "silent"] if "silent" in words else ["da", "ja"]
    return (
        "tree",
        ("q", tree.position, question_to_prolog(tree.question, f"{where}.question")),
        *(tree_to_prolog(tree.branch(w), f"{where}.{w}") for w in order),
    )


def tree_from_prolog(term: Term, puzzle: Puzzle, where: str = "$") -> tuple[Tree, tuple[str, ...]]:
    """The logicpy tree for an original-vocabulary tree term, and the problems of its leaves.

    The original's `leaf` does not name an assignment, so each leaf's answer is found
    by replaying the tree in every world of `puzzle`: the one assignment that reaches
    it, or None if none does. A leaf reached by several assignments is a problem
    (it is given the first of them, which `verify` then refutes).
    """
    shape = _shape_from_prolog(term, where)
    _check_arity(shape, puzzle, where)
    reached: dict[str, set[tuple[str, ...]]] = {}
    for world in puzzle.hidden_worlds:
        for path, _ in _leaves_reached(shape, world, puzzle):
            reached.setdefault(path, set()).add(world.assignment)
    problems: list[str] = []

    def fill(t: Tree, path: str) -> Tree:
        if isinstance(t, Leaf):
            found = sorted(reached.get(path, ()), key=puzzle.assignments.index)
            if len(found) > 1:
                names = ", ".join(type_letters(a) for a in found)
                problems.append(f"{path}: this leaf holds {len(found)} type assignments ({names})")
            return Leaf(found[0] if found else None)
        return Node(t.position, t.question, tuple((w, fill(sub, f"{path}.{w}")) for w, sub in t.branches))

    return fill(shape, where), tuple(problems)


def _check_arity(tree: Tree, puzzle: Puzzle, where: str) -> None:
    """InputError naming the first node whose branches are not the semantics' utterances."""
    if isinstance(tree, Leaf):
        return
    words = tuple(w for w, _ in tree.branches)
    if sorted(words) != sorted(puzzle.utterances):
        functor = "tree/4 (with a silent branch)" if len(words) == 3 else "tree/3"
        raise InputError(f"{where}: the file's tree has {functor} nodes, but the {puzzle.semantics.value} semantics "
                         f"has the answers {'/'.join(puzzle.utterances)} (is --semantics right for this file?)")
    for w, sub in tree.branches:
        _check_arity(sub, puzzle, f"{where}.{w}")


def _shape_from_prolog(term: Term, where: str) -> Tree:
    """The tree with every leaf unnamed (Leaf(None)); errors name the bad node's path."""
    if term == "leaf":
        return Leaf(None)
    if isinstance(term, tuple) and len(term) in (4, 5) and term[0] == "tree":
        ask = term[1]
        if not (isinstance(ask, tuple) and len(ask) == 3 and ask[0] == "q"):
            raise InputError(f"{where}: expected q(Position, Question) in a tree node, got {format_term(ask)}")
        position = ask[1]
        if isinstance(position, bool) or not isinstance(position, int):
            raise InputError(f"{where}: the position in q(Position, Question) must be an integer, got {format_term(position)}")
        question = question_from_prolog(ask[2], f"{where}.question")
        da = _shape_from_prolog(term[2], f"{where}.da")
        ja = _shape_from_prolog(term[3], f"{where}.ja")
        if len(term) == 4:
            return Node(position, question, (("ja", ja), ("da", da)))
        silent = _shape_from_prolog(term[4], f"{where}.silent")
        return Node(position, question, (("ja", ja), ("da", da), ("silent", silent)))
    shown = f"{term[0]}/{len(term) - 1}" if isinstance(term, tuple) and term else format_term(term)
    raise InputError(f"{where}: unknown tree functor {shown} (expected tree(q(P, Q), DaTree, JaTree), "
                     "tree(q(P, Q), DaTree, JaTree, SilentTree) or leaf)")


def _leaves_reached(tree: Tree, world: World, puzzle: Puzzle, path: str = "$") -> Iterator[tuple[str, Leaf]]:
    """Every (path, leaf) that `world` can reach, over every run of Random."""
    if isinstance(tree, Leaf):
        yield path, tree
        return
    if not 1 <= tree.position <= puzzle.n_positions:
        raise InputError(f"{path}: no god at position {tree.position} (the puzzle has {puzzle.n_positions})")
    heard = {_utterance(tree, cw, puzzle) for cw in puzzle.concrete_worlds_of(world)}
    for word in sorted(heard):
        yield from _leaves_reached(tree.branch(word), world, puzzle, f"{path}.{word}")


def _utterance(node: Node, cw: ConcreteWorld, puzzle: Puzzle) -> str:
    """logicpy's utterance of the god asked at `node` in the concrete world `cw`."""
    truth = evaluate(node.question, cw, puzzle.grammar, puzzle)
    return puzzle.utter(cw.type_at(node.position), truth, cw.da_means_yes, cw.free_at(node.position))


# -- worlds ----------------------------------------------------------------------------
def world_to_prolog(world: World, random_answers: dict[int, list[bool | str]]) -> Term:
    """The original's world term: w([pos(P, Type, RandomAnswers), ...], da_yes | da_no).

    `random_answers` maps each Random's position to its answers so far (True = the
    answer means yes, "silent" = none); other gods get [].

    >>> format_term(world_to_prolog(World(("random", "truly"), False), {1: [True, False]}))
    'w([pos(1,random,[true,fail]),pos(2,truly,[])],da_no)'
    """
    positions = [
        ("pos", p, t, [a if isinstance(a, str) else "true" if a else "fail" for a in random_answers.get(p, [])])
        for p, t in enumerate(world.assignment, 1)
    ]
    return ("w", positions, "da_yes" if world.da_means_yes else "da_no")


@dataclass(frozen=True)
class _Query:
    """One query to the file: where in the tree, in which world, what, and logicpy's answer.

    kind "u": the utterance of the god asked at a node; kind "e": a (sub)question's truth.
    """

    node_path: str
    world: str
    what: str
    goal_args: Term
    expected: str


def _subquestions(q: Question) -> Iterator[Question]:
    """`q` and every question inside it, outermost first, each once."""
    seen: list[Question] = []
    stack = [q]
    while stack:
        sub = stack.pop(0)
        if sub not in seen:
            seen.append(sub)
            stack += [a for a in sub[1:] if isinstance(a, tuple)]
    yield from seen


def _queries(tree: Tree, puzzle: Puzzle) -> list[_Query]:
    """For every node, hidden world and run of Random: the asked god's utterance and the
    truth of each sub-question, with logicpy's answers."""
    queries: list[_Query] = []

    def walk(t: Tree, world: World, node_path: str, heard: list[str], answers: dict[int, list[bool | str]]) -> None:
        if isinstance(t, Leaf):
            return
        for cw in puzzle.concrete_worlds_of(world):
            word = _utterance(t, cw, puzzle)
            step = {
                p: answers.get(p, []) + [_random_answer(cw.free_at(p), cw.da_means_yes)]
                for p in range(1, puzzle.n_positions + 1) if cw.free_at(p) is not None
            }
            path_term = list(reversed(heard))  # the original's Path: latest answer first
            world_term = world_to_prolog(world, step)
            asked = question_to_prolog(t.question, f"{node_path}.question")
            queries.append(_Query(
                node_path, str(cw), f"god {t.position} asked [{english(t.question, puzzle.grammar)}] says",
                ("u", t.position, asked, path_term, world_term), word,
            ))
            for sub in _subquestions(t.question):
                truth = evaluate(sub, cw, puzzle.grammar, puzzle)
                queries.append(_Query(
                    node_path, str(cw), f"[{english(sub, puzzle.grammar)}] is",
                    ("e", question_to_prolog(sub), path_term, world_term), "true" if truth else "fail",
                ))
            walk(t.branch(word), world, f"{node_path}.{word}", heard + [word], step)

    for world in puzzle.hidden_worlds:
        walk(tree, world, "$", [], {})
    return queries


def _random_answer(free: str, da_means_yes: bool) -> bool | str:
    """Random's free utterance as the original stores it: True iff it means yes, or "silent"."""
    return "silent" if free == "silent" else (free == "da") == da_means_yes


# -- the check -------------------------------------------------------------------------
@dataclass(frozen=True)
class CrossCheck:
    """The outcome of `crosscheck_file`; `ok` iff both directions agree.

    file_tree: the file's tree converted (None if the file found none);
    file_problems: leaf conversion problems and the replay's refutations of that tree;
    queries / disagreements: logicpy's tree put to the file's evaluator world by world.
    """

    path: str
    puzzle: Puzzle
    questions: int
    complexity: int
    entry: str
    file_tree: Tree | None
    file_problems: tuple[str, ...]
    file_verified: str
    logicpy_tree: Tree | None
    evaluator: str
    queries: int
    disagreements: tuple[str, ...]
    disagreement_count: int
    notes: tuple[str, ...] = field(default=())
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        """True iff both find a tree or both find none, the file's tree verifies, and every query agrees."""
        return (
            not self.timed_out
            and (self.file_tree is None) == (self.logicpy_tree is None)
            and not self.file_problems and self.disagreement_count == 0
        )

    @property
    def inconclusive(self) -> bool:
        """True iff the file's search ran past the time limit and nothing else disagrees."""
        return self.timed_out and not self.file_problems and self.disagreement_count == 0

    @property
    def verdict(self) -> str:
        """"agree", "DISAGREE" or "INCONCLUSIVE" (the file's search ran past the time limit)."""
        return "agree" if self.ok else "INCONCLUSIVE" if self.inconclusive else "DISAGREE"

    def render(self, show_tree: bool = False) -> str:
        """Readable text: what was checked and the verdict of each direction."""
        p = self.puzzle
        lines = [
            f"{self.path}: {p.name or 'puzzle'} ({_count(p.n_positions, 'god')}, "
            f"{_count(self.questions, 'question')}, complexity <= {self.complexity})"
        ]
        if self.timed_out:
            lines.append(f"  the file's tree ({self.entry}): not known, its search ran past the time limit")
        elif self.file_tree is None:
            lines.append(f"  the file's tree ({self.entry}): none found")
        elif self.file_problems:
            lines.append(f"  the file's tree ({self.entry}), replayed by logicpy: REFUTED")
            lines += [f"    {problem}" for problem in self.file_problems[:SHOWN_DISAGREEMENTS]]
        else:
            lines.append(f"  the file's tree ({self.entry}), replayed by logicpy: {self.file_verified}")
        if show_tree and self.file_tree is not None:
            lines += ["    " + line for line in render_text(self.file_tree, p).splitlines()]
        if self.logicpy_tree is None:
            lines.append("  logicpy's tree: none exists within these bounds")
        elif self.disagreement_count:
            lines.append(
                f"  logicpy's tree through the file's {self.evaluator}: "
                f"DISAGREE on {self.disagreement_count} of {self.queries} queries"
            )
            lines += [f"    {d}" for d in self.disagreements]
        else:
            lines.append(f"  logicpy's tree through the file's {self.evaluator}: agree on {self.queries} queries")
        lines += [f"  note: {n}" for n in self.notes]
        lines.append(f"result: {self.verdict}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data; trees in the documented tree format."""
        return {
            "file": self.path,
            "puzzle": self.puzzle.name,
            "questions": self.questions,
            "complexity": self.complexity,
            "ok": self.ok,
            "verdict": self.verdict.lower(),
            "file_tree": {
                "entry": self.entry,
                "tree": None if self.file_tree is None else tree_to_json(self.file_tree),
                "problems": list(self.file_problems),
            },
            "logicpy_tree": {
                "tree": None if self.logicpy_tree is None else tree_to_json(self.logicpy_tree),
                "evaluator": self.evaluator,
                "queries": self.queries,
                "disagreements": self.disagreement_count,
                "shown": list(self.disagreements),
            },
            "notes": list(self.notes),
        }


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def crosscheck_file(
    path: str | Path,
    puzzle: Puzzle | None = None,
    questions: int = 3,
    complexity: int = 1,
    timeout: float = 60.0,
    logicpy_tree: Tree | None = None,
) -> CrossCheck:
    """Cross-check the Prolog file at `path` with logicpy on `puzzle` (default: the classic one).

    The file is consulted into a module of its own. Its tree comes from
    `is_distinguishing_tree_bounded/6` (when the puzzle is one of the original's family
    generators) or else `find_pruning_tree/7`, within `timeout` seconds, and is replayed
    by logicpy. logicpy's tree (`logicpy_tree`, or the one `solve` finds) is put to the
    file in every world: each asked god's utterance (`query_position/5`) and the truth
    of each question and sub-question (`evaluate/3`) are compared with logicpy's.
    """
    from .... import swi
    from .. import CLASSIC, solve

    puzzle = CLASSIC if puzzle is None else puzzle
    if puzzle.semantics not in ORIGINAL_SEMANTICS or set(puzzle.languages) != {True, False} or puzzle.gods:
        raise InputError(
            f"puzzle {puzzle.name!r}: the original vocabulary has only the free Random (final_solution.pl) or "
            f"the Random that may be silent (random_silent.pl), the three built-in gods, and an unknown language; "
            f"got semantics {puzzle.semantics.value}"
        )
    module = swi.consult(path)
    notes = [f"{m.kind} while loading: {m}" for m in module.warnings]
    if _defines(module, "is_distinguishing_question/3") and not _defines(module, "find_pruning_tree/7"):
        return crosscheck_questions(module, complexity, timeout, notes)  # type: ignore[return-value]

    entry, term, timed_out = _file_tree(module, puzzle, questions, complexity, timeout, notes)
    file_tree, verified = None, ""
    problems: tuple[str, ...] = ()
    if term is not None:
        try:
            file_tree, problems = tree_from_prolog(term, puzzle)
        except InputError as exc:
            raise InputError(f"{path}: {exc}") from None
        check = verify(puzzle, file_tree, questions)
        verified = str(check)
        problems = problems + check.problems

    if logicpy_tree is None:
        logicpy_tree = solve(puzzle, questions, complexity).tree
    evaluator, queries, count = "query_position/5 and evaluate/3", 0, 0
    shown: tuple[str, ...] = ()
    if logicpy_tree is not None:
        evaluator, queries, shown, count = _compare_utterances(module, puzzle, logicpy_tree, timeout)
    return CrossCheck(
        str(path), puzzle, questions, complexity, entry, file_tree, tuple(problems), verified,
        logicpy_tree, evaluator, queries, shown, count, tuple(notes), timed_out,
    )


# -- knight_or_knave.pl: distinguishing questions, one god at position `a` -------------------
#: knight_or_knave.pl's puzzle: one god, Truly or Falsely, who answers yes (success) or no;
#: as logicpy sees it, a known language in which da means yes, and its grammar (no not/xor).
KNIGHT_OR_KNAVE_FILE = Puzzle.choices(
    [("truly", "falsely")], languages=(True,), name="knight-or-knave (known language)",
    grammar=CLASSIC_GRAMMAR.without("not", "xor"),
)
#: How many of the file's distinguishing questions are compared.
FILE_QUESTIONS = 25


@dataclass(frozen=True)
class QuestionCheck:
    """The outcome of `crosscheck_questions`: distinguishing questions compared both ways.

    file_questions: the file's first questions with its answers for Truly and Falsely,
    each compared with logicpy's; logicpy_questions: logicpy's distinguishing questions
    (one per behaviour, complexity <= `complexity`) put to the file's
    `is_distinguishing_question/3`.
    """

    path: str
    complexity: int
    file_questions: int
    logicpy_questions: int
    disagreements: tuple[str, ...]
    disagreement_count: int
    notes: tuple[str, ...] = ()
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        """True iff every question agrees and nothing timed out."""
        return not self.disagreement_count and not self.timed_out

    @property
    def inconclusive(self) -> bool:
        """True iff the file ran past the time limit and nothing disagrees."""
        return self.timed_out and not self.disagreement_count

    @property
    def verdict(self) -> str:
        """"agree", "DISAGREE" or "INCONCLUSIVE"."""
        return "agree" if self.ok else "INCONCLUSIVE" if self.inconclusive else "DISAGREE"

    def render(self, show_tree: bool = False) -> str:
        """Readable text: both directions and the verdict."""
        lines = [
            f"{self.path}: knight or knave (1 god, distinguishing questions, is_distinguishing_question/3)",
            f"  the file's first {self.file_questions} distinguishing questions, answers for Truly and Falsely "
            "checked by logicpy",
            f"  logicpy's {self.logicpy_questions} distinguishing questions (complexity <= {self.complexity}) "
            "put to the file",
        ]
        if self.disagreement_count:
            lines.append(f"  DISAGREE on {self.disagreement_count}")
            lines += [f"    {d}" for d in self.disagreements]
        lines += [f"  note: {n}" for n in self.notes]
        lines.append(f"result: {self.verdict}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"file": self.path, "puzzle": KNIGHT_OR_KNAVE_FILE.name, "complexity": self.complexity,
                "ok": self.ok, "verdict": self.verdict.lower(), "file_questions": self.file_questions,
                "logicpy_questions": self.logicpy_questions, "disagreements": self.disagreement_count,
                "shown": list(self.disagreements), "notes": list(self.notes)}


def _says_yes(puzzle: Puzzle, god: str, question: Question) -> bool:
    """Whether the god (of the one-position, known-language puzzle) says yes, i.e. da."""
    (cw,) = [w for w in puzzle.concrete_worlds if w.type_at(1) == god]
    return puzzle.utter(god, evaluate(question, cw, puzzle.grammar, puzzle), cw.da_means_yes, None) == "da"


def _position_a(term: Term, to_file: bool) -> Term:
    """Swap knight_or_knave.pl's position `a` and logicpy's position 1 in a question term."""
    if isinstance(term, tuple) and term and term[0] in ("at_position_question", "query_position_question"):
        position = ("a" if term[1] == 1 else term[1]) if to_file else (1 if term[1] == "a" else term[1])
        rest = term[2] if term[0] == "at_position_question" else _position_a(term[2], to_file)
        return (term[0], position, rest)
    if isinstance(term, tuple) and term and term[0] in _CONNECTIVES:
        return (term[0], _position_a(term[1], to_file), _position_a(term[2], to_file))
    return term


def crosscheck_questions(module: Any, complexity: int = 1, timeout: float = 60.0,
                         notes: list[str] | None = None) -> QuestionCheck:
    """Compare a file's `is_distinguishing_question(Q, AnswerForTruly, AnswerForFalsely)` with logicpy.

    Both ways: the file's first `FILE_QUESTIONS` answers are converted and evaluated by
    logicpy (each answer must be what Truly resp. Falsely says, and they must differ);
    logicpy's distinguishing questions, one per behaviour up to `complexity`, must be
    accepted by the file with the same answers.
    """
    from ..universe import universe

    notes = list(notes or [])
    puzzle = KNIGHT_OR_KNAVE_FILE
    wrong: list[str] = []
    timed_out = False

    def compare(question: Question, answers: dict[str, str], who: str) -> None:
        for god, key in (("truly", "AT"), ("falsely", "AF")):
            mine = "true" if _says_yes(puzzle, god, question) else "fail"
            if answers.get(key) != mine:
                wrong.append(f"{who} [{english(question, puzzle.grammar)}]: {god} says yes is {mine} for "
                             f"logicpy, {answers.get(key, 'no answer')} for the file")

    try:
        found = module.query("is_distinguishing_question(Q, AT, AF)", limit=FILE_QUESTIONS, timeout=timeout,
                             capture_output=True)
    except PrologTimeout:
        found, timed_out = [], True
        notes.append(f"the file's question search ran past {timeout:g} s (--timeout): inconclusive")
    for answer in found:
        q = question_from_prolog(_position_a(answer["Q"], to_file=False))
        compare(q, answer, "the file's question")
        if answer["AT"] == answer["AF"]:
            wrong.append(f"the file's question [{english(q, puzzle.grammar)}] is not distinguishing")

    u = universe(puzzle, complexity)
    mine = [u.term(i) for i in u.ids_through(complexity)]
    distinguishing = [q for q in mine if _says_yes(puzzle, "truly", q) != _says_yes(puzzle, "falsely", q)]
    for q in distinguishing:
        term = _position_a(question_to_prolog(q), to_file=True)
        try:
            answers = module.query(f"is_distinguishing_question({format_term(term)}, AT, AF)", limit=1,
                                   timeout=timeout, capture_output=True)
        except PrologTimeout:
            timed_out = True
            notes.append(f"the file ran past {timeout:g} s on logicpy's question: inconclusive")
            break
        if not answers:
            wrong.append(f"logicpy's question [{english(q, puzzle.grammar)}] is not distinguishing for the file")
        else:
            compare(q, answers[0], "logicpy's question")
    return QuestionCheck(module.path, complexity, len(found), len(distinguishing),
                         tuple(wrong[:SHOWN_DISAGREEMENTS]), len(wrong), tuple(notes), timed_out)


def _defines(module: Any, indicator: str) -> bool:
    return bool(module.query(f"current_predicate({indicator})", limit=1))


def _generator(puzzle: Puzzle) -> tuple[str, list[str]] | None:
    """The original family generator and god types that make exactly the puzzle's assignments."""
    first = puzzle.assignments[0]
    if set(puzzle.assignments) == set(itertools.permutations(first)):
        return "generate_permutation_families", list(first)
    if all(len(set(a)) == 1 for a in puzzle.assignments):
        return "generate_uniform_families", [a[0] for a in puzzle.assignments]
    return None


def _file_tree(
    module: Any, puzzle: Puzzle, questions: int, complexity: int, timeout: float, notes: list[str]
) -> tuple[str, Term | None, bool]:
    """Which entry point was used, the file's tree term (None if it finds none), and whether it timed out.

    `find_pruning_tree/7` reads the question universe the file's `generate_universe/4`
    asserts (`distinct_q/3` in the original), so that is called first when defined.
    """
    n = puzzle.n_positions
    generator = _generator(puzzle)
    if generator is not None and _defines(module, "is_distinguishing_tree_bounded/6") \
            and _defines(module, f"{generator[0]}/3"):
        entry = "is_distinguishing_tree_bounded/6"
        goal = (f"is_distinguishing_tree_bounded({n}, {questions}, {complexity}, "
                f"{format_term(generator[1])}, Tree, {generator[0]})")
    elif _defines(module, "find_pruning_tree/7"):
        entry = "find_pruning_tree/7"
        families = ", ".join(
            "candidate([" + ", ".join(f"pos({p}, {t}, _)" for p, t in enumerate(a, 1)) + "], [da_yes, da_no])"
            for a in puzzle.assignments
        )
        goal = f"find_pruning_tree({questions}, {questions}, {complexity}, {n}, [{families}], [{families}], Tree)"
        if _defines(module, "generate_universe/4"):
            goal = f"generate_universe({n}, {complexity}, [{families}], {questions}), {goal}"
    else:
        raise InputError(
            f"{module.path}: defines neither is_distinguishing_tree_bounded/6 (with the puzzle's family "
            "generator) nor find_pruning_tree/7"
        )
    try:
        answers = module.query(goal, limit=1, timeout=timeout, capture_output=True)
    except PrologTimeout:
        notes.append(f"the file's search ran past {timeout:g} s (--timeout): inconclusive, not a disagreement")
        return entry, None, True
    return entry, (answers[0]["Tree"] if answers else None), False


def _compare_utterances(
    module: Any, puzzle: Puzzle, tree: Tree, timeout: float
) -> tuple[str, int, tuple[str, ...], int]:
    """Put `tree`'s questions to the file in every world; (evaluators, queries, shown, count)."""
    for indicator in ("query_position/5", "evaluate/3"):
        if not _defines(module, indicator):
            raise InputError(f"{module.path}: does not define {indicator}")
    queries = _queries(tree, puzzle)
    tasks = format_term([q.goal_args for q in queries])
    goal = (
        f"findall(A, (member(T, {tasks}), "
        "( T = u(P, Q, Path, W) -> (query_position(P, Q, Path, W, U) -> A = U ; A = no_answer) "
        "; T = e(Q, Path, W), (evaluate(Q, Path, W) -> A = true ; A = fail) )), As)"
    )
    answers = module.query(goal, limit=1, timeout=timeout, capture_output=True)
    if not answers:
        raise PrologError(f"{module.path}: query_position/5 and evaluate/3 could not be run on logicpy's questions")
    said = answers[0]["As"]
    wrong = [
        f"{q.node_path} in world {q.world}: {q.what} {q.expected} for logicpy, {a} for the file"
        for q, a in zip(queries, said) if a != q.expected
    ]
    return "query_position/5 and evaluate/3", len(queries), tuple(wrong[:SHOWN_DISAGREEMENTS]), len(wrong)
