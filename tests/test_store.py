"""The Parquet chunk store and resumable runs: interrupt after k chunks, resume, compare."""

import json

import numpy as np
import pandas as pd
import pytest

from analysis.engine import chunk_plan, chunk_seed, run_chunks
from analysis.store import META_FILE, ChunkStore, read_metadata, read_store


def _task(index, seed_seq, size):
    rng = np.random.default_rng(seed_seq)
    return pd.DataFrame({"chunk": np.full(size, index), "x": rng.integers(0, 1000, size)})


class Interrupt:
    """on_chunk hook raising KeyboardInterrupt once ``after`` chunks were stored."""

    def __init__(self, after):
        self.after, self.seen = after, []

    def __call__(self, chunk, frame):
        self.seen.append(chunk.index)
        if len(self.seen) >= self.after:
            raise KeyboardInterrupt


def test_write_read_and_metadata(tmp_path):
    st = ChunkStore(tmp_path / "run", {"game": "goathead3", "seed": 5, "rules": {}, "version": "0.1.0"})
    st.write(1, pd.DataFrame({"x": [3, 4]}))
    st.write(0, pd.DataFrame({"x": [1, 2]}))
    assert st.finished() == [0, 1]
    assert read_store(tmp_path / "run")["x"].tolist() == [1, 2, 3, 4]
    assert read_metadata(tmp_path / "run")["seed"] == 5
    # The metadata also travels in each Parquet footer.
    import pyarrow.parquet as pq

    md = pq.read_schema(st.part_path(0)).metadata[b"trickcore"]
    assert json.loads(md)["game"] == "goathead3"
    # No temporary files are left behind.
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == [META_FILE, "part-000000.parquet", "part-000001.parquet"]
    # Reopening with the same run (another library version is fine) keeps the chunks.
    assert ChunkStore(tmp_path / "run", {"game": "goathead3", "seed": 5, "rules": {}, "version": "9"}).finished() == [0, 1]
    with pytest.raises(ValueError, match="different run: seed"):
        ChunkStore(tmp_path / "run", {"game": "goathead3", "seed": 6, "rules": {}})


def test_failed_write_leaves_no_part(tmp_path):
    st = ChunkStore(tmp_path, {})
    with pytest.raises(ValueError, match="[Cc]onver"):    # pyarrow's ArrowInvalid: not serialisable
        st.write(0, pd.DataFrame({"x": [object()]}))
    assert st.finished() == []
    assert [p.name for p in tmp_path.iterdir()] == [META_FILE]


def test_chunk_seeds_independent_of_plan():
    assert [(c.index, c.start, c.size) for c in chunk_plan(7, 3)] == [(0, 0, 3), (1, 3, 3), (2, 6, 1)]
    a = chunk_seed(11, 4).generate_state(4)
    b = np.random.SeedSequence(11).spawn(9)[4].generate_state(4)
    assert (a == b).all()
    with pytest.raises(ValueError):
        chunk_plan(10, 0)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_interrupt_then_resume_engine(tmp_path, n_jobs):
    full = run_chunks(_task, 50, seed=3, chunk_size=7, n_jobs=1, progress=False)
    st = ChunkStore(tmp_path, {"seed": 3})
    hook = Interrupt(3)
    with pytest.raises(KeyboardInterrupt):
        run_chunks(_task, 50, seed=3, chunk_size=7, n_jobs=n_jobs, store=st, on_chunk=hook, progress=False)
    assert st.finished() == [0, 1, 2]
    again = []
    out = run_chunks(_task, 50, seed=3, chunk_size=7, n_jobs=n_jobs, store=ChunkStore(tmp_path, {"seed": 3}),
                     on_chunk=lambda c, f: again.append(c.index), progress=False)
    assert again == [3, 4, 5, 6, 7]          # nothing recomputed, nothing lost
    pd.testing.assert_frame_equal(out, full)
    pd.testing.assert_frame_equal(read_store(tmp_path), full)


def test_simulate_resume(tmp_path):
    from analysis import simulate

    kw = dict(seed=9, contracts=["hearts", "nil"], chunk_size=8, n_jobs=1, progress=False)
    full = simulate("goathead3", 40, **kw)
    hook = Interrupt(2)
    with pytest.raises(KeyboardInterrupt):
        simulate("goathead3", 40, store=tmp_path / "ds", on_chunk=hook, **kw)
    seen = []
    resumed = simulate("goathead3", 40, store=tmp_path / "ds", on_chunk=lambda c, f: seen.append(c.index), **kw)
    assert seen == [2, 3, 4]
    pd.testing.assert_frame_equal(resumed, full)
    meta = read_metadata(tmp_path / "ds")
    assert meta["game"] == "goathead3" and meta["seed"] == 9 and meta["contracts"] == ["hearts", "nil"]
    assert "version" in meta and meta["rules"] == {}
    disk = pd.read_parquet(tmp_path / "ds")       # an ordinary Parquet dataset
    assert len(disk) == 80
    with pytest.raises(ValueError, match="different run"):
        simulate("goathead3", 40, store=tmp_path / "ds", **{**kw, "seed": 10})
    # Appending: a longer run on the same store computes only the new chunks
    # (40 deals = 5 chunks of 8; 52 deals add a chunk of 8 and one of 4).
    seen.clear()
    longer = simulate("goathead3", 52, store=tmp_path / "ds", on_chunk=lambda c, f: seen.append(c.index), **kw)
    assert seen == [5, 6]
    pd.testing.assert_frame_equal(longer, simulate("goathead3", 52, **kw))
    assert simulate("goathead3", 52, store=tmp_path / "ds", return_frame=False, **kw) is None
    pd.testing.assert_frame_equal(read_store(tmp_path / "ds"), longer)


def test_short_last_chunk_is_recomputed(tmp_path):
    st = ChunkStore(tmp_path, {"seed": 1})
    run_chunks(_task, 10, seed=1, chunk_size=4, n_jobs=1, store=st, progress=False)   # 4 + 4 + 2
    seen = []
    out = run_chunks(_task, 12, seed=1, chunk_size=4, n_jobs=1, store=st, progress=False,
                     on_chunk=lambda c, f: seen.append(c.index))
    assert seen == [2]
    pd.testing.assert_frame_equal(out, run_chunks(_task, 12, seed=1, chunk_size=4, n_jobs=1, progress=False))
