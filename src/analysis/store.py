"""A Parquet dataset of simulation results, one file per chunk, safe to resume.

A store is a directory::

    run/
      _trickcore.json            what the run is: game, rule options, contracts, seed,
                                 chunk size, declarer convention, library version
      part-000000.parquet        chunk 0 (the same metadata in the Parquet footer)
      part-000001.parquet        ...

Each chunk file is written to a temporary name and renamed into place (``os.replace`` is
atomic on one file system), so a file that exists is complete: a run killed at any point
leaves only whole chunks, and :func:`analysis.engine.run_chunks` skips them on the next
call.  Opening a directory that holds a *different* run (other game, rules, seed or chunk
size) raises ``ValueError`` rather than mixing two experiments.

The directory is an ordinary Parquet dataset: ``pandas.read_parquet(path)`` or
``pyarrow.dataset.dataset(path)`` read it without trickcore.

Examples
--------
>>> import tempfile, pandas as pd
>>> d = tempfile.mkdtemp()
>>> st = ChunkStore(d, {"game": "goathead3", "seed": 1})
>>> st.write(0, pd.DataFrame({"x": [1, 2]}))
>>> st.write(1, pd.DataFrame({"x": [3]}))
>>> st.finished(), st.read_all()["x"].tolist(), read_metadata(d)["game"]
([0, 1], [1, 2, 3], 'goathead3')
>>> ChunkStore(d, {"game": "goathead4", "seed": 1})
Traceback (most recent call last):
  ...
ValueError: ... holds a different run: game is 'goathead3' there, 'goathead4' here...
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["ChunkStore", "read_metadata", "read_store", "META_FILE"]

META_FILE = "_trickcore.json"
_PART_RE = re.compile(r"^part-(\d{6,})\.parquet$")
_META_KEY = b"trickcore"


def _canonical(meta: dict[str, Any]) -> dict[str, Any]:
    # JSON round trip: tuples become lists, keys strings, so comparisons are like for like.
    return json.loads(json.dumps(meta, sort_keys=True, default=str))


def make_folder(path: str | os.PathLike[str], what: str) -> Path:
    """Create the folder ``path`` (and its parents) if it is missing; ``ValueError`` naming
    ``what`` (e.g. ``"store directory"``) when a file stands there or it cannot be created."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise ValueError(f"{what} {str(path)!r} is a file, not a directory") from None
    except OSError as exc:
        raise ValueError(f"cannot create the {what} {str(path)!r}: {exc.strerror or exc}") from None
    return path


class ChunkStore:
    """One simulation run on disk (see the module docstring).

    Parameters
    ----------
    path:
        Directory (created if missing).
    meta:
        What identifies the run.  Keys listed in ``ignore`` (default: the library
        version and the worker count) may differ on resume; any other difference raises.
    """

    def __init__(self, path: str | os.PathLike[str], meta: dict[str, Any] | None = None,
                 ignore: tuple[str, ...] = ("version", "n_jobs", "backend")) -> None:
        self.path = make_folder(path, "store directory")
        meta = _canonical(meta or {})
        meta_path = self.path / META_FILE
        if meta_path.exists():
            old = json.loads(meta_path.read_text())
            for key in sorted(set(old) | set(meta)):
                if key in ignore:
                    continue
                if old.get(key) != meta.get(key):
                    raise ValueError(
                        f"store {self.path.name!r} holds a different run: {key} is {old.get(key)!r} there, "
                        f"{meta.get(key)!r} here; use another directory"
                    )
        else:
            self._atomic_write_bytes(meta_path, json.dumps(meta, indent=1, sort_keys=True).encode())
        self.meta = meta

    # -- files -------------------------------------------------------------------------
    def part_path(self, index: int) -> Path:
        return self.path / f"part-{int(index):06d}.parquet"

    def finished(self) -> list[int]:
        """Indices of the chunks already on disk, sorted."""
        out = []
        for p in self.path.iterdir():
            m = _PART_RE.match(p.name)
            if m:
                out.append(int(m.group(1)))
        return sorted(out)

    def _atomic_write_bytes(self, target: Path, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(dir=self.path, prefix=".tmp-", suffix=target.suffix)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def write(self, index: int, frame: pd.DataFrame, size: int | None = None) -> None:
        """Write chunk ``index`` atomically (temporary file, then rename).

        ``size`` is the number of deals the chunk covers, recorded so that a later run
        with more deals recomputes a short last chunk instead of reusing it.
        """
        table = pa.Table.from_pandas(frame, preserve_index=False)
        md = dict(table.schema.metadata or {})
        info = {**self.meta, "chunk": int(index), "size": None if size is None else int(size)}
        md[_META_KEY] = json.dumps(info, sort_keys=True).encode()
        table = table.replace_schema_metadata(md)
        fd, tmp = tempfile.mkstemp(dir=self.path, prefix=".tmp-", suffix=".parquet")
        os.close(fd)
        try:
            pq.write_table(table, tmp)
            os.replace(tmp, self.part_path(index))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def chunk_size_of(self, index: int) -> int | None:
        """Deals covered by stored chunk ``index`` (``None`` if it was not recorded)."""
        md = pq.read_schema(self.part_path(index)).metadata or {}
        try:
            return json.loads(md[_META_KEY]).get("size")
        except (KeyError, ValueError):
            return None

    def read(self, index: int) -> pd.DataFrame:
        """Chunk ``index`` as a DataFrame."""
        return pq.read_table(self.part_path(index)).to_pandas()

    def read_all(self) -> pd.DataFrame:
        """Every finished chunk, in chunk order."""
        return read_store(self.path)


def read_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The run description stored with a dataset (game, rules, seed, version, ...)."""
    return json.loads((Path(path) / META_FILE).read_text())


def read_store(path: str | os.PathLike[str], columns: list[str] | None = None) -> pd.DataFrame:
    """All chunks of a store as one DataFrame, in chunk order (optionally some columns)."""
    p = Path(path)
    parts = sorted((int(m.group(1)), q) for q in p.iterdir() if (m := _PART_RE.match(q.name)))
    if not parts:
        return pd.DataFrame(columns=columns or [])
    frames = [pq.read_table(q, columns=columns).to_pandas() for _, q in parts]
    return pd.concat(frames, ignore_index=True)
