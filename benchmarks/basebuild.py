"""An older commit of this repository built into an environment of its own, cached by commit.

    python benchmarks/basebuild.py REV      # prints the environment's python

The commit's tree is exported with ``git archive`` (never a checkout of
this work tree) into ``$COVERING_BENCH_CACHE`` (default
``~/.cache/covering-bench``) as ``<sha>/src``, and installed, not editable,
into the virtual environment ``<sha>/venv`` with cargo's output in
``<sha>/target``. A finished build leaves ``<sha>/ok``; a build that failed
or was cut short is started again from scratch the next time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cache_dir() -> Path:
    return Path(os.environ.get("COVERING_BENCH_CACHE", Path.home() / ".cache" / "covering-bench"))


def resolve(rev: str) -> str:
    """The full sha of `rev` in this repository."""
    done = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"compare: {rev!r} is no commit of this repository")
    return done.stdout.strip()


def build(rev: str, quiet: bool = False) -> Path:
    """The python of an environment with covering built at `rev` (built once, then cached)."""
    sha = resolve(rev)
    home = cache_dir() / sha
    python = home / "venv" / "bin" / "python"
    if (home / "ok").exists() and python.exists():
        return python
    if home.exists():
        shutil.rmtree(home)
    (home / "src").mkdir(parents=True)
    with tempfile.TemporaryFile() as tar:
        subprocess.run(["git", "archive", "--format=tar", sha], cwd=ROOT, stdout=tar, check=True)
        tar.seek(0)
        with tarfile.open(fileobj=tar) as t:
            t.extractall(home / "src", filter="data")
    subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True)
    log = home / "build.log"
    env = dict(os.environ, CARGO_TARGET_DIR=str(home / "target"))
    if not quiet:
        print(f"compare: building {sha[:12]} into {home} (the log: {log})", file=sys.stderr, flush=True)
    with open(log, "wb") as out:
        done = subprocess.run([str(python), "-m", "pip", "install", "-v", str(home / "src")],
                              stdout=out, stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-30:]
        raise SystemExit("compare: the build of {} failed:\n{}".format(sha[:12], "\n".join(tail)))
    (home / "ok").touch()
    return python


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rev")
    print(build(ap.parse_args().rev))


if __name__ == "__main__":
    main()
