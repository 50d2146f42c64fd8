"""The exact signature universe: every distinct behaviour of a question, level by level.

A question's *signature* is its truth in every concrete world of one step, a bit vector
of W bits (classic: 6 assignments x 2 languages x 2 Random answers = 24). Every rule is
pointwise over concrete worlds, so two questions with equal signatures are
interchangeable in every context (inside `ask` too): keeping one representative per
signature loses nothing, and "no tree up to complexity k" is a proof.

Level c holds the rule applications with at least one child of level c-1 (the others
<= c-1) whose signature is new; the first question generated per signature is kept as
its representative, stored as (rule, arguments) with child ids, and rebuilt on demand.

Every rule with question arguments is evaluated the same way: fix all arguments but the
last (the "prefix"), fold the truth table into two masks S1, S0 (the worlds where the
result follows the last child being true, resp. false), then the whole column of last
children is `(B & S1) | (~B & S0)` in one numpy operation. `ask` about position p is
the same with world-dependent masks from the semantics.

Invariants: ids are in level order; `signatures[i]` has no bits set beyond W; every
signature occurs once.
"""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

import numpy as np

from ...errors import InputError
from .grammar import Question, Rule, atom_truth
from .model import UTTERANCES, WORDS, ConcreteWorld, Puzzle

if TYPE_CHECKING:
    from .census.shards import Sharding

__all__ = ["Layout", "LevelStats", "Universe", "UniverseTooBig", "universe", "DIRECT_TABLE_MAX_WORLDS"]

#: Up to this many worlds, dedup marks signatures in a direct-address table of 2^W bytes.
DIRECT_TABLE_MAX_WORLDS = 26
#: Candidate questions one level may evaluate (complexity 3 of the classic puzzle: 7.5 million,
#: about 0.4 s); a level estimated above this is refused instead of running for hours.
MAX_LEVEL_CANDIDATES = 2_000_000_000
#: Memory a level may need at most (its estimate is an upper bound): half the machine's RAM.
MAX_LEVEL_BYTES = (os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")) // 2 if hasattr(os, "sysconf") else 8 << 30
#: Candidates are deduplicated in batches of about this many signatures.
BATCH = 1 << 20

Progress = Callable[[str, int, int], None]


class UniverseTooBig(InputError):
    """A level refused before it starts: `candidates` and the upper bound `memory` (bytes) it may need."""

    def __init__(self, message: str, level: int, candidates: int, memory: int):
        super().__init__(message)
        self.level, self.candidates, self.memory = level, candidates, memory


class Layout:
    """Bit layout of one step's concrete worlds, and the masks the semantics induce.

    Worlds are numbered as `puzzle.concrete_worlds`, grouped by hidden world. Under
    self-reference every concrete world appears twice, as bits 2k and 2k+1: with the
    asked god's answer hypothesised to be ja, then da (a signature is then the truth
    given each hypothesis, and every rule stays pointwise).
    """

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        # Each concrete world once per judge (when a god lies about himself: the truth as
        # judged by the god at each position, None = truly) and per hypothesised answer
        # (under self-reference), the answer innermost so that ja/da pairs are adjacent bits.
        views = (None, *range(1, puzzle.n_positions + 1)) if puzzle.views else (None,)
        answers: tuple[str | None, ...] = WORDS if puzzle.self_reference else (None,)
        self.worlds: tuple[ConcreteWorld, ...] = tuple(
            cw.with_view(v).with_answer(u) for cw in puzzle.concrete_worlds for v in views for u in answers)
        self.n_worlds = len(self.worlds)
        self.n_words = (self.n_worlds + 63) // 64
        self.n_hidden = len(puzzle.hidden_worlds)
        self.full = self.bits(lambda w: True)
        hidden_index = {h: i for i, h in enumerate(puzzle.hidden_worlds)}
        self.hidden_of_world = np.array([hidden_index[w.world] for w in self.worlds], dtype=np.int64)

        # Per position p, utterance u and truth: worlds where god p, answering a question
        # of that truth, utters u.
        def utters(p: int, u: str, truth: bool) -> Callable[[ConcreteWorld], bool]:
            return lambda w: puzzle.utter(w.type_at(p), truth, w.da_means_yes, w.free_at(p), w.state_at(p)) == u

        self.utter_if = {
            (p, u, truth): self.bits(utters(p, u, truth))
            for p in range(1, puzzle.n_positions + 1)
            for u in UTTERANCES
            for truth in (True, False)
        }
        # Under self-reference: the bits hypothesising ja (even) and da (odd).
        self.hypothesis = {u: self.bits(self._answer_is(u)) for u in WORDS}
        # Gods who lie about themselves: the bits god p reads (his own judgement), the bits
        # judged by p (where statements about p flip), and per p where ask(p, Q) reads Q.
        positions = range(1, puzzle.n_positions + 1)
        self.judged = {p: self.bits(self._judged_by_himself(p)) for p in positions}
        self.about = {p: self.bits(self._judged_by(p)) for p in positions}
        index = {w: i for i, w in enumerate(self.worlds)}
        self._gather_from = {
            p: np.array([index[w.with_view(puzzle.view_of(p, w))] for w in self.worlds], dtype=np.intp)
            for p in positions
        } if puzzle.views else {}
        self._projection = self._projection_tables()

    @staticmethod
    def _answer_is(u: str) -> Callable[[ConcreteWorld], bool]:
        return lambda w: w.answer == u

    @staticmethod
    def _judged_by(p: int) -> Callable[[ConcreteWorld], bool]:
        return lambda w: w.view == p

    def _judged_by_himself(self, p: int) -> Callable[[ConcreteWorld], bool]:
        return lambda w: w.view == self.puzzle.view_of(p, w)

    def bits(self, predicate: Callable[[ConcreteWorld], bool]) -> np.ndarray:
        """The (n_words,) uint64 vector of worlds where `predicate` holds."""
        out = np.zeros(self.n_words, dtype=np.uint64)
        for i, w in enumerate(self.worlds):
            if predicate(w):
                out[i // 64] |= np.uint64(1) << np.uint64(i % 64)
        return out

    def truths(self, signature: np.ndarray) -> list[bool]:
        """The signature as one bool per world."""
        return [bool((int(signature[i // 64]) >> (i % 64)) & 1) for i in range(self.n_worlds)]

    def gather(self, signatures: np.ndarray, position: int) -> np.ndarray:
        """Each bit replaced by the same world's bit as god `position` judges it (for ask(position, Q)).

        The identity unless some god lies about himself.
        """
        source = self._gather_from.get(position)
        return signatures if source is None else gather_bits(signatures, source, self.n_worlds)

    def utterance(self, signatures: np.ndarray, position: int, word: str) -> np.ndarray:
        """World bits where god `position`, asked questions with these signatures, may utter `word`.

        Without self-reference this is pointwise. With it, the god may say u only if his
        answer to the question's truth given u is u (bit 2k for ja, 2k+1 for da); he is
        silent (marked on bit 2k) when neither word qualifies.
        """
        judged = self.judged[position]  # he answers the question as he judges it

        def says(u: str) -> np.ndarray:
            return ((signatures & self.utter_if[(position, u, True)])
                    | (~signatures & self.utter_if[(position, u, False)])) & judged

        if not self.puzzle.self_reference:
            return says(word)
        ja = says("ja") & self.hypothesis["ja"]
        da = says("da") & self.hypothesis["da"]
        if word == "ja":
            return ja
        if word == "da":
            return da
        return ~(ja | (da >> np.uint64(1))) & self.hypothesis["ja"] & judged

    def _projection_tables(self) -> list[tuple[int, int, np.ndarray]]:
        """Per byte of a signature: (word, shift, table byte -> hidden-world mask)."""
        tables = []
        for byte in range((self.n_worlds + 7) // 8):
            table = np.zeros(256, dtype=np.uint64)
            for value in range(256):
                mask = 0
                for bit in range(8):
                    w = byte * 8 + bit
                    if value >> bit & 1 and w < self.n_worlds:
                        mask |= 1 << int(self.hidden_of_world[w])
                table[value] = mask
            tables.append((byte // 8, 8 * (byte % 8), table))
        return tables

    def project(self, signatures: np.ndarray) -> np.ndarray:
        """Per row, the (uint64) set of hidden worlds having at least one world bit set."""
        out = np.zeros(len(signatures), dtype=np.uint64)
        for word, shift, table in self._projection:
            out |= table[((signatures[:, word] >> np.uint64(shift)) & np.uint64(255)).astype(np.intp)]
        return out


def gather_bits(signatures: np.ndarray, source: np.ndarray, n_worlds: int) -> np.ndarray:
    """Rows of signatures with bit i replaced by bit source[i] (one world read as another)."""
    n_words = signatures.shape[1]
    rows = np.ascontiguousarray(signatures).view(np.uint8).reshape(len(signatures), -1)
    bits = np.unpackbits(rows, axis=1, bitorder="little")[:, source]
    out = np.zeros((len(signatures), 64 * n_words), dtype=np.uint8)
    out[:, :n_worlds] = bits
    return np.packbits(out, axis=1, bitorder="little").view(np.uint64).reshape(len(signatures), n_words)


def fold_connective(truth_table: tuple[bool, ...], arity: int, prefix_sigs: list[np.ndarray],
                    full: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Masks (S1, S0) of a connective with all children but the last fixed: its result is
    (last & S1) | (~last & S0)."""
    s = {True: np.zeros_like(full), False: np.zeros_like(full)}
    for row, out in zip(itertools.product((False, True), repeat=arity), truth_table):
        if not out:
            continue
        term = full.copy()
        for bit, sig in zip(row[:-1], prefix_sigs):
            term &= sig if bit else (~sig & full)
        s[row[-1]] |= term
    return s[True], s[False]


def signature_keys(signatures: np.ndarray) -> np.ndarray:
    """One sortable key per signature row: the uint64 itself, or its raw bytes for several words."""
    if signatures.shape[1] == 1:
        return signatures[:, 0]
    return np.ascontiguousarray(signatures).view(f"V{8 * signatures.shape[1]}").ravel()


def sorted_contains(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """For each key, True iff it occurs in `sorted_keys` (ascending)."""
    if not len(sorted_keys):
        return np.zeros(len(keys), dtype=bool)
    pos = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return sorted_keys[pos] == keys


@dataclass(frozen=True)
class LevelStats:
    """What building one level did: new signatures kept, candidates generated, CPU seconds."""

    level: int
    new: int
    candidates: int
    seconds: float


class _Seen:
    """The set of signatures seen so far, with vectorised `keep_new`.

    Direct-address bool table of 2^W entries when W is small; otherwise sorted arrays of
    keys (uint64, or raw bytes for several words) searched with `searchsorted`.
    """

    def __init__(self, n_worlds: int, n_words: int):
        self.direct = n_worlds <= DIRECT_TABLE_MAX_WORLDS
        self.n_words = n_words
        if self.direct:
            self.table = np.zeros(1 << n_worlds, dtype=bool)
        else:
            dtype = np.uint64 if n_words == 1 else np.dtype(f"V{8 * n_words}")
            self.main = np.empty(0, dtype=dtype)
            self.recent = np.empty(0, dtype=dtype)

    _keys = staticmethod(signature_keys)
    _contains = staticmethod(sorted_contains)

    def keep_new(self, signatures: np.ndarray) -> np.ndarray:
        """Indices (in order) of the rows whose signature is new, first occurrence only; marks them."""
        keys = self._keys(signatures)
        if self.direct:
            index = keys.astype(np.intp)
            fresh = np.flatnonzero(~self.table[index])
        else:
            fresh = np.flatnonzero(~(self._contains(self.main, keys) | self._contains(self.recent, keys)))
        if not len(fresh):
            return fresh
        _, first = np.unique(keys[fresh], return_index=True)
        fresh = fresh[np.sort(first)]
        if self.direct:
            self.table[index[fresh]] = True
        else:
            self.recent = np.sort(np.concatenate([self.recent, keys[fresh]]))
            if len(self.recent) * 8 > len(self.main):
                self.main = np.sort(np.concatenate([self.main, self.recent]))
                self.recent = self.recent[:0]
        return fresh

    def add_new(self, signatures: np.ndarray) -> None:
        """Mark signatures known to be new and distinct (a level built elsewhere)."""
        keys = self._keys(signatures)
        if self.direct:
            self.table[keys.astype(np.intp)] = True
        else:
            self.main = np.sort(np.concatenate([self.main, self.recent, keys]))
            self.recent = self.recent[:0]

    def sorted_keys(self) -> np.ndarray:
        """Every key seen, ascending (for the direct table: the set indices as uint64)."""
        if self.direct:
            return np.flatnonzero(self.table).astype(np.uint64)
        return np.sort(np.concatenate([self.main, self.recent]))

    def find(self, signature: np.ndarray) -> bool:
        """True iff `signature` was seen."""
        keys = self._keys(signature.reshape(1, -1))
        if self.direct:
            return bool(self.table[int(keys[0])])
        return bool(self._contains(self.main, keys)[0] or self._contains(self.recent, keys)[0])


def _commutative(rule: Rule) -> bool:
    """A binary connective whose children commute (only a <= b is generated)."""
    return rule.role == "connective" and rule.arity == 2 and rule.truth_table[1] == rule.truth_table[2]


@dataclass
class _Piece:
    """Candidates `rule(prefix..., last)` for last in ids [lo, hi), with the folded masks."""

    rule: int
    prefix: tuple[int, ...]
    lo: int
    hi: int
    s1: np.ndarray
    s0: np.ndarray
    gather: int | None = None  # ask(p, ·): the children as god p judges them


class Universe:
    """All distinct question signatures of `puzzle` up to a complexity, with representatives.

    Use `universe(puzzle, complexity)` for a cached, incrementally extended instance.
    """

    def __init__(self, puzzle: Puzzle, max_complexity: int = 0, progress: Progress | None = None):
        if max_complexity < 0:
            raise InputError(f"complexity must be >= 0, got {max_complexity}")
        self.puzzle = puzzle
        self.grammar = puzzle.grammar
        self.rules: tuple[Rule, ...] = puzzle.grammar.rules
        self.layout = Layout(puzzle)
        self._seen = _Seen(self.layout.n_worlds, self.layout.n_words)
        width = max([2] + [r.arity for r in self.rules])
        self._sigs = np.zeros((1024, self.layout.n_words), dtype=np.uint64)
        self._rule = np.zeros(1024, dtype=np.int16)
        self._args = np.full((1024, width), -1, dtype=np.int32)
        self.size = 0
        self.level_bounds: list[int] = [0]
        self.stats: list[LevelStats] = []
        self._build_atoms()
        self.extend_to(max_complexity, progress)

    # -- public -------------------------------------------------------------------------
    @property
    def max_complexity(self) -> int:
        """The highest level built."""
        return len(self.level_bounds) - 2

    @property
    def signatures(self) -> np.ndarray:
        """(size, n_words) uint64: row i is the signature of question id i."""
        return self._sigs[: self.size]

    def level_counts(self) -> list[int]:
        """How many new distinct signatures each level added."""
        return [s.new for s in self.stats]

    def level_of(self, qid: int) -> int:
        """The complexity level of question id `qid`."""
        return int(np.searchsorted(self.level_bounds, qid, side="right")) - 1

    def ids_through(self, complexity: int) -> range:
        """Question ids of complexity <= `complexity`."""
        return range(self.level_bounds[min(complexity, self.max_complexity) + 1])

    def term(self, qid: int) -> Question:
        """The representative question of id `qid`, rebuilt from its construction."""
        rule = self.rules[int(self._rule[qid])]
        args = []
        for kind, a in zip(rule.kinds, self._args[qid]):
            a = int(a)
            args.append(self._domains[kind][a] if kind in self._domains else self.term(a))
        return (rule.name, *args)

    def signature(self, q: Question) -> np.ndarray:
        """The signature of any question (evaluated structurally with the same masks)."""
        rule = self.grammar.rule(q[0])
        if rule.role == "atom":
            return self.layout.bits(lambda w: atom_truth(rule, w, q[1:]))
        if rule.role == "ask":
            prefix, prefix_sigs = (q[1],), []
            last = self.layout.gather(self.signature(q[-1]).reshape(1, -1), q[1])[0]
        else:
            prefix = q[1:-1]
            prefix_sigs = [self.signature(c) for c in prefix]
            last = self.signature(q[-1])
        s1, s0 = self._fold(rule, prefix, prefix_sigs)
        return (last & s1) | (~last & s0)

    def contains(self, signature: np.ndarray) -> bool:
        """True iff some question up to the built level has this signature."""
        return self._seen.find(signature)

    def extend_to(self, complexity: int, progress: Progress | None = None,
                  sharding: "Sharding | None" = None) -> "Universe":
        """Build levels up to `complexity` (no-op for levels already built); with `sharding`,
        a level of at least `sharding.min_candidates` candidates is built sharded (`shards.py`)."""
        while self.max_complexity < complexity:
            level = self.max_complexity + 1
            if sharding is not None and self.count_candidates(level) >= sharding.min_candidates:
                from .census.shards import build_level
                build_level(self, sharding, progress)
            else:
                self._build_level(level, progress)
        return self

    def reserve(self, n: int) -> int:
        """Make room for `n` more questions at once; returns the first id they will get."""
        self._grow(n)
        return self.size

    def append_rows(self, sigs: np.ndarray, rules: np.ndarray, args: np.ndarray) -> None:
        """Append questions of the level being built elsewhere (`shards.build_level`): new,
        distinct signatures in id order, each with its representative's rule and arguments."""
        self._append(sigs, rules, args)

    def close_level(self, first: int, candidates: int, seconds: float) -> None:
        """End the level whose questions were appended from id `first` on."""
        self._seen.add_new(self._sigs[first : self.size])
        self.level_bounds.append(self.size)
        self.stats.append(LevelStats(len(self.stats), self.size - first, candidates, seconds))

    def seen_keys(self) -> np.ndarray:
        """The keys (`signature_keys`) of every signature built, ascending."""
        return self._seen.sorted_keys()

    @property
    def args_width(self) -> int:
        """Columns of the stored arguments (the largest rule arity, at least 2)."""
        return int(self._args.shape[1])

    # -- building -----------------------------------------------------------------------
    def _grow(self, n: int) -> None:
        """Capacity for `n` more rows (doubling, or exactly what is asked when more)."""
        if self.size + n > len(self._sigs):
            grow = max(len(self._sigs), self.size + n - len(self._sigs))
            self._sigs = np.concatenate([self._sigs, np.zeros((grow, self._sigs.shape[1]), dtype=np.uint64)])
            self._rule = np.concatenate([self._rule, np.zeros(grow, dtype=np.int16)])
            self._args = np.concatenate([self._args, np.full((grow, self._args.shape[1]), -1, dtype=np.int32)])

    def _append(self, sigs: np.ndarray, rule: np.ndarray, args: np.ndarray) -> None:
        n = len(sigs)
        self._grow(n)
        self._sigs[self.size : self.size + n] = sigs
        self._rule[self.size : self.size + n] = rule
        self._args[self.size : self.size + n, : args.shape[1]] = args
        self.size += n

    @property
    def _domains(self) -> dict[str, tuple]:
        """Per atom argument kind, its values; an argument is stored as its index here."""
        return {"position": tuple(range(self.puzzle.n_positions + 1)), "type": self.puzzle.type_names, "word": WORDS}

    def _build_atoms(self) -> None:
        start = time.process_time()
        names = self.puzzle.type_names
        domains = {"position": range(1, self.puzzle.n_positions + 1),
                   "type": [names.index(t) for t in self.puzzle.types],
                   "word": range(len(WORDS))}
        sigs, rules, args = [], [], []
        for r, rule in enumerate(self.rules):
            if rule.role != "atom":
                continue
            for combo in itertools.product(*(domains[k] for k in rule.kinds)):
                values = [self._domains[k][a] if k != "position" else a for k, a in zip(rule.kinds, combo)]
                sigs.append(self.layout.bits(lambda w: atom_truth(rule, w, values)))
                rules.append(r)
                args.append(list(combo) + [-1] * (self._args.shape[1] - len(combo)))
        if not sigs:
            raise InputError("the grammar has no atomic rule, so it has no questions")
        sigs_a = np.array(sigs, dtype=np.uint64).reshape(len(sigs), -1)
        keep = self._seen.keep_new(sigs_a)
        self._append(sigs_a[keep], np.array(rules)[keep], np.array(args, dtype=np.int32)[keep])
        self.level_bounds.append(self.size)
        self.stats.append(LevelStats(0, self.size, len(sigs), time.process_time() - start))

    def _fold(self, rule: Rule, prefix: tuple, prefix_sigs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Masks (S1, S0): result = (last & S1) | (~last & S0) once the prefix is fixed."""
        if rule.role == "ask":
            (position,) = prefix
            flip = self.layout.about[position]  # a statement about a god who judges it is flipped by him
            return (self.layout.utter_if[(position, "da", True)] ^ flip,
                    self.layout.utter_if[(position, "da", False)] ^ flip)
        return fold_connective(rule.truth_table, rule.arity, prefix_sigs, self.layout.full)

    def piece_specs(self, level: int) -> Iterator[tuple[int, tuple[int, ...], int]]:
        """Every candidate piece of `level` as (rule, prefix, lo): the candidates rule(*prefix, last)
        for last in ids [lo, end of level-1), rule by rule in grammar order. Candidate order
        (pieces in this order, then last ascending) decides which question represents a
        signature: the first generated."""
        lo_last, hi_last = self.level_bounds[level - 1], self.level_bounds[level]  # ids of level-1
        for r, rule in enumerate(self.rules):
            if rule.role == "atom":
                continue
            if rule.role == "ask":
                for p in range(1, self.puzzle.n_positions + 1):
                    yield r, (p,), lo_last
                continue
            commutative = _commutative(rule)
            for prefix in itertools.product(range(hi_last), repeat=rule.arity - 1):
                top = any(a >= lo_last for a in prefix)
                if commutative:
                    lo = prefix[0] if top else lo_last
                else:
                    lo = 0 if top else lo_last
                if lo < hi_last:
                    yield r, prefix, lo

    def _pieces(self, level: int) -> Iterator[_Piece]:
        """All candidate pieces of `level` with their folded masks."""
        hi_last = self.level_bounds[level]
        sigs = self.signatures
        for r, prefix, lo in self.piece_specs(level):
            rule = self.rules[r]
            if rule.role == "ask":
                s1, s0 = self._fold(rule, prefix, [])
                yield _Piece(r, prefix, lo, hi_last, s1, s0, prefix[0] if self.puzzle.views else None)
            else:
                s1, s0 = self._fold(rule, prefix, [sigs[a] for a in prefix])
                yield _Piece(r, prefix, lo, hi_last, s1, s0)

    def estimate_bytes(self, level: int) -> int:
        """An upper bound on the memory building `level` takes: every candidate might be new.

        Per kept signature: its words, rule and arguments, stored arrays doubled while
        they grow, and its key in the sorted dedup set (or the fixed direct table).
        """
        new = min(self.count_candidates(level), (1 << min(self.layout.n_worlds, 62)) - self.size)
        per = 2 * (8 * self.layout.n_words + 2 + 4 * self._args.shape[1])
        seen = (1 << self.layout.n_worlds) if self._seen.direct else 2 * 8 * self.layout.n_words * new
        return new * per + (0 if self._seen.direct else seen)

    def _build_level(self, level: int, progress: Progress | None) -> None:
        estimate = self.count_candidates(level)
        memory = self.estimate_bytes(level)
        if estimate > MAX_LEVEL_CANDIDATES or memory > MAX_LEVEL_BYTES:
            raise UniverseTooBig(
                f"complexity {level} would mean about {estimate:.2g} candidate questions and up to "
                f"{memory / 2**30:.1f} GiB for this puzzle in one process (the limits are {MAX_LEVEL_CANDIDATES:.0e} and "
                f"{MAX_LEVEL_BYTES / 2**30:.1f} GiB); the exact universe can be built here "
                f"through complexity {level - 1}, and beyond it sharded (--sharded: workers keep only "
                f"distinct signatures, streamed to disk by shard)", level, estimate, memory)
        start = time.process_time()
        before = self.size
        total = self._count_pieces(level)
        batch: list[_Piece] = []
        batch_size = candidates = done = 0
        for piece in self._pieces(level):
            batch.append(piece)
            batch_size += piece.hi - piece.lo
            done += 1
            if batch_size >= BATCH:
                candidates += self._flush(batch)
                batch, batch_size = [], 0
                if progress:
                    progress(f"complexity {level}", done, total)
        candidates += self._flush(batch)
        if progress:
            progress(f"complexity {level}", total, total)
        self.level_bounds.append(self.size)
        self.stats.append(LevelStats(level, self.size - before, candidates, time.process_time() - start))

    def _count_pieces(self, level: int) -> int:
        hi = self.level_bounds[level]
        count = 0
        for rule in self.rules:
            if rule.role == "ask":
                count += self.puzzle.n_positions
            elif rule.role == "connective":
                count += hi ** (rule.arity - 1)
        return count

    def count_candidates(self, level: int) -> int:
        """Rule applications at `level` (one child from level-1, the others from below; the
        children of a commutative rule in id order), exactly as `piece_specs` generates them."""
        hi, lo = self.level_bounds[level], self.level_bounds[level - 1]
        count = 0
        for rule in self.rules:
            if rule.role == "ask":
                count += self.puzzle.n_positions * (hi - lo)
            elif _commutative(rule):
                count += hi * (hi + 1) // 2 - lo * (lo + 1) // 2
            elif rule.role == "connective":
                count += hi ** rule.arity - lo ** rule.arity
        return count

    def _flush(self, batch: list[_Piece]) -> int:
        """Evaluate a batch of pieces, keep the new signatures; returns the candidate count."""
        if not batch:
            return 0
        sigs = self.signatures
        children = [sigs[p.lo : p.hi] if p.gather is None else self.layout.gather(sigs[p.lo : p.hi], p.gather)
                    for p in batch]
        values = np.concatenate([(c & p.s1) | (~c & p.s0) for c, p in zip(children, batch)])
        fresh = self._seen.keep_new(values)
        if len(fresh):
            starts = np.cumsum([0] + [p.hi - p.lo for p in batch])
            which = np.searchsorted(starts, fresh, side="right") - 1
            width = self._args.shape[1]
            prefixes = np.full((len(batch), width), -1, dtype=np.int32)
            for i, piece in enumerate(batch):
                prefixes[i, : len(piece.prefix)] = piece.prefix
            lengths = np.array([len(p.prefix) for p in batch])
            los = np.array([p.lo for p in batch])
            rules = np.array([p.rule for p in batch], dtype=np.int16)[which]
            args = prefixes[which]
            args[np.arange(len(fresh)), lengths[which]] = los[which] + fresh - starts[which]
            self._append(values[fresh], rules, args)
        return len(values)


#: Universes kept by `universe`, most recently used last (a complexity-3 one holds ~80 MB).
_CACHE: dict[Puzzle, Universe] = {}
CACHE_SIZE = 4


def universe(puzzle: Puzzle, complexity: int, progress: Progress | None = None,
             sharding: "Sharding | None" = None) -> Universe:
    """The universe of `puzzle` built at least to `complexity` (cached for recent puzzles);
    big levels sharded when `sharding` says how (see `Universe.extend_to`)."""
    u = _CACHE.pop(puzzle, None)
    if u is None:
        u = Universe(puzzle, 0, progress)
    _CACHE[puzzle] = u
    while len(_CACHE) > CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]
    return u.extend_to(complexity, progress, sharding)
