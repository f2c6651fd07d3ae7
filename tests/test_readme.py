"""The README's examples run, and say what they print."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

README = (Path(__file__).parent.parent / "README.md").read_text()


def test_quick_start_runs_and_prints_what_its_comments_say() -> None:
    code = re.search(r"```python\n(.*?)```", README, re.S)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code.group(1), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "[('A', 'B'), ('C', 'x:red')]"
    assert lines[-1] == "3 Uniqueness.MULTIPLE"


def test_shell_example() -> None:
    block = re.search(r"\$ printf '(.*?)' \| covering dlx\n(.*?)```", README, re.S)
    assert block is not None
    text = block.group(1).encode().decode("unicode_escape")
    run = subprocess.run([sys.executable, "-m", "covering", "dlx"], input=text, capture_output=True, text=True)
    assert run.returncode == 0
    assert run.stdout == block.group(2)


def test_version_agrees_with_pyproject() -> None:
    import covering

    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text()
    assert f'version = "{covering.__version__}"' in pyproject
