"""Stamps the sections of benchmarks/RESULTS.md written before scripts stamped them.

    python benchmarks/stamps.py [--check]

A section a script writes now carries its stamp (`results.stamp`): the
command, the commit, the machine and the date. One written before has none;
this gives it the one its history holds: the newest commit among its lines
(``git blame``) and that commit's date, the command its text names (its
first ``python benchmarks/...`` span), and says the machine was not
recorded. A section that already has a stamp is left as it is. With
``--check``, nothing is written: the sections without a stamp, or whose
writer script is gone, are listed and the exit status is 1.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

from results import HERE, RESULTS, STAMP

BEGIN = re.compile(r"<!-- ([a-z-]+):begin -->")


def blame(path_lines: range) -> tuple[str, str]:
    """(short sha, date) of the newest commit among lines `path_lines`
    (1-based) of RESULTS.md as it is in the work tree."""
    out = subprocess.run(["git", "blame", "--porcelain", "-L", f"{path_lines.start},{path_lines.stop - 1}",
                          "--", str(RESULTS)], cwd=HERE, capture_output=True, text=True).stdout
    newest = (0, "")
    sha = ""
    for line in out.splitlines():
        if re.match(r"^[0-9a-f]{40} ", line):
            sha = line.split()[0]
        elif line.startswith("committer-time "):
            t = int(line.split()[1])
            if t > newest[0] and set(sha) != {"0"}:  # (lines not committed yet: no commit to name)
                newest = (t, sha)
    date = subprocess.run(["git", "show", "-s", "--format=%cs", newest[1]], cwd=HERE, capture_output=True,
                          text=True).stdout.strip()
    return newest[1][:12], date


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    lines = RESULTS.read_text().split("\n")
    problems = []
    k = 0
    while k < len(lines):
        m = BEGIN.match(lines[k])
        if not m:
            k += 1
            continue
        name = m.group(1)
        end = next(j for j in range(k, len(lines)) if lines[j].startswith(f"<!-- {name}:end -->"))
        body = lines[k:end + 1]
        command = next((c for x in body for c in re.findall(r"`(python benchmarks/[^`]*)`", x)), None)
        script = command.split()[1] if command else None
        if script is None or not (HERE.parent / script).exists():
            problems.append(f"{name}: no script of benchmarks/ writes it")
        if not any(x.startswith(STAMP) for x in body):
            problems.append(f"{name}: no stamp")
            if not args.check:
                sha, date = blame(range(k + 1, end + 2))
                at = next(j for j in range(k, end) if lines[j].startswith("#"))
                lines[at + 1:at + 1] = ["", f"{STAMP}`{command or 'its script'}` at commit {sha}, {date}; "
                                            "the machine was not recorded.*"]
                end += 2
        k = end + 1
    if args.check:
        print("\n".join(problems) or "every section is stamped and has its script")
        sys.exit(1 if problems else 0)
    RESULTS.write_text("\n".join(lines))


if __name__ == "__main__":
    main()
