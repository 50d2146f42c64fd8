"""The one verification contract of every puzzle: `verify(...)` returns a `Verification`.

A verifier shares no code with the solver it checks: it replays an answer against the
puzzle's definition (a tree in every world, a tiling cell by cell, a story statement by
statement) and lists every problem it finds. `ok` is true iff there are none; `checked`
says in a few words what was replayed, for the line printed under every answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Verification"]


@dataclass(frozen=True)
class Verification:
    """The outcome of an independent check: ok iff no problem; what was checked; every problem found."""

    ok: bool
    checked: str = ""
    problems: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.ok == bool(self.problems):
            raise ValueError("a Verification is ok exactly when it lists no problem")

    @classmethod
    def of(cls, problems: "list[str] | tuple[str, ...]", checked: str = "") -> "Verification":
        """The verification whose problems are `problems` (ok iff there are none)."""
        return cls(not problems, checked, tuple(problems))

    def __bool__(self) -> bool:
        return self.ok

    def to_json(self) -> dict:
        """{"ok", "checked", "problems"}: the verification as JSON data."""
        return {"ok": self.ok, "checked": self.checked, "problems": list(self.problems)}

    def __str__(self) -> str:
        if self.ok:
            return f"verified: {self.checked}" if self.checked else "verified"
        shown = "\n  ".join(self.problems[:20])
        more = f"\n  … and {len(self.problems) - 20} more" if len(self.problems) > 20 else ""
        return f"NOT verified:\n  {shown}{more}"
