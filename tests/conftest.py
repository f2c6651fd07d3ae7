"""Shared test setup: test modules import from each other (the strategies
of test_reference, the waits of `running`, the example counts of `long`),
and tests marked ``long`` run only under ``make test-long``
(``COVERING_LONG=1``)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from long import LONG  # noqa: E402  (after the path above)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if LONG:
        return
    skip = pytest.mark.skip(reason="a long run: make test-long (COVERING_LONG=1)")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)
