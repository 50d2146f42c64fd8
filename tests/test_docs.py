"""The examples of README.md and every docs/*.md page are run.

Code blocks are found with a CommonMark parser (markdown-it-py), as GitHub and the site
render them. Every python block of a page runs, in order, in one namespace per page;
blocks with `>>>` prompts run as doctests, so their printed output is checked too. A block
whose first line is `# needs SWI-Prolog` is skipped where SWI-Prolog cannot be used (and
fails under LOGICPY_REQUIRE_SWI=1, like every other Prolog test).

Shell blocks (`sh`, `text`, `console`) that show `$ logicpy ...` commands run them: the
exit status must be the one the line states (`# exit N`; 0 when it states none) and every
output line shown must be among the lines the command prints (`…` stands for anything). Commands that take more than a couple of seconds run only with the slow tests.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import markdown_it
import pytest

from conftest import REQUIRE_SWI, swi_missing_reason


ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NEEDS_SWI = "# needs SWI-Prolog"
SHELL = {"sh", "text", "console"}
EXIT = re.compile(r"#.*\bexit (\d+)")

# Shown commands that take more than ~2 s (a census, every date, every design): slow tests.
SLOW = (
    "gods census",
    "gods crosscheck",
    "--sharded",
    "calendar --all",
    "--distinct",
    "--timeout 10",
    "--count --symmetry prob",
    "cheryl distribution",
    "einstein generate",
    "--semantics explode --questions 2",
)
# Shown commands that cannot run unattended: an interactive session.
INTERACTIVE = ("logicpy repl",)


@dataclass
class Fence:
    page: Path
    line: int  # 1-based line of the opening fence
    info: str
    content: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def fences(page: Path) -> list[Fence]:
    text = page.read_text(encoding="utf-8")
    tokens = markdown_it.MarkdownIt("commonmark").parse(text)
    return [
        Fence(page, token.map[0] + 1, token.info.strip().split(" ")[0] if token.info else "", token.content)
        for token in tokens
        if token.type == "fence" and token.map is not None
    ]


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_fences_are_closed(page: Path):
    """A fence that swallows the page (an odd closing line) shows as one code block."""
    lines = page.read_text(encoding="utf-8").split("\n")
    tokens = markdown_it.MarkdownIt("commonmark").parse("\n".join(lines))
    for token in tokens:
        if token.type != "fence" or token.map is None:
            continue
        start, end = token.map
        closing = lines[end - 1].strip() if end - 1 < len(lines) else ""
        assert end - 1 > start and re.fullmatch(r"(`{3,}|~{3,})", closing), (
            f"{page_id(page)}:{start + 1}: the code block opened here is not closed by a bare fence line"
        )
        inner = [line for line in token.content.split("\n") if line.lstrip().startswith("```")]
        assert not inner, f"{page_id(page)}:{start + 1}: a fence line inside a code block: {inner[0]!r}"


def test_every_page_is_in_the_site():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [p.name for p in PAGES[1:] if f": {p.name}" not in config]
    assert not missing, f"pages missing from mkdocs.yml's nav: {missing}"


@pytest.mark.parametrize("page", [p for p in PAGES if any(f.info == "python" for f in fences(p))], ids=page_id)
def test_python_blocks_run(page: Path, monkeypatch):
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": page.stem}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    swi_reason = swi_missing_reason()
    skipped = []
    for block in (f for f in fences(page) if f.info == "python"):
        if block.content.startswith(NEEDS_SWI) and swi_reason:
            if REQUIRE_SWI:
                pytest.fail(f"{block.where} needs SWI-Prolog: {swi_reason}")
            skipped.append(block.where)
            continue
        if ">>>" in block.content:
            test = parser.get_doctest(block.content, namespace, block.where, str(page), block.line)
            result = runner.run(test, clear_globs=False)
            if result.failed:
                pytest.fail(f"the python block at {block.where} printed something else (see the output above)")
        else:
            exec(compile(block.content, block.where, "exec"), namespace)
    if skipped:
        pytest.skip(f"blocks {skipped} need SWI-Prolog: {swi_reason} (all other blocks ran)")


@dataclass
class Command:
    where: str
    line: str
    shown: list[str]

    @property
    def status(self) -> int:
        found = EXIT.search(self.line)
        return int(found.group(1)) if found else 0


def commands() -> list[Command]:
    found = []
    for page in PAGES:
        for block in fences(page):
            if block.info not in SHELL:
                continue
            current: Command | None = None
            for number, line in enumerate(block.content.split("\n"), block.line + 1):
                if line.startswith("$ "):
                    current = None
                    command = line[2:]
                    if re.match(r"(printf .*\| )?logicpy ", command) and not any(
                        command.split("#")[0].strip() == name for name in INTERACTIVE
                    ):
                        current = Command(f"{page_id(page)}:{number}", command, [])
                        found.append(current)
                elif current is not None and line.strip():
                    current.shown.append(line.rstrip())
    return found


def _param(command: Command):
    marks = [pytest.mark.slow] if any(word in command.line for word in SLOW) else []
    if "crosscheck" in command.line or "swi" in command.line:
        marks.append(pytest.mark.swi)
    return pytest.param(command, id=command.where, marks=marks)


def _matches(shown: str, printed: str) -> bool:
    if "…" not in shown:
        return shown == printed
    pattern = ".*".join(re.escape(part.rstrip()) for part in shown.split("…"))
    return re.fullmatch(pattern, printed) is not None


def test_shell_blocks_have_commands():
    assert len(commands()) > 20, "the pages should show logicpy commands with their output"


@pytest.mark.parametrize("command", [_param(c) for c in commands()])
def test_shown_commands(command: Command, tmp_path):
    if "crosscheck" in command.line or "swi" in command.line:
        reason = swi_missing_reason()
        if reason:
            if REQUIRE_SWI:
                pytest.fail(f"{command.where} needs SWI-Prolog: {reason}")
            pytest.skip(f"needs SWI-Prolog: {reason}")
    for name in ("examples", "prolog", "tests", "bench"):
        (tmp_path / name).symlink_to(ROOT / name)
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", PYTHONPATH=str(ROOT),
               COLUMNS="200", NO_COLOR="1")
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command.line], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    printed = [line.rstrip() for line in (done.stdout + done.stderr).split("\n")]
    assert "Traceback" not in done.stderr, f"{command.where}: {command.line}\n{done.stderr}"
    assert done.returncode == command.status, (
        f"{command.where}: {command.line}\nexit status {done.returncode}, the page says {command.status}\n"
        f"{done.stdout}{done.stderr}"
    )
    for shown in command.shown:
        if shown.strip() in ("…", "...") or shown.lstrip().startswith("#"):
            continue
        assert any(_matches(shown, line) for line in printed), (
            f"{command.where}: {command.line}\nthe page shows {shown!r}, not printed:\n{done.stdout}{done.stderr}"
        )


def links(page: Path) -> list[str]:
    found = []
    stack = list(markdown_it.MarkdownIt("commonmark").parse(page.read_text(encoding="utf-8")))
    while stack:
        token = stack.pop()
        stack.extend(token.children or [])
        if token.type == "link_open":
            found.append(str(token.attrs.get("href", "")))
        elif token.type == "image":
            found.append(str(token.attrs.get("src", "")))
    return found


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_relative_links_resolve(page: Path):
    """Links to files of the repository point at files that exist (anchors: the site build checks them)."""
    broken = []
    for href in links(page):
        if re.match(r"[a-z]+:", href) or href.startswith("#"):
            continue
        target = (page.parent / href.split("#")[0]).resolve()
        if not target.exists():
            broken.append(href)
    assert not broken, f"{page_id(page)} links to missing files: {broken}"


def test_site_builds_strict(tmp_path):
    """The documentation site builds with no broken link or anchor (`make docs`)."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    warnings = [line for line in done.stderr.split("\n") if line.startswith(("WARNING", "ERROR"))]
    assert done.returncode == 0, "mkdocs build --strict failed:\n" + "\n".join(warnings or [done.stderr[-2000:]])
    assert (tmp_path / "site" / "index.html").exists()
