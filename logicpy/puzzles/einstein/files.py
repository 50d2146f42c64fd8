"""Games as files: read and write by extension (.json: einstein-solver's format, .txt: the text notation)."""

from __future__ import annotations

from pathlib import Path

from ...errors import InputError
from .model import Game

__all__ = ["FORMATS", "MAX_BYTES", "load_game", "save_game"]

FORMATS = {".json": "JSON (einstein-solver's format)", ".txt": "text notation"}
#: The largest game file read (far above any game small enough to solve: see `compile.MAX_CELLS`).
MAX_BYTES = 16 * 2**20


def _suffix(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"{path}: unknown game format {suffix!r}; use one of {', '.join(FORMATS)}")
    return suffix


def load_game(path: str | Path) -> Game:
    """Read a game by its extension (.json or .txt); a bare name is a shipped game (`zebra`)."""
    from ...data import einstein_game
    from .jsonfmt import load_json
    from .notation import load_text

    path = einstein_game(path)
    suffix = _suffix(path)
    try:
        size = Path(path).stat().st_size
    except OSError:
        size = 0  # the reader names the problem
    if size > MAX_BYTES:
        raise InputError(f"{path}: {size:,} bytes; the largest game file read is {MAX_BYTES:,} bytes")
    return load_json(path) if suffix == ".json" else load_text(path)


def save_game(game: Game, path: str | Path) -> None:
    """Write a game in the format its extension names."""
    from .jsonfmt import dump_json
    from .notation import dump_text

    text = dump_json(game) if _suffix(path) == ".json" else dump_text(game)
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None
