"""The house stays one-way: imports drawn from the code, no circle, no arrow up.

Every import counts: at the top of a module, inside a function, under
``if TYPE_CHECKING:``; and no import may hide behind ``importlib``,
``__import__`` or ``sys.modules``. The floors of python/covering are the
ones docs/ARCHITECTURE.md draws; a module may import from its own floor or
below, never above, and never in a circle. The Rust crates are checked the
same way, module by module, and as a whole: the engine crate knows neither
PyO3 nor text, the reader crate neither PyO3 nor the engine.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "covering"

#: The floors of the package, from the bottom (see docs/ARCHITECTURE.md).
FLOORS: list[tuple[str, list[str]]] = [
    ("foundation", ["_core", "errors", "records", "limits", "sizes", "textio", "labels", "uniqueness", "render", "runs"]),
    ("data", ["model"]),
    ("readers", ["dlxfile", "matrix", "orlib"]),
    ("verbs", ["solver", "sat", "memo", "zdd", "restart", "progress", "parallel", "pieces", "checkpoint",
               "dask_support", "cluster", "counting", "solving", "mincost", "reduction", "reference"]),
    ("problem", ["problem"]),
    ("puzzles", ["puzzles"]),
    ("commands", ["cli", "__init__", "__main__"]),
]


def floor_of(module: str) -> int:
    """The floor of a module, by its name under covering (its package's)."""
    head = module.split(".")[0] if module else "__init__"
    for k, (_, names) in enumerate(FLOORS):
        if head in names:
            return k
    raise AssertionError(f"covering.{module} is on no floor: add it to FLOORS and to docs/ARCHITECTURE.md")


def module_name(path: Path) -> str:
    """'puzzles.akari' for python/covering/puzzles/akari.py; '' for the package."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> tuple[set[str], list[str]]:
    """The modules of covering that `path` imports (all of them: nested,
    conditional), and any import hidden from this reading."""
    name = module_name(path)
    parts = name.split(".") if name else []
    package = parts if path.name == "__init__.py" else parts[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    hidden: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "covering" or alias.name.startswith("covering."):
                    found.add(alias.name.removeprefix("covering").lstrip("."))
                if alias.name == "importlib":
                    hidden.append(f"line {node.lineno}: import importlib")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and (node.module == "covering" or node.module.startswith("covering.")):
                target = node.module.removeprefix("covering").lstrip(".")
            else:
                if node.module == "importlib":
                    hidden.append(f"line {node.lineno}: from importlib")
                continue
            for alias in node.names:
                # `from . import x` names a module when x is one.
                sub = f"{target}.{alias.name}" if target else alias.name
                found.add(sub if _is_module(sub) else target)
        elif isinstance(node, ast.Name) and node.id == "__import__":
            hidden.append(f"line {node.lineno}: __import__")
        elif isinstance(node, ast.Attribute) and node.attr == "modules" and isinstance(node.value, ast.Name) \
                and node.value.id == "sys":
            hidden.append(f"line {node.lineno}: sys.modules")
    found.discard(name)
    return found, hidden


def _is_module(name: str) -> bool:
    path = PACKAGE.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists() or name == "_core"


def python_graph() -> dict[str, set[str]]:
    graph = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        graph[module_name(path)] = imports(path)[0]
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_package_has_no_import_circle() -> None:
    assert cycles(python_graph()) == []


def test_no_import_runs_up_a_floor() -> None:
    up = []
    for module, targets in python_graph().items():
        for target in targets:
            if floor_of(target) > floor_of(module):
                up.append(f"covering.{module} ({FLOORS[floor_of(module)][0]}) imports covering.{target} "
                          f"({FLOORS[floor_of(target)][0]})")
    assert up == []


def test_no_import_is_hidden() -> None:
    hidden = {module_name(p): imports(p)[1] for p in PACKAGE.rglob("*.py")}
    assert {m: h for m, h in hidden.items() if h} == {}


def test_the_model_imports_only_the_foundation() -> None:
    assert python_graph()["model"] <= {"_core", "errors", "labels", "render.html"}


def test_the_reading_of_imports_sees_every_kind() -> None:
    # The checker itself: a nested import, one under TYPE_CHECKING, a
    # relative one from a subpackage, and a hidden one are all seen.
    found, hidden = imports(PACKAGE / "puzzles" / "base.py")
    assert "problem" in found or "uniqueness" in found
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    tree_text = "import importlib\nx = __import__('covering.problem')\n"
    tmp = PACKAGE / "_layers_probe.py"
    try:
        tmp.write_text(tree_text)
        assert len(imports(tmp)[1]) == 2
    finally:
        tmp.unlink()


def rust_graph(src: Path, tests: bool = True) -> dict[str, set[str]]:
    """Modules of one crate (file stems, `puzzles::sudoku` as `puzzles/sudoku`)
    and the modules of the same crate each one names with `crate::`; without
    `tests`, what the tests alone name is left out (test files, and a
    file's `#[cfg(test)] mod tests { ... }` at its end)."""
    graph: dict[str, set[str]] = {}
    files = sorted(src.rglob("*.rs"))
    names = {str(f.relative_to(src).with_suffix("")).removesuffix("/mod") for f in files}
    for f in files:
        me = str(f.relative_to(src).with_suffix("")).removesuffix("/mod")
        text = re.sub(r"//[^\n]*", "", f.read_text(encoding="utf-8"))
        if not tests:
            if f.stem == "tests" or f.stem.endswith("_tests"):
                continue
            text = text.split("#[cfg(test)]\nmod tests {", 1)[0]
        targets = set()
        for path in re.findall(r"crate::((?:\w+::)*\w+)", text):
            parts = path.split("::")
            for k in range(len(parts), 0, -1):
                candidate = "/".join(parts[:k])
                if candidate in names:
                    targets.add(candidate)
                    break
        for group in re.findall(r"use crate::\{([^}]*)\}", text):
            for part in re.split(r"[,\s]+", group):
                first = part.split("::")[0]
                if first in names:
                    targets.add(first)
        targets.discard(me)
        targets.discard("lib")
        graph[me] = targets
    return graph


@pytest.mark.parametrize("crate", ["crates/xc/src", "crates/lp/src", "crates/sat/src", "crates/dlx/src",
                                   "crates/puzzles/src", "src"])
def test_no_rust_module_circle(crate: str) -> None:
    assert cycles(rust_graph(ROOT / crate)) == []


def test_the_engine_holds_no_puzzle() -> None:
    # The puzzles live in crates/puzzles; the engine crate neither holds nor re-exports one.
    src = ROOT / "crates/xc/src"
    assert not (src / "puzzles").exists()
    words = re.compile(r"\b(akari|queens|sudoku|bands)\b", re.I)
    lib = re.sub(r"//[^\n]*", "", (src / "lib.rs").read_text(encoding="utf-8"))
    assert not words.search(lib)
    assert not [f.name for f in src.rglob("*.rs") if words.search(f.stem)]


#: The engine's families, each with the families it may name (its own
#: and those below it; see docs/ARCHITECTURE.md). Counting and cost stand
#: side by side on search: neither names the other.
FAMILIES: dict[str, set[str]] = {
    "core": {"core"},
    "search": {"core", "search"},
    "counting": {"core", "search", "counting"},
    "cost": {"core", "search", "cost"},
}


def family_breaches(graph: dict[str, set[str]]) -> list[str]:
    """Each import of the engine that names a family it may not."""
    out = []
    for module, targets in sorted(graph.items()):
        family = module.split("/")[0]
        if family == "lib":
            continue
        assert family in FAMILIES, f"crates/xc/src/{module} is in no family: add it to FAMILIES"
        for target in sorted(targets):
            if target.split("/")[0] not in FAMILIES[family]:
                out.append(f"{module} ({family}) names {target}")
    return out


def test_the_engine_is_in_families_that_look_only_down() -> None:
    src = ROOT / "crates/xc/src"
    assert sorted(p.name for p in src.iterdir()) == ["core", "cost", "counting", "lib.rs", "search"]
    assert family_breaches(rust_graph(src, tests=False)) == []


def test_a_wrong_way_import_of_the_engine_is_seen() -> None:
    # The checker itself: a search file naming counting, a counting file
    # naming cost, a core file naming search; a test that does is allowed.
    assert family_breaches({"search/front": {"counting/memo"}, "counting/plan": {"cost/lp_tree"},
                            "core/reduce": {"search/front"}, "cost/race": {"core/bits"}}) == [
        "core/reduce (core) names search/front", "counting/plan (counting) names cost/lp_tree",
        "search/front (search) names counting/memo"]
    assert "search/front" in rust_graph(ROOT / "crates/xc/src")["core/reduce"]
    assert "search/front" not in rust_graph(ROOT / "crates/xc/src", tests=False)["core/reduce"]


def test_no_source_file_is_over_a_thousand_lines() -> None:
    long = []
    for folder in ("crates", "src", "python/covering"):
        for f in (ROOT / folder).rglob("*"):
            if f.suffix in (".rs", ".py", ".pyi") and "target" not in f.parts:
                n = len(f.read_text(encoding="utf-8").splitlines())
                if n > 1000:
                    long.append(f"{f.relative_to(ROOT)}: {n} lines")
    assert long == []


def dependencies(cargo_toml: Path) -> set[str]:
    text = cargo_toml.read_text(encoding="utf-8")
    deps = text.split("[dependencies]", 1)[1].split("\n[", 1)[0] if "[dependencies]" in text else ""
    return {line.split("=")[0].strip() for line in deps.splitlines() if "=" in line}


def test_the_crates_look_only_down() -> None:
    # The engine: no PyO3, no text reader; the reader: no PyO3, no engine;
    # the binding converts between them and Python.
    # The LP knows nothing of exact cover, the engine builds without C++
    # (CaDiCaL is the SAT crate's alone).
    assert dependencies(ROOT / "crates/xc/Cargo.toml") == {"lp"}
    assert dependencies(ROOT / "crates/lp/Cargo.toml") == set()
    assert dependencies(ROOT / "crates/sat/Cargo.toml") == {"xc", "cadical-sys"}
    assert not dependencies(ROOT / "crates/dlx/Cargo.toml") & {"pyo3", "xc", "covering-xc"}
    assert dependencies(ROOT / "crates/puzzles/Cargo.toml") == {"xc"}
    assert {"pyo3", "xc", "dlx", "puzzles", "sat"} <= dependencies(ROOT / "Cargo.toml")
    for crate in ("crates/xc/src", "crates/lp/src", "crates/sat/src", "crates/dlx/src", "crates/puzzles/src"):
        for f in (ROOT / crate).rglob("*.rs"):
            assert "pyo3" not in f.read_text(encoding="utf-8"), f
