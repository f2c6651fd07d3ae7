"""benchmarks/RESULTS.md: each section written by a script, between its markers, stamped.

A section is the text between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->``;
`replace_section` writes it whole and puts under its heading the stamp that
says what wrote it: the command, the commit (and whether the work tree had
changes), the machine and the date. Nothing else goes between the markers.
"""

from __future__ import annotations

import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"

#: The stamp's line starts so (`stamp`), which is how a stamp is found again.
STAMP = "*Written by "


def machine() -> str:
    """The processor, its cores and the Python that ran the script."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def commit() -> str:
    """The commit checked out (short), and whether tracked files had changes."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=HERE, capture_output=True, text=True).stdout.strip()

    sha = git("rev-parse", "--short=12", "HEAD") or "unknown"
    # (RESULTS.md itself changes as the scripts write it.)
    dirty = [x for x in git("status", "--porcelain", "--untracked-files=no").splitlines()
             if not x.endswith("benchmarks/RESULTS.md")]
    return sha + (" with uncommitted changes" if dirty else "")


def portable(arg: str) -> str:
    """A command's argument as the stamp writes it: a path outside this
    repository is a folder or a file of the machine it ran on, written
    DIR or FILE (the section's text says what it holds).

    >>> portable("--runs"), portable("/"), portable(str(RESULTS))
    ('--runs', 'DIR', 'benchmarks/RESULTS.md')
    """
    path = Path(arg)
    if not (path.is_absolute() or path.exists()) or arg.startswith("-"):
        return arg
    try:
        return str(path.resolve().relative_to(HERE.parent))
    except ValueError:
        return "DIR" if path.is_dir() else "FILE"


def stamp(argv: list[str] | None = None) -> str:
    """The stamp line of a section written now by the command `argv`
    (default: this process's)."""
    argv = sys.argv if argv is None else argv
    script = Path(argv[0])
    try:
        script = script.resolve().relative_to(HERE.parent)
    except ValueError:
        pass
    command = shlex.join(["python", str(script), *(portable(a) for a in argv[1:])])
    return f"{STAMP}`{command}` at commit {commit()} on {machine()}, {time.strftime('%Y-%m-%d')}.*"


def replace_section(path: Path, name: str, body: str) -> None:
    """Writes `body` between the `name` markers of `path` (appending it if
    absent), with the stamp (`stamp`) under its first heading."""
    lines = body.split("\n")
    at = next((k for k, x in enumerate(lines) if x.startswith("#")), None)
    if at is not None:
        lines[at + 1:at + 1] = ["", stamp()]
    body = "\n".join(lines)
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + body + tail
    else:
        text = text.rstrip("\n") + "\n\n" + body + "\n"
    path.write_text(text)
