"""Every line of `--explain` can be checked from the lines above it and what it cites.

The checker here shares no code with the explainer. It replays a trace on its own candidate
grid (which pairs of things may still share a row) and, for each step and each item of each
failed assumption's chain, asks its own small search whether the opposite of the fact is
possible given the candidates so far plus what the line cites: the clue it names, or, for a
grid rule, nothing but the grid itself (each kind's things fill the rows one to one). It also
checks that what a grid rule states is literally so ("the only Colour left for 1": 1 has one
Colour candidate left). The search is local, as a reader's check is: it branches only on the
rows a clue reads and on a link it must test, and otherwise stops at a consistent partial grid.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from logicpy.puzzles.einstein import explain, load_game, solve
from logicpy.puzzles.einstein.semantics import holds

ROOT = Path(__file__).resolve().parents[3]
PEERS = next((d / "shared/peers/einstein-solver" for d in ROOT.parents if (d / "shared/peers/einstein-solver").exists()),
             ROOT.parent / "shared/peers/einstein-solver")
EXAMPLES = ROOT / "logicpy" / "data" / "examples" / "einstein"
GAMES = sorted(EXAMPLES.glob("*.json")) + sorted(p for p in PEERS.glob("*.json") if p.name != "expected_solutions.json")

#: Search nodes one check may use before it gives up (a check that needs more is reported).
BUDGET = 200_000


class _Need(Exception):
    """A clue read a cell the partial grid does not fix yet: branch on `what`."""

    def __init__(self, what):
        self.what = what


class Checker:
    """A candidate grid over a game's things, and local entailment checks on it."""

    def __init__(self, game):
        self.game = game
        self.kinds = [k.things for k in game.kinds]
        self.kind_of = {t: i for i, things in enumerate(self.kinds) for t in things}
        self.n = game.size
        self.rows = {t: i for i, t in enumerate(self.kinds[0])}  # the first kind names the rows
        self.allowed = {(a, b) for a in self.kind_of for b in self.kind_of if self.kind_of[a] != self.kind_of[b]}

    # -- facts -----------------------------------------------------------------

    def apply(self, allowed: set, pair, linked: bool) -> None:
        """Add a fact: a and b share a row (so neither shares it with the other's fellows), or not."""
        a, b = pair
        if linked:
            for x, y in ((a, b), (b, a)):
                for z in self.kinds[self.kind_of[y]]:
                    if z != y:
                        allowed.discard((x, z))
                        allowed.discard((z, x))
        else:
            allowed.discard((a, b))
            allowed.discard((b, a))

    def entailed(self, allowed: set, pair, linked: bool, clue) -> bool:
        """Whether the fact follows: its opposite is impossible with the candidates and the clue."""
        trial = set(allowed)
        if linked:
            self.apply(trial, pair, False)
            return not self.possible(trial, clue)
        if pair not in allowed:
            return True
        self.apply(trial, pair, True)
        return not self.possible(trial, clue, tie=pair)

    # -- the search ------------------------------------------------------------

    def possible(self, allowed: set, clue, tie=None) -> bool:
        """Whether some partial grid within the candidates is consistent, satisfies the clue (if
        any) and puts the things of `tie` in one row."""
        full = (1 << self.n) - 1
        dom = {}
        for t, k in self.kind_of.items():
            if k == 0:
                dom[t] = 1 << self.rows[t]
            else:
                dom[t] = sum(1 << self.rows[r] for r in self.kinds[0] if (r, t) in allowed)
        apart = {t: [u for u in self.kind_of if self.kind_of[u] not in (0, self.kind_of[t]) and (t, u) not in allowed]
                 for t in self.kind_of if self.kind_of[t]}
        friends = {(t, k): [u for u in self.kinds[k] if (t, u) in allowed]
                   for t in self.kind_of for k in range(1, len(self.kinds)) if k != self.kind_of[t]}
        self.nodes = 0
        return self._search(dom, apart, friends, full, clue, tie)

    def _propagate(self, dom, apart, friends, full) -> bool:
        changed = True
        while changed:
            changed = False
            for t, d in list(dom.items()):
                if not d:
                    return False
                if d & (d - 1) == 0 and self.kind_of[t]:
                    for u in self.kinds[self.kind_of[t]]:  # fellows take other rows
                        if u != t and dom[u] & d:
                            dom[u] &= ~d
                            changed = True
                    for u in apart.get(t, ()):  # things that cannot share t's row
                        if dom[u] & d:
                            dom[u] &= ~d
                            changed = True
            for k in range(1, len(self.kinds)):
                for row in range(self.n):
                    bit = 1 << row
                    holders = [u for u in self.kinds[k] if dom[u] & bit]
                    if not holders:
                        return False
                    if len(holders) == 1 and dom[holders[0]] != bit:
                        dom[holders[0]] = bit
                        changed = True
            for (t, k), others in friends.items():  # t's row holds one of the K-things it may be with
                reach = 0
                for u in others:
                    reach |= dom[u]
                if dom[t] & ~reach:
                    dom[t] &= reach
                    changed = True
        return True

    def _search(self, dom, apart, friends, full, clue, tie) -> bool:
        self.nodes += 1
        if self.nodes > BUDGET:
            raise AssertionError("the check needs more search than its budget")
        if not self._propagate(dom, apart, friends, full):
            return False
        try:
            if tie is not None:
                a, b = tie
                if not dom[a] & dom[b] or b in apart.get(a, ()) or a in apart.get(b, ()):
                    return False  # they can no longer share a row
                if not (dom[a] == dom[b] and dom[a] & (dom[a] - 1) == 0):
                    raise _Need(("tie", a, b))
            if clue is not None and not all(holds(self.game, rule, _View(self, dom)) for rule in clue.rules):
                return False
            return True
        except _Need as need:
            for choice in self._choices(dom, need.what):
                trial = dict(dom)
                for t, bit in choice:
                    trial[t] = bit
                if self._search(trial, apart, friends, full, clue, tie):
                    return True
            return False

    def _choices(self, dom, what):
        if what[0] == "row":
            t = what[1]
            return [[(t, 1 << r)] for r in range(self.n) if dom[t] >> r & 1]
        if what[0] == "tie":
            _, a, b = what
            both = dom[a] & dom[b]
            return [[(a, 1 << r), (b, 1 << r)] for r in range(self.n) if both >> r & 1]
        _, row, kind = what
        return [[(u, 1 << row)] for u in self.kinds[kind] if dom[u] >> row & 1]


class _View:
    """What a clue may ask of a partial grid; `_Need` when the answer is not fixed yet."""

    def __init__(self, checker: Checker, dom):
        self.c, self.dom = checker, dom

    def _row(self, t) -> int:
        d = self.dom[t]
        if d & (d - 1):
            raise _Need(("row", t))
        return d.bit_length() - 1

    def partner(self, thing: str, kind: str) -> str:
        c = self.c
        k = c.game.kind_names.index(kind)
        row = self._row(thing)
        if k == 0:
            return c.kinds[0][row]
        holders = [u for u in c.kinds[k] if self.dom[u] >> row & 1]
        if len(holders) == 1:
            return holders[0]
        raise _Need(("at", row, k))

    def linked(self, a: str, b: str) -> bool:
        if not self.dom[a] & self.dom[b]:
            return False
        return self._row(a) == self._row(b)


# -- the replay ------------------------------------------------------------------


def replay(game, explanation) -> list[str]:
    """Every line of the trace that does not follow from the lines before it and what it cites."""
    checker = Checker(game)
    clues = {c.number: c for c in game.clues}
    allowed = checker.allowed
    problems: list[str] = []
    for number, step in enumerate(explanation.steps, 1):
        if step.kind == "stuck":
            continue
        if step.kind == "guess":
            checker.apply(allowed, step.pair, True)
            continue
        if step.kind == "try":
            head, *items, end = step.chain
            if head.pair != step.pair or not head.linked or step.linked:
                problems.append(f"step {number}: the chain does not start from the assumption")
            local = set(allowed)
            checker.apply(local, head.pair, True)
            for item in items:
                why = _check(checker, clues, local, item)
                if why:
                    problems.append(f"step {number}, “{item.text}”: {why}")
                checker.apply(local, item.pair, item.linked)
            why = _check_contradiction(checker, clues, local, end)
            if why:
                problems.append(f"step {number}, “{end.text}”: {why}")
        else:
            why = _check(checker, clues, allowed, step)
            if why:
                problems.append(f"step {number}, “{step.text}”: {why}")
        checker.apply(allowed, step.pair, step.linked)
    return problems


def _cell(checker: Checker, allowed: set, thing: str, kind: str) -> list[str]:
    k = checker.game.kind_names.index(kind)
    return [u for u in checker.kinds[k] if (thing, u) in allowed]


def _check(checker: Checker, clues, allowed: set, step) -> str:
    """What is wrong with one fact-stating line ("" if nothing)."""
    a, b = step.pair
    game = checker.game
    if step.rule == "clue":
        if step.clue not in clues:
            return f"cites clue {step.clue}, which the game does not have"
        clue = clues[step.clue]
    else:
        clue = None
        if step.rule == "only":
            thing, kind = step.basis
            other = b if a == thing else a
            if _cell(checker, allowed, thing, kind) != [other]:
                return f"{thing} has {_cell(checker, allowed, thing, kind)} left in {kind}"
        elif step.rule == "with":
            x, y = step.basis
            z = b if a == x else a
            if _cell(checker, allowed, x, game.kind_of(y).name) != [y] or game.kind_of(z) != game.kind_of(y):
                return f"{x} is not known to be with {y}, or {z} is no fellow of {y}"
        elif step.rule == "no-common":
            (kind,) = step.basis
            common = set(_cell(checker, allowed, a, kind)) & set(_cell(checker, allowed, b, kind))
            if common:
                return f"{a} and {b} still share the {kind} candidates {sorted(common)}"
        else:
            return f"no known rule: {step.rule!r}"
    if not checker.entailed(allowed, step.pair, step.linked, clue):
        return "does not follow from the candidates before it" + (f" and clue {step.clue}" if clue else "")
    return ""


def _check_contradiction(checker: Checker, clues, allowed: set, end) -> str:
    if end.kind != "contradiction":
        return "a chain must end in a contradiction"
    if end.rule == "empty":
        thing, kind = end.basis
        return "" if not _cell(checker, allowed, thing, kind) else f"{thing} still has a {kind}"
    if end.rule == "with":
        return "" if tuple(end.basis) not in allowed else f"{end.basis[0]}–{end.basis[1]} is still possible"
    if end.rule == "clue" and end.clue in clues:
        return "" if not checker.possible(allowed, clues[end.clue]) else f"clue {end.clue} can still hold"
    return f"no known contradiction: {end.rule!r}"


# -- the tests --------------------------------------------------------------------


def _explained(game):
    (solution,) = solve(game).solutions
    return explain(game, solution)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_every_line_of_the_peer_and_shipped_games_follows(path):
    game = load_game(path)
    explanation = _explained(game)
    assert replay(game, explanation) == []


@pytest.mark.parametrize("kinds, things, seed", [(3, 4, 1), (4, 5, 1), (4, 5, 2), (4, 5, 13)])
def test_every_line_of_small_generated_games_follows(kinds, things, seed):
    from logicpy.puzzles.einstein.generate import generate

    g = generate(kinds=kinds, things=things, seed=seed)
    explanation = explain(g.game, g.solution)
    assert any(s.kind == "try" for s in explanation.steps) or kinds == 3
    assert replay(g.game, explanation) == []


@pytest.mark.slow
@pytest.mark.parametrize("kinds, things, seed, difficulty",
                         [(5, 7, 8, None), (4, 5, 13, "hard"), (6, 6, 1, "hard"), (5, 6, 3, "hard"), (7, 6, 2, "hard")])
def test_every_line_of_larger_generated_games_follows(kinds, things, seed, difficulty):
    from logicpy.puzzles.einstein.generate import generate

    g = generate(kinds=kinds, things=things, seed=seed, difficulty=difficulty)
    explanation = explain(g.game, g.solution)
    assert any(s.kind == "try" for s in explanation.steps)
    assert replay(g.game, explanation) == []


def test_the_checker_catches_a_chain_that_leaves_out_a_clue():
    """A chain item whose reason needs a clue it does not cite is reported (the fault it guards)."""
    from dataclasses import replace

    game = load_game(EXAMPLES / "bake_sale.txt")
    explanation = _explained(game)
    (i, step), *_ = [(i, s) for i, s in enumerate(explanation.steps) if s.kind == "try" and len(s.chain) > 2]
    clue_items = [j for j, item in enumerate(step.chain) if item.rule == "clue"]
    cut = list(step.chain)
    if clue_items:  # drop a clue's removal the later items rest on
        del cut[clue_items[0]]
    else:  # or state a grid rule with the wrong reason
        j = next(j for j, item in enumerate(cut) if item.rule == "no-common")
        cut[j] = replace(cut[j], rule="only", basis=(cut[j].pair[0], game.kind_of(cut[j].pair[1]).name))
    broken = replace(explanation, steps=explanation.steps[:i] + (replace(step, chain=tuple(cut)),)
                     + explanation.steps[i + 1:])
    assert replay(game, broken)
    wrong_clue = replace(explanation, steps=tuple(
        replace(s, clue=(s.clue % len(game.clues)) + 1) if s.rule == "clue" and s.kind == "clue" and not s.linked
        else s for s in explanation.steps))
    assert replay(game, wrong_clue)  # citing the wrong clue is caught too


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted((ROOT / "bench" / "einstein_games").glob("generated_*.txt")), ids=lambda p: p.stem)
def test_every_line_of_the_benchmark_games_follows(path):
    """The minimised hard set, up to the 8 × 10 (73 failed assumptions, 2,880 steps)."""
    game = load_game(path)
    assert replay(game, _explained(game)) == []
