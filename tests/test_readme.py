"""The examples of the README and of docs/ run, and say what they print."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: The README and the docs a user reads (the notebook of benchmark notes aside).
PAGES = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
         for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]}


def test_quick_start_runs_and_prints_what_its_comments_say() -> None:
    code = re.search(r"```python\n(.*?)```", README, re.S)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code.group(1), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "[('A', 'B'), ('C', 'x:red')]"
    assert lines[-1] == "3 Uniqueness.MULTIPLE"


def test_the_readme_is_short_and_in_order() -> None:
    lines = README.splitlines()
    assert len(lines) <= 300
    heads = [line for line in lines if line.startswith("## ")]
    assert heads == ["## Install", "## A tour of the command line", "## A tour of the API", "## The puzzles",
                     "## Puzzles of your own", "## Verbs and exit statuses", "## Read more"]
    for link in re.findall(r"\]\(([^)#]+)\)", README):
        assert (ROOT / link).exists(), link


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_python_block_runs_and_prints_what_its_comments_say(page: str) -> None:
    blocks = re.findall(r"```python\n(.*?)```", PAGES[page], re.S)
    for code in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(code, {})
        said = [m.group(1) for line in code.splitlines() if line.startswith("print(")
                for m in [re.search(r"#\s*(.+)$", line)] if m]
        printed = out.getvalue().splitlines()
        # Each print whose line says what it prints prints exactly that.
        for line in said:
            assert line in printed, (line, printed)


def test_shell_example() -> None:
    block = re.search(r"\$ printf '(.*?)' \| covering dlx solve\n(.*?)```", README, re.S)
    assert block is not None
    text = block.group(1).encode().decode("unicode_escape")
    run = subprocess.run([sys.executable, "-m", "covering", "dlx", "solve"], input=text, capture_output=True,
                         text=True)
    assert run.returncode == 0
    assert run.stdout == block.group(2)


def test_version_agrees_with_pyproject() -> None:
    import covering

    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text()
    assert f'version = "{covering.__version__}"' in pyproject


# The README's command lines, run in a folder that holds the files they name.
# Skipped, with the reason: what needs a machine we do not have in a test.
NEEDS_A_CLUSTER = ("tcp://HOST", "dask ")
SLOW = {"covering queens count 16": "12-24 s of counting; `queens count` is tested on smaller n"}


def _commands(text: str) -> list[tuple[str, str]]:
    """(command, what its comment or sentence says it prints) of each
    command of a page: the indented lines, and the commands in backticks
    (some run over two lines of the text)."""
    found: list[tuple[str, str]] = []
    for line in text.splitlines():
        m = re.match(r"\s{4,}(covering .*?)\s*(?:#\s*(.*))?$", line)
        if m:
            found.append((m.group(1), m.group(2) or ""))
    for m in re.finditer(r"`(covering\s[^`]+)`(?:\s+(?:prints|says)\s+(\"[^\"]+\"|[\d,]+))?", text):
        command = " ".join(m.group(1).split())
        words = command.split()
        reads_stdin = words[1] == "dlx" and not any(w.endswith(".dlx") for w in words)  # prose: "`covering dlx count` on a board"
        # A form with placeholders (N, FILE, [INPUT]) is grammar, not a command to run.
        placeholder = any(re.fullmatch(r"[A-Z]+|\[.*", w) for w in words)
        if len(words) > 2 and "..." not in command and not reads_stdin and not placeholder:
            found.append((command, m.group(2) or ""))
    return found


def _clone_root(folder: Path) -> None:
    """`folder` as a fresh clone's root, for what the commands read: the
    examples the README and the docs name, shipped in examples/ (copied, so
    that what a command writes, a checkpoint or a picture, stays out of the
    work tree)."""
    import shutil

    shutil.copytree(ROOT / "examples", folder / "examples", dirs_exist_ok=True)


def test_every_file_the_pages_name_is_an_example_that_ships() -> None:
    named = {m for text in PAGES.values() for command, _ in _commands(text)
             for m in re.findall(r"examples/[\w.-]+", command)}
    assert named and all((ROOT / m).is_file() for m in named), named
    # Every example is used by some page.
    assert {f"examples/{p.name}" for p in (ROOT / "examples").iterdir()} <= named | {
        m for text in PAGES.values() for m in re.findall(r"examples/[\w.-]+", text)}


def test_every_command_of_the_readme_and_docs_runs_and_prints_what_it_says(tmp_path: Path) -> None:
    import shlex

    commands = [c for text in PAGES.values() for c in _commands(text)]
    assert len(commands) >= 20  # the parse above still finds them
    ran = 0
    for command, says in commands:
        if any(mark in command for mark in NEEDS_A_CLUSTER) or command in SLOW:
            continue
        _clone_root(tmp_path)
        if " | " in command:
            # A pipeline of commands: each stage run by this Python.
            stages = [shlex.join([sys.executable, "-m", "covering", *shlex.split(stage)[1:]])
                      for stage in command.split(" | ")]
            r = subprocess.run(" | ".join(stages), shell=True, capture_output=True, text=True, cwd=tmp_path,
                               timeout=120)
        else:
            argv = shlex.split(command)[1:]
            r = subprocess.run([sys.executable, "-m", "covering", *argv], capture_output=True, text=True,
                               cwd=tmp_path, timeout=120)
        assert r.returncode == 0, (command, r.stderr)
        assert "Traceback" not in r.stderr
        # Each number the comment states is in the output (2,339 or 2339).
        claims = re.sub(r"\(.*?\)|seed \d+", "", says)  # "(seed 000)" names a source, not a result
        for number in re.findall(r"\d[\d,]{2,}", claims):
            assert number.replace(",", "") in r.stdout.replace(",", ""), (command, says, r.stdout[-300:])
        # Each phrase it quotes is printed ("multiple", "no tiling").
        for phrase in re.findall(r'"([^"]+)"', says):
            assert phrase in r.stdout + r.stderr, (command, says)
        ran += 1
    assert ran >= 18
