"""How llama.cpp's prompt and decode speed fall with the model's file size on this machine.

Writes llama-architecture GGUF models of several sizes with random weights (the shapes of SmolLM2 135M and 360M
and of Qwen2.5 0.5B, 1.5B and 3B: width, layers, attention and key/value heads, feed-forward width, vocabulary,
tied embeddings), every matrix quantized to Q4_1 by the ``gguf`` package (the bundled model's type; the package
cannot write the K-quants of most downloads), norms in F32. Speed does not depend on the weights' values.

Every model is loaded once, as the worker loads it (``n_batch`` = ``n_ubatch`` = the daemon's batch, mmap, the
same thread count for prompt and decode), and reads ``--depth`` tokens into its context (which also pages every
weight in); all stay loaded (about 4 GB of RAM) and each round measures each at each thread count:

* prompt: tokens/s of one ``eval`` of a ``--prompt``-token prompt (random token ids), after ``--depth`` tokens
  already in the context (default 3,000: a guide's steps read prompts of up to 7,000 tokens, and attention's cost
  grows with the depth, a large share of a small model's time); each measurement drops the tokens after that
  depth first;
* decode: tokens/s of ``--decode`` single-token steps right after the prompt, each choosing the most likely token
  of the last logits (a fixed count: end-of-text is not a stop here).

Rounds alternate the models (the order reverses every round) and the thread counts, so a change in the machine's
load touches every model alike; the table gives each figure's median over the rounds, its ratio to the smallest
model's and the fit's ratio. The fit is, per phase, seconds per token = k · (fixed + the file's bytes), least
squares on the medians at the lowest thread count; ``fixed`` (in bytes) is what ``core.app.timing.model_speed`` takes as
``PROMPT_FIXED_BYTES`` / ``DECODE_FIXED_BYTES``.

Run: ``.venv/bin/python bench/model_sizes.py [--rounds 3] [--threads 1 2] [--json PATH]``. The models are
written to a temporary folder (about 3.6 GB; ``--keep DIR`` reuses a folder between runs) and deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from gguf import GGMLQuantizationType, GGUFWriter, TokenType
from gguf.quants import quantize

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.app.models.catalog import DEFAULT_N_UBATCH
from core.app.timing.model_speed import size_factor

CHATML = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


@dataclass(frozen=True)
class Shape:
    """One model's dimensions (those of the published model named)."""

    name: str
    n_embd: int
    n_layer: int
    n_head: int
    n_head_kv: int
    n_ff: int
    n_vocab: int


SHAPES = (
    Shape("SmolLM2-135M", 576, 30, 9, 3, 1536, 49152),
    Shape("SmolLM2-360M", 960, 32, 15, 5, 2560, 49152),
    Shape("Qwen2.5-0.5B", 896, 24, 14, 2, 4864, 151936),
    Shape("Qwen2.5-1.5B", 1536, 28, 12, 2, 8960, 151936),
    Shape("Qwen2.5-3B", 2048, 36, 16, 2, 11008, 151936),
)


def _byte_chars() -> list[str]:
    """GPT-2's byte → printable character map, as llama.cpp's BPE tokenizer reads it."""
    printable = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAC + 1), *range(0xAE, 0xFF + 1)]
    chars, extra = [], 0
    for byte in range(256):
        if byte in printable:
            chars.append(chr(byte))
        else:
            chars.append(chr(256 + extra))
            extra += 1
    return chars


def _add_metadata(writer: GGUFWriter, shape: Shape) -> None:
    head_dim = shape.n_embd // shape.n_head
    writer.add_name(f"random-{shape.name}")
    writer.add_context_length(8192)
    writer.add_embedding_length(shape.n_embd)
    writer.add_block_count(shape.n_layer)
    writer.add_feed_forward_length(shape.n_ff)
    writer.add_head_count(shape.n_head)
    writer.add_head_count_kv(shape.n_head_kv)
    writer.add_rope_dimension_count(head_dim)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_vocab_size(shape.n_vocab)
    writer.add_file_type(3)  # mostly Q4_1
    chars = _byte_chars()
    tokens = [*chars, "<|endoftext|>", "<|im_start|>", "<|im_end|>", chars[0] * 2]
    tokens += [f"t{i}" for i in range(shape.n_vocab - len(tokens))]
    types = [TokenType.NORMAL] * 256 + [TokenType.CONTROL] * 3 + [TokenType.NORMAL] * (len(tokens) - 259)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges([f"{chars[0]} {chars[0]}"])
    writer.add_bos_token_id(256)
    writer.add_eos_token_id(258)
    writer.add_add_bos_token(False)
    writer.add_chat_template(CHATML)


def _matrix(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    """A random ``rows`` × ``cols`` matrix quantized to Q4_1 (row by row in slices: bounded memory)."""
    out = []
    step = max(1, (1 << 24) // cols)
    for start in range(0, rows, step):
        part = rng.standard_normal((min(step, rows - start), cols), dtype=np.float32) * 0.02
        out.append(quantize(part, GGMLQuantizationType.Q4_1))
    return np.concatenate(out)


def write_model(path: Path, shape: Shape, seed: int = 0) -> Path:
    """Write a random-weight model of ``shape`` to ``path`` and return the path."""
    rng = np.random.default_rng(seed)
    e, kv = shape.n_embd, shape.n_embd // shape.n_head * shape.n_head_kv
    writer = GGUFWriter(str(path), "llama")
    _add_metadata(writer, shape)
    q4 = GGMLQuantizationType.Q4_1
    writer.add_tensor("token_embd.weight", _matrix(rng, shape.n_vocab, e), raw_dtype=q4)
    writer.add_tensor("output_norm.weight", np.ones(e, dtype=np.float32))
    for i in range(shape.n_layer):
        writer.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(e, dtype=np.float32))
        writer.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(e, dtype=np.float32))
        for name, rows, cols in (
            ("attn_q", e, e),
            ("attn_k", kv, e),
            ("attn_v", kv, e),
            ("attn_output", e, e),
            ("ffn_gate", shape.n_ff, e),
            ("ffn_up", shape.n_ff, e),
            ("ffn_down", e, shape.n_ff),
        ):
            writer.add_tensor(f"blk.{i}.{name}.weight", _matrix(rng, rows, cols), raw_dtype=q4)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def load(path: Path, prompt_tokens: int, decode_tokens: int, depth: int) -> Any:
    """The model at ``path`` loaded as the worker loads it, with ``depth`` tokens read into its context (which also
    pages every weight in)."""
    from llama_cpp import Llama

    llm = Llama(
        model_path=str(path),
        n_ctx=(depth + prompt_tokens + decode_tokens) // 256 * 256 + 512,
        n_threads=1,
        n_threads_batch=1,
        n_batch=DEFAULT_N_UBATCH,
        n_ubatch=DEFAULT_N_UBATCH,
        verbose=False,
    )
    llm.eval([int(t) for t in np.random.default_rng(depth).integers(300, 40_000, max(depth, 32))])
    return llm


def measure(llm: Any, threads: list[int], prompt_tokens: int, decode_tokens: int, depth: int) -> dict[int, Any]:
    """{threads: (prompt tokens/s, decode tokens/s)} of the loaded model ``llm``, the prompt read after the first
    ``depth`` tokens of its context (a later part of a long prompt: attention costs grow with the depth)."""
    import llama_cpp

    rng = np.random.default_rng()
    rates = {}
    for count in threads:
        llama_cpp.llama_set_n_threads(llm.ctx, count, count)
        llm.n_tokens = depth  # the next eval drops every later token from the context
        rates[count] = _timed(llm, [int(t) for t in rng.integers(300, 40_000, prompt_tokens)], decode_tokens)
    return rates


def _timed(llm: Any, prompt: list[int], decode_tokens: int) -> tuple[float, float]:
    from llama_cpp import llama_get_logits_ith

    start = time.perf_counter()
    llm.eval(prompt)
    prompt_rate = len(prompt) / (time.perf_counter() - start)
    n_vocab = llm.n_vocab()
    start = time.perf_counter()
    for _ in range(decode_tokens):
        logits = np.ctypeslib.as_array(llama_get_logits_ith(llm.ctx, -1), shape=(n_vocab,))
        llm.eval([int(np.argmax(logits))])
    return prompt_rate, decode_tokens / (time.perf_counter() - start)


def fit(sizes: list[int], rates: list[float]) -> float:
    """Least squares of seconds per token = k · (fixed + bytes) on the medians; returns ``fixed`` in bytes."""
    slope, intercept = np.polyfit(np.array(sizes, dtype=float), 1.0 / np.array(rates), 1)
    return max(float(intercept), 0.0) / float(slope)


def _table(
    sizes: dict[str, int], results: dict[tuple[str, int], list[tuple[float, float]]], fixed: dict[str, float]
) -> str:
    base = SHAPES[0].name
    lines = [
        "| model (random, Q4_1) | file MB | threads | prompt tok/s | ratio | fit | decode tok/s | ratio | fit |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (name, threads), runs in results.items():
        cells = [f"{name} | {sizes[name] / 1e6:,.0f} | {threads}"]
        for index, phase in enumerate(("prompt", "decode")):
            rate = statistics.median(r[index] for r in runs)
            base_rate = statistics.median(r[index] for r in results[(base, threads)])
            predicted = size_factor(sizes[name], sizes[base], fixed[phase])
            cells.append(f"{rate:.1f} | {rate / base_rate:.3f} | {predicted:.3f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _run(folder: Path, args: argparse.Namespace) -> dict[str, object]:
    shapes = [s for s in SHAPES if not args.only or s.name in args.only]
    paths = {}
    for shape in shapes:
        path = folder / f"{shape.name}.Q4_1.gguf"
        if not path.is_file():
            started = time.perf_counter()
            write_model(path, shape)
            print(
                f"wrote {path.name}: {path.stat().st_size / 1e6:,.0f} MB in {time.perf_counter() - started:.0f} s",
                flush=True,
            )
        paths[shape.name] = path
    sizes = {name: path.stat().st_size for name, path in paths.items()}
    results: dict[tuple[str, int], list[tuple[float, float]]] = {(s.name, t): [] for t in args.threads for s in shapes}
    loaded = {s.name: load(paths[s.name], args.prompt, args.decode, args.depth) for s in shapes}
    load_before = os.getloadavg()
    for round_no in range(args.rounds):
        order = shapes if round_no % 2 == 0 else shapes[::-1]
        threads_order = args.threads if round_no % 2 == 0 else args.threads[::-1]
        for shape in order:
            measured = measure(loaded[shape.name], threads_order, args.prompt, args.decode, args.depth)
            for threads, rates in measured.items():
                results[(shape.name, threads)].append(rates)
                print(
                    f"round {round_no + 1} {shape.name} {threads}t: prompt {rates[0]:.1f} decode {rates[1]:.2f}",
                    flush=True,
                )
    for llm in loaded.values():
        llm.close()
    one = min(args.threads)
    names = [s.name for s in shapes]
    fixed = {}
    for phase, index in (("prompt", 0), ("decode", 1)):
        medians = [statistics.median(r[index] for r in results[(n, one)]) for n in names]
        fixed[phase] = fit([sizes[n] for n in names], medians)
    print(_table(sizes, results, fixed))
    print(f"fit at {one} thread(s): fixed part in bytes: prompt {fixed['prompt']:,.0f}, decode {fixed['decode']:,.0f}")
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ"),
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "sizes": sizes,
        "results": {f"{n}|{t}": runs for (n, t), runs in results.items()},
        "fixed_bytes": fixed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--prompt", type=int, default=1000, help="prompt tokens")
    parser.add_argument("--decode", type=int, default=100, help="decoded tokens")
    parser.add_argument("--depth", type=int, default=3000, help="tokens in the context before the prompt")
    parser.add_argument("--only", nargs="*", help="model names (default: all)")
    parser.add_argument("--keep", type=Path, help="write the models here and keep them")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="model-sizes-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        report = _run(folder, args)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
