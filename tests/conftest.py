"""Shared test setup: test modules import from each other (the strategies
of test_reference, the waits of `running`, the example counts of `long`),
tests marked ``long`` run only under ``make test-long``
(``COVERING_LONG=1``), and Ctrl-C is Python's own, however the tests were
started."""

import signal
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from long import LONG  # noqa: E402  (after the path above)

# A shell that starts the tests in the background (`... &`, no job control)
# leaves SIGINT ignored, and Python then installs no handler of its own:
# `_thread.interrupt_main()`, which the Ctrl-C tests use, would do nothing
# and their counts would run on forever (the processes the tests start would
# inherit the ignored signal too; a handled one is reset in them).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if LONG:
        return
    skip = pytest.mark.skip(reason="a long run: make test-long (COVERING_LONG=1)")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)
