"""One exception family for logicpy: every error a user can cause is a `LogicpyError`.

Messages name the offending input (the clue, field, file and line, or value), so the
CLI can print them as one line without a traceback.
"""

from __future__ import annotations

__all__ = [
    "LogicpyError",
    "InputError",
    "TermError",
    "ModeError",
    "ResourceError",
    "PrologError",
    "PrologUnavailable",
    "PrologSyntaxError",
    "PrologTimeout",
    "PrologBusy",
    "NoSolution",
    "shown",
]


class LogicpyError(Exception):
    """Base class of every error logicpy raises on purpose."""


class InputError(LogicpyError, ValueError):
    """Bad user input: a file, a field, a clue or an option value; the message names it."""


class TermError(LogicpyError, TypeError):
    """A Python value that has no place in logicpy's term representation."""


class ModeError(LogicpyError):
    """A relation called in a mode where it cannot terminate (e.g. an unbounded length)."""


class ResourceError(LogicpyError):
    """A goal whose work is known, before it is done, to be more than the search allows
    (Prolog's resource error): the message names the goal and the limit."""


class NoSolution(LogicpyError):
    """A puzzle or query that provably has no answer (the message says within which bounds)."""


class PrologError(LogicpyError):
    """A Prolog exception; `term` holds the Prolog error term in logicpy's representation."""

    def __init__(self, message: str, term: object = None):
        super().__init__(message)
        self.term = term


class PrologUnavailable(PrologError):
    """SWI-Prolog or pyswip is not installed; the message says what to install."""


class PrologSyntaxError(PrologError):
    """A syntax error in a consulted file; the message names the file and line."""


class PrologTimeout(PrologError):
    """A Prolog query ran past its time limit; the bridge stays usable."""


class PrologBusy(PrologError):
    """A second Prolog query was started while one was still open."""


#: The longest term text a message shows; a longer one is cut with "...".
SHOWN_LENGTH = 200


def shown(value: object) -> str:
    """`value` as a message shows it: Prolog text, each variable by the name it was given
    (`var("x")` and the toplevel's `X` as `X`, an unnamed one as `_G0`, ...), a value that is
    no term by its Python repr; cut to `SHOWN_LENGTH` characters."""
    from .core.terms import format_term

    try:
        text = format_term(value)
    except LogicpyError:
        text = repr(value)
    except RecursionError:  # a value that is no term, nested past Python's limit
        text = object.__repr__(value)
    return text if len(text) <= SHOWN_LENGTH else text[:SHOWN_LENGTH - 3] + "..."

