"""Corpus scale: WARC (or JSON lines, or pages) in, Parquet or JSON lines out, in a
resumable run folder, on the local process pool or a Dask cluster.

    plan ─▶ manifest + shards ─▶ executors (local pool | Dask) ─▶ work.process_shard
         ─▶ readers (WARC: warcfile, http; JSONL; pages) ─▶ page rows ─▶ sinks (Parquet, JSONL)
         ─▶ markers

Every record is accounted for: a row, or a skip reason (:mod:`.readers` lists them); a
damaged input (a file cut short, a corrupt gzip member, a wrong Content-Length) costs
only its damaged records, never the run, and the summary and exit status say so
(:mod:`.run`).  Needs the ``corpus`` extra (pyarrow, Dask distributed, py3langid); each
module imports what it needs when it runs and says what to install when it is missing.
See :mod:`.sinks` for the output's columns.
"""

from .executors import Stop
from .run import Request, RunSummary, rows, run
from .work import RunConfig

__all__ = ["RunConfig", "Request", "RunSummary", "Stop", "rows", "run"]
