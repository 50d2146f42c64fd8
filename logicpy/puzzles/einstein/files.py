"""Games as files: read and write by extension (.json: einstein-solver's format, .txt: the text notation)."""

from __future__ import annotations

from pathlib import Path

from ...errors import InputError
from .model import Game

__all__ = ["FORMATS", "load_game", "save_game"]

FORMATS = {".json": "JSON (einstein-solver's format)", ".txt": "text notation"}


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
    return load_json(path) if _suffix(path) == ".json" else load_text(path)


def save_game(game: Game, path: str | Path) -> None:
    """Write a game in the format its extension names."""
    from .jsonfmt import dump_json
    from .notation import dump_text

    text = dump_json(game) if _suffix(path) == ".json" else dump_text(game)
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None
