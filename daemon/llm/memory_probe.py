"""Measure what llama.cpp really takes: load a GGUF in a fresh process, fill its context, report the RSS growth.

Used by the catalog's test and ``bench/model_bench.py`` to check :func:`core.model_catalog.ram_needed`. The child
process loads the model as the daemon does (``n_batch = n_ubatch = 512``), evaluates ``fill`` tokens (the context
full by default, which touches every weight page and the largest compute buffer) and prints its RSS growth.
Blocking; safe from any thread.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

__all__ = ["measure_rss_growth"]

_CHILD = r"""
import json, sys
import psutil
from llama_cpp import Llama
path, n_ctx, fill = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
process = psutil.Process()
before = process.memory_info().rss
llm = Llama(model_path=path, n_ctx=n_ctx, n_batch=512, n_ubatch=512, n_threads=1, verbose=False)
tokens = llm.tokenize(b"hello world, ola mundo " * (fill // 2 + 16))[: fill]
llm.eval(tokens)
print(json.dumps({"rss_growth": process.memory_info().rss - before, "tokens": len(tokens)}))
"""


def measure_rss_growth(path: Path, n_ctx: int, fill: int | None = None, timeout: float = 600.0) -> int:
    """Bytes the process's RSS grew by loading ``path`` at ``n_ctx`` and evaluating ``fill`` tokens (default:
    ``n_ctx - 8``). Raises :class:`RuntimeError` when the child fails."""
    tokens = n_ctx - 8 if fill is None else fill
    command = [sys.executable, "-c", _CHILD, str(path), str(n_ctx), str(tokens)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"measuring {path.name} failed: {done.stderr.strip()[-500:]}")
    return int(json.loads(done.stdout.strip().splitlines()[-1])["rss_growth"])
