"""Dask clients for `covering.cluster.distributed_count` (``pip install 'covering[dask]'``).

`connect` reaches a running scheduler; `local_cluster` starts one here, with
worker processes that ignore Ctrl-C (the driver cancels their tasks and
closes them) and die with the driver. Both keep Dask's log on stderr to
errors, so that a run prints its own few lines, not Dask's.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Callable
from typing import Any

import distributed
from distributed.diagnostics.plugin import WorkerPlugin

from .cluster import quiet_child

__all__ = ["connect", "local_cluster", "QuietWorkers"]

_dist: Any = distributed  # untyped


class QuietWorkers(WorkerPlugin):
    """Installed on every worker of a local cluster, restarted ones too."""

    name = "covering-quiet-workers"

    def setup(self, worker: Any) -> None:
        quiet_child()


def _quiet_logs() -> None:
    # Dask's logging config sets levels on its modules' loggers one by one.
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado")]
    for name in ["distributed", "tornado", "asyncio", *names]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def connect(address: str, timeout: float) -> tuple[Any, Callable[[], None]]:
    """A client of the scheduler at `address`; it gives up reconnecting
    after `timeout` seconds. Returns (client, close)."""
    _quiet_logs()
    client = _dist.Client(address, timeout=f"{timeout}s")
    return client, lambda: _close(client)


def local_cluster(workers: int) -> tuple[Any, Callable[[], None]]:
    """A cluster of `workers` processes of one thread here. Returns (client, close)."""
    _quiet_logs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "port 8787 is already in use"
        # No dashboard, and the scheduler's small HTTP server on a free port.
        cluster = _dist.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                     dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
                                     silence_logs=logging.CRITICAL)
    client = _dist.Client(cluster)
    client.register_plugin(QuietWorkers())

    def close() -> None:
        _close(client)
        with contextlib.suppress(Exception):
            cluster.close(timeout=10)

    return client, close


def _close(client: Any) -> None:
    with contextlib.suppress(Exception):
        client.close(timeout=5)
