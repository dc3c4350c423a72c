"""The chunked, parallel, resumable runner every Monte Carlo run goes through.

A run of ``n`` items (deals) is cut into chunks of ``chunk_size``.  Chunk ``i`` gets its own
random stream, the ``i``-th child of ``numpy.random.SeedSequence(seed)`` (the same object
``SeedSequence(seed).spawn(k)[i]`` returns, whatever ``k``), so a chunk's result depends
only on ``(seed, chunk_size, i)`` and never on how many workers ran it, in which order, on
which machine.  Hence:

* ``n_jobs=1`` and ``n_jobs=2`` give identical tables;
* ``backend="dask"`` (an existing ``distributed.Client``, or a local one started on
  demand) or a scheduler address (``"tcp://host:8786"``) runs the same chunks on a Dask
  cluster through ``joblib.parallel_config(backend="dask")`` with identical results;
* with a :class:`~analysis.store.ChunkStore` every finished chunk is written to its own
  Parquet file (atomically), so a run that is killed resumes where it stopped: finished
  chunks are read back, never recomputed, and none is lost.

Results stream: chunks are consumed in order as they finish and handed to a *reducer*
(e.g. sums of payouts per contract), so memory stays flat however many deals are run.

Examples
--------
>>> import numpy as np, pandas as pd
>>> def task(index, seed_seq, size):
...     rng = np.random.default_rng(seed_seq)
...     return pd.DataFrame({"chunk": index, "x": rng.integers(0, 10, size)})
>>> a = run_chunks(task, 10, seed=7, chunk_size=4, n_jobs=1, progress=False)
>>> b = run_chunks(task, 10, seed=7, chunk_size=4, n_jobs=2, progress=False)
>>> len(a), a.equals(b), list(a.groupby("chunk").size())
(10, True, [4, 4, 2])
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["Chunk", "chunk_plan", "chunk_seed", "run_chunks", "iter_chunks", "backend_context", "default_n_jobs", "DEFAULT_CHUNK_SIZE"]

#: Deals per chunk unless told otherwise: large enough that one compiled call amortises the
#: Python overhead, small enough that a chunk's table (a few tens of MB) fits any worker.
DEFAULT_CHUNK_SIZE = 16384

Task = Callable[[int, np.random.SeedSequence, int], pd.DataFrame]


@dataclass(frozen=True)
class Chunk:
    """One unit of work: its index, the first item's global index and its size."""

    index: int
    start: int
    size: int


def whole(name: str, value: Any) -> int:
    """``value`` as an int if it is a whole number (an int, or a float such as ``1e4``),
    else ``ValueError`` naming ``name``.

    >>> whole("chunk_size", 1.5)
    Traceback (most recent call last):
      ...
    ValueError: chunk_size must be a whole number; got 1.5
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return int(value)
    raise ValueError(f"{name} must be a whole number; got {value!r}")


def check_seed(seed: Any) -> None:
    """``ValueError`` unless ``seed`` can seed the chunks' streams (an int >= 0, a sequence
    of them, a ``SeedSequence`` or ``None``)."""
    from trickcore.deals import _root

    _root(seed)


def chunk_plan(n_items: int, chunk_size: int) -> list[Chunk]:
    """Cut ``n_items`` into chunks of ``chunk_size`` (the last one may be shorter).

    >>> [(c.index, c.start, c.size) for c in chunk_plan(10, 4)]
    [(0, 0, 4), (1, 4, 4), (2, 8, 2)]
    """
    n_items, chunk_size = whole("the number of deals", n_items), whole("chunk_size", chunk_size)
    if n_items < 0:
        raise ValueError(f"the number of deals must be >= 0; got {n_items}")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1; got {chunk_size}")
    return [Chunk(i, s, min(chunk_size, n_items - s)) for i, s in enumerate(range(0, n_items, chunk_size))]


def chunk_seed(seed: int | np.random.SeedSequence | None, index: int) -> np.random.SeedSequence:
    """The random stream of chunk ``index``: child ``index`` of ``SeedSequence(seed)``.

    >>> ss = np.random.SeedSequence(5)
    >>> chunk_seed(5, 3).generate_state(2).tolist() == ss.spawn(4)[3].generate_state(2).tolist()
    True
    """
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, int(index)), pool_size=root.pool_size)


def _run_one(task: Task, seed: Any, chunk: Chunk) -> tuple[int, pd.DataFrame]:
    frame = task(chunk.index, chunk_seed(seed, chunk.index), chunk.size)
    return chunk.index, frame


@contextlib.contextmanager
def backend_context(backend: Any, n_jobs: int) -> Iterator[tuple[str | None, int]]:
    """Context in which ``joblib.Parallel`` runs on ``backend``; yields (backend, n_jobs).

    ``"loky"``/``"threading"``/``"multiprocessing"``/``"sequential"`` are joblib's own;
    ``"dask"`` uses the current ``distributed`` client or starts a local one; a string with
    ``"://"`` or a ``distributed.Client`` is a cluster to connect to.
    """
    if backend in (None, "loky", "threading", "multiprocessing", "sequential"):
        yield backend or "loky", n_jobs
        return
    import joblib

    if backend == "dask" or isinstance(backend, str) and "://" in backend or hasattr(backend, "scheduler_info"):
        from distributed import Client, get_client

        own = None
        if hasattr(backend, "scheduler_info"):
            pass  # a distributed.Client given: joblib's dask backend runs on it
        elif backend == "dask":
            try:
                get_client()
            except ValueError:  # no client yet: start a small local cluster
                own = Client(processes=False, dashboard_address=None)
        else:
            own = Client(backend)
        try:
            with joblib.parallel_config(backend="dask", wait_for_workers_timeout=60):
                # On dask the cluster decides the parallelism; joblib needs n_jobs=-1.
                yield None, -1
        finally:
            if own is not None:
                own.close()
        return
    raise ValueError(
        f"unknown backend {backend!r}; use 'loky', 'threading', 'sequential', 'dask', "
        "a scheduler address such as 'tcp://127.0.0.1:8786', or a distributed.Client"
    )


def iter_chunks(task: Task, chunks: Any, *, seed: Any = 0, n_jobs: int = -1,
                backend: Any = "loky") -> Iterator[tuple[int, pd.DataFrame]]:
    """Yield ``(index, frame)`` for each chunk of ``chunks`` in order, computed in parallel.

    ``chunks`` may be a lazy iterable (joblib dispatches a few ahead), so a caller can stop
    early — e.g. when a target precision is reached — and the result does not depend on
    ``n_jobs`` because the caller sees the chunks in index order.
    """
    import joblib

    check_seed(seed)
    if n_jobs == 1 and backend in (None, "loky", "sequential"):
        for c in chunks:  # no pool for a serial run: cheaper and easier to debug
            yield _run_one(task, seed, c)
        return
    with backend_context(backend, n_jobs) as (name, jobs), warnings.catch_warnings():
        # Stopping early (target precision reached, interrupted run) cancels the chunks
        # dispatched ahead; that is intended, not worth a warning.
        warnings.filterwarnings("ignore", message=".*tasks which were still being processed.*")
        parallel = joblib.Parallel(n_jobs=jobs, backend=name, return_as="generator", pre_dispatch="2*n_jobs")
        yield from parallel(joblib.delayed(_run_one)(task, seed, c) for c in chunks)


def run_chunks(
    task: Task,
    n_items: int,
    *,
    seed: Any = 0,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    n_jobs: int = -1,
    backend: Any = "loky",
    store: Any = None,
    reduce: Callable[[Any, pd.DataFrame], Any] | None = None,
    initial: Any = None,
    on_chunk: Callable[[Chunk, pd.DataFrame], None] | None = None,
    progress: bool | None = None,
    desc: str = "chunks",
) -> Any:
    """Run ``task`` over every chunk and combine the results in chunk order.

    Parameters
    ----------
    task:
        ``task(index, seed_sequence, size) -> DataFrame``; must be picklable (a module-level
        function or a ``functools.partial`` of one) to run in worker processes.
    n_items, chunk_size, seed:
        What to run; chunk ``i`` covers items ``[i * chunk_size, ...)`` and is seeded by
        :func:`chunk_seed`.
    n_jobs, backend:
        joblib workers (``-1``: all cores) and backend (see :func:`backend_context`).
    store:
        ``None`` or a :class:`~analysis.store.ChunkStore`: finished chunks are written there
        and chunks already present are read back instead of recomputed.
    reduce, initial:
        ``state = reduce(state, frame)`` is called for each chunk in order, starting from
        ``initial``; the final state is returned.  Without ``reduce`` the frames are
        concatenated (the caller asked for the whole table).
    on_chunk:
        Called as ``on_chunk(chunk, frame)`` after each chunk is stored (progress hooks,
        tests that interrupt a run).
    progress:
        Show a tqdm bar with ETA; ``None`` shows it when there are more than 8 chunks.
    """
    if progress is not None and not isinstance(progress, (bool, np.bool_)):
        raise ValueError(f"progress must be True, False or None (a bar when there are more than 8 chunks); "
                         f"got {progress!r}")
    plan = chunk_plan(n_items, chunk_size)
    done: set[int] = set()
    if store is not None:
        sizes = {c.index: c.size for c in plan}
        # A stored chunk counts only if it covers the deals this plan gives it (a run
        # extended to more deals recomputes its former, shorter last chunk).
        done = {i for i in store.finished() if i in sizes and store.chunk_size_of(i) in (None, sizes[i])}
    pending = [c for c in plan if c.index not in done]
    if progress is None:
        progress = len(plan) > 8
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_items, desc=desc, unit="deal", initial=sum(c.size for c in plan if c.index in done))

    frames: list[pd.DataFrame] = []
    state = initial

    def consume(chunk: Chunk, frame: pd.DataFrame, fresh: bool) -> None:
        nonlocal state
        if fresh and store is not None:
            store.write(chunk.index, frame, size=chunk.size)
        if fresh and on_chunk is not None:
            on_chunk(chunk, frame)
        if reduce is not None:
            state = reduce(state, frame)
        else:
            frames.append(frame)
        if bar is not None and fresh:
            bar.update(chunk.size)

    try:
        results = iter_chunks(task, pending, seed=seed, n_jobs=n_jobs, backend=backend)
        by_index = {c.index: c for c in plan}
        # Stored chunks and fresh ones are merged in chunk order so that the reducer sees
        # the same sequence whether or not the run was resumed.
        next_fresh = next(results, None)
        for c in plan:
            if c.index in done:
                consume(c, store.read(c.index), fresh=False)
                continue
            assert next_fresh is not None and next_fresh[0] == c.index
            consume(by_index[c.index], next_fresh[1], fresh=True)
            next_fresh = next(results, None)
    finally:
        if bar is not None:
            bar.close()

    if reduce is not None:
        return state
    if not frames:
        return pd.DataFrame()
    out = pd.concat(frames, ignore_index=True)
    return out


def default_n_jobs(n_jobs: int) -> int:
    """Resolve joblib's negative counts (``-1``: all cores, ``-2``: all but one) to a number.

    >>> default_n_jobs(3), default_n_jobs(-1) == (os.cpu_count() or 1)
    (3, True)
    """
    n_jobs = int(n_jobs)
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + n_jobs)
    return max(1, n_jobs)
