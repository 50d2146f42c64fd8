"""`logicpy repl` in a real terminal (tmux): ';' and Enter after answers, Ctrl-C back to the
prompt, history with the up arrow, halt. Skipped, with the reason, where tmux is missing."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (Debian: apt-get install tmux)")

ROOT = Path(__file__).resolve().parent.parent


class Terminal:
    """A tmux session running one command; keys in, the screen's text out."""

    history: Path

    def __init__(self, command: str, env: dict[str, str]):
        self.name = f"logicpy-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", "160", "-y", "40",
                        f"cd {ROOT} && env {exports} {command}"], check=True)

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def screen(self) -> str:
        done = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def wait_for(self, text: str, count: int = 1, seconds: float = 20) -> str:
        """The screen once `text` shows on it `count` times (fails after `seconds`)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen()
            if screen.count(text) >= count:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} did not show {count} time(s); the screen:\n{self.screen()}")

    def alive(self) -> bool:
        return subprocess.run(["tmux", "has-session", "-t", self.name], capture_output=True).returncode == 0

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def terminal(tmp_path):
    python = Path(sys.executable)
    t = Terminal(f"{python} -m logicpy repl", {"LOGICPY_HISTORY": str(tmp_path / "history"), "TERM": "xterm",
                                                "PYTHONPATH": str(ROOT)})
    t.history = tmp_path / "history"
    yield t
    t.close()


def test_a_session_in_a_real_terminal(terminal):
    t = terminal
    t.wait_for("?-")
    t.keys("appendo(X, Y, [1,2]).", "Enter")
    screen = t.wait_for("X = [], Y = [1, 2]")
    assert "X = [1], Y = [2]" not in screen  # it waits for a key
    t.keys("\\;")  # tmux reads a bare ";" as its own command separator
    t.wait_for("X = [1], Y = [2]")
    t.keys("Enter")
    t.wait_for("?-", count=2)  # stopped: back at the prompt
    assert "X = [1], Y = [2] ." in t.screen() and "X = [1, 2], Y = []" not in t.screen()
    # an endless search without answers, interrupted
    t.keys("lengtho(L, N), N = -1.", "Enter")
    time.sleep(0.5)
    t.keys("C-c")
    t.wait_for("% interrupted")
    t.wait_for("?-", count=3)
    t.keys("lengtho(L, N), lengtho(L, M), M = -5.", "Enter")  # endless, no answers
    time.sleep(0.3)
    t.keys("C-c")
    screen = t.wait_for("% interrupted", count=2)
    assert "Exception ignored" not in screen and "Traceback" not in screen
    t.wait_for("?-", count=4)
    # the last answer, known to be the last: no key asked for
    t.keys("membero(X, [a]).", "Enter")
    t.wait_for("X = a.")
    t.wait_for("?-", count=5)
    # the search for a next answer runs on: after a moment the answer waits for a key
    t.keys("X = a ; lengtho(L, N), N = -1.", "Enter")
    t.wait_for("X = a ")
    t.keys("\\;")
    t.wait_for("X = a ;")
    time.sleep(0.3)
    t.keys("C-c")
    t.wait_for("% interrupted", count=3)
    # history: the up arrow brings the last query back
    t.keys("Up")
    t.wait_for("?- X = a ; lengtho(L, N), N = -1.", count=2)
    t.keys("C-u", "halt.", "Enter")
    deadline = time.monotonic() + 10
    while t.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not t.alive()
    assert "membero(X, [a])." in t.history.read_text() and "X = a ; lengtho" in t.history.read_text()  # kept for the next session
