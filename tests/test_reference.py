"""The engine against the references, on thousands of small random problems
mixing secondary items, colors and multiplicities."""

from __future__ import annotations

from long import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from covering import Problem
from covering.reference import algorithm_x, definition, dlx

COLORS = [None, None, "r", "g"]


@st.composite
def problems(draw: st.DrawFn, colors: bool = True, multiplicities: bool = True, max_options: int = 9) -> Problem:
    n1 = draw(st.integers(1, 4))
    n2 = draw(st.integers(0, 3))
    primary = [f"p{i}" for i in range(n1)]
    secondary = [f"s{i}" for i in range(n2)]
    p = Problem()
    for name in primary:
        if multiplicities and draw(st.booleans()):
            lo = draw(st.integers(0, 2))
            hi = draw(st.integers(max(lo, 1), lo + 2))
            p.add_primary([name], bounds=(lo, hi))
        else:
            p.add_primary([name])
    p.add_secondary(secondary)
    for _ in range(draw(st.integers(1, max_options))):
        items = draw(st.lists(st.sampled_from(primary), min_size=1, unique=True))
        for s in draw(st.lists(st.sampled_from(secondary), unique=True)) if secondary else []:
            color = draw(st.sampled_from(COLORS)) if colors else None
            items.append(s if color is None else f"{s}:{color}")
        p.add_option(draw(st.permutations(items)))
    return p


def engine_solutions(p: Problem, **kwargs: object) -> list[tuple[int, ...]]:
    return sorted(p.solutions(ids=True, **kwargs))  # type: ignore[arg-type]


@settings(max_examples=examples(2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_engine_matches_both_references_and_the_definition(p: Problem) -> None:
    expected = definition.brute_force(p)
    assert sorted(algorithm_x.solutions(p)) == expected
    assert sorted(dlx.solutions(p)) == expected
    for engine in ("cells", "bits"):
        got = engine_solutions(p, engine=engine)
        assert got == expected, engine
        assert all(definition.is_solution(p, s) for s in got)
        assert p.count(engine=engine) == len(expected)


@settings(max_examples=examples(500), deadline=None)
@given(problems(max_options=12), st.integers(0, 2**32))
def test_random_order_finds_the_same_solutions(p: Problem, seed: int) -> None:
    expected = sorted(algorithm_x.solutions(p))
    for engine in ("cells", "bits"):
        assert engine_solutions(p, order="random", seed=seed, engine=engine) == expected


@settings(max_examples=examples(500), deadline=None)
@given(problems(multiplicities=False, max_options=14))
def test_exact_cover_with_colors_against_dlx(p: Problem) -> None:
    assert engine_solutions(p) == sorted(dlx.solutions(p)) == sorted(algorithm_x.solutions(p))


@settings(max_examples=examples(300), deadline=None)
@given(problems())
def test_uniqueness_agrees_with_the_count(p: Problem) -> None:
    n = len(definition.brute_force(p))
    assert p.uniqueness().value == ("none" if n == 0 else "unique" if n == 1 else "multiple")
