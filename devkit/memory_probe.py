"""Measure what llama.cpp really takes: load a GGUF in a fresh process, fill its context, report the RSS growth.

Used by the catalog's test and ``bench/model_bench.py`` to check :func:`core.app.models.catalog.ram_needed`. The child
process loads the model as the daemon does (``n_batch = n_ubatch``, 256 by default; flash attention off), notes its
RSS growth, evaluates ``fill`` tokens (the context full by default, which touches every weight page and the largest
compute buffer) and notes it again. Blocking; safe from any thread.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from core.app.models.catalog import DEFAULT_N_UBATCH

__all__ = ["RssGrowth", "measure_rss", "measure_rss_growth"]

_CHILD = r"""
import json, sys
import psutil
from llama_cpp import Llama
path = sys.argv[1]
n_ctx, fill, n_batch, n_threads = (int(value) for value in sys.argv[2:6])
process = psutil.Process()
before = process.memory_info().rss
llm = Llama(
    model_path=path, n_ctx=n_ctx, n_batch=n_batch, n_ubatch=n_batch, n_threads=n_threads, verbose=False
)
loaded = process.memory_info().rss - before
tokens = llm.tokenize(b"hello world, ola mundo " * (fill // 2 + 16))[: fill]
llm.eval(tokens)
print(json.dumps({"loaded": loaded, "full": process.memory_info().rss - before, "tokens": len(tokens)}))
"""


@dataclass(frozen=True, slots=True)
class RssGrowth:
    """Bytes the RSS grew by: right after loading, and after evaluating the context."""

    loaded: int
    full: int


def measure_rss(
    path: Path,
    n_ctx: int,
    fill: int | None = None,
    *,
    n_batch: int = DEFAULT_N_UBATCH,
    n_threads: int = 1,
    timeout: float = 900.0,
) -> RssGrowth:
    """The RSS growth of a fresh process that loads ``path`` at ``n_ctx`` and evaluates ``fill`` tokens (default:
    ``n_ctx - 8``). Raises :class:`RuntimeError` when the child fails."""
    tokens = n_ctx - 8 if fill is None else fill
    command = [sys.executable, "-c", _CHILD, str(path), str(n_ctx), str(tokens), str(n_batch), str(n_threads)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"measuring {path.name} failed: {done.stderr.strip()[-500:]}")
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    return RssGrowth(int(answer["loaded"]), int(answer["full"]))


def measure_rss_growth(path: Path, n_ctx: int, fill: int | None = None, timeout: float = 900.0) -> int:
    """Bytes the process's RSS grew by loading ``path`` at ``n_ctx`` and evaluating ``fill`` tokens (default:
    ``n_ctx - 8``), with the daemon's micro-batch. Raises :class:`RuntimeError` when the child fails."""
    return measure_rss(path, n_ctx, fill, timeout=timeout).full
