"""Benchmark of local inference: speed, and how fast a stop really frees the machine.

Measures, with the default model (SmolLM2-135M-Instruct Q4_1, bundled) unless ``--model`` says otherwise:

* prompt processing and decode speed (tokens/s) of :class:`~daemon.llm.llamacpp.LlamaCppGenerator`;
* stop latency of ours — stop event set → call returned, and → a follow-up 1-token request done (the model is
  free again) — during decode and during prompt processing of a ~1,500-token prompt;
* the same, side by side, for the same model served by ``llama_cpp.server`` and "stopped" the only way an HTTP
  client can: closing the connection. The figure is the time from the close until a follow-up 1-token request
  is answered; the time of that request alone is printed beside it, so the difference is how long the server
  kept working for nobody.

Run: ``.venv/bin/python bench/llm_bench.py [--threads N] [--trials N] [--model PATH]``. Prints a Markdown
table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from daemon.llm.base import ChatMessage, TokenProgress
from daemon.llm.errors import GenerationStoppedError
from daemon.llm.llamacpp import LlamaCppGenerator, default_n_threads
from daemon.llm.models import bundled_model_path

N_CTX = 4096
N_BATCH = 256
PROMPT_TEXT = (
    "The cell membrane controls what enters and leaves the cell, while the nucleus stores the genetic "
    "material and the mitochondria release energy from food through cellular respiration."
)
TINY: list[ChatMessage] = [{"role": "user", "content": "Say yes."}]


def long_prompt(tag: str, tokens: int = 1500) -> list[ChatMessage]:
    """A prompt of about ``tokens`` tokens whose first word is unique, so no cache can shorten it."""
    vocabulary = PROMPT_TEXT.split(" ")
    words = [vocabulary[i % len(vocabulary)] for i in range(int(tokens * 0.9))]
    return [{"role": "user", "content": f"{tag}: " + " ".join(words) + "\nSummarise."}]


@dataclass(frozen=True)
class Ours:
    """Figures measured on :class:`LlamaCppGenerator` (latencies in seconds)."""

    prompt_tokens: int
    prompt_seconds: float
    decode_tps: float
    decode_return: list[float]
    decode_idle: list[float]
    prompt_return: list[float]
    prompt_idle: list[float]
    warm_baseline: float
    cold_baseline: float


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def ms(values: list[float]) -> str:
    return f"{pct(values, 0.5) * 1000:.0f} / {pct(values, 0.95) * 1000:.0f}"


async def measure_ours(model: Path, threads: int, trials: int) -> Ours:
    generator = LlamaCppGenerator(model, n_ctx=N_CTX, n_threads=threads, n_batch=N_BATCH)
    shared = await generator.load()
    prompt_tokens = len(shared.prompt_tokens(long_prompt("warm")))
    await generator.chat(TINY, max_tokens=1)

    async def tiny_request_seconds() -> float:
        started = time.perf_counter()
        await generator.chat(TINY, max_tokens=1)
        return time.perf_counter() - started

    def forget() -> None:
        with shared.lock:
            shared.recover()

    async def cold_tiny_request_seconds() -> float:
        await asyncio.to_thread(forget)
        return await tiny_request_seconds()

    # After a decode-phase stop the cache still holds the shared system-prompt prefix, as after any request;
    # after an abort in prompt processing the context is cleared. Each state has its own baseline.
    await generator.chat(long_prompt("other", 40), max_tokens=1)
    warm_baseline = statistics.median([await _after_other(generator, tiny_request_seconds) for _ in range(5)])
    cold_baseline = statistics.median([await cold_tiny_request_seconds() for _ in range(5)])

    prompt_times = []
    for i in range(3):
        started = time.perf_counter()
        await generator.chat(long_prompt(f"speed{i}"), max_tokens=1)
        prompt_times.append(time.perf_counter() - started)
    prompt_seconds = statistics.median(prompt_times)

    stamps: list[float] = []
    await generator.chat(TINY, max_tokens=129, on_token=lambda _p: stamps.append(time.perf_counter()))
    decode_tps = (len(stamps) - 1) / (stamps[-1] - stamps[0])

    decode_lat, decode_idle = [], []
    for _ in range(trials):
        stop = threading.Event()
        set_at: list[float] = []

        def on_token(progress: TokenProgress, stop: threading.Event = stop, set_at: list[float] = set_at) -> None:
            if progress.completion_tokens == 20 and not stop.is_set():
                stop.set()
                set_at.append(time.perf_counter())

        with contextlib.suppress(GenerationStoppedError):
            await generator.chat(long_prompt("d", 50), max_tokens=2000, stop_event=stop, on_token=on_token)
        decode_lat.append(time.perf_counter() - set_at[0])
        decode_idle.append(time.perf_counter() - set_at[0] + await tiny_request_seconds())

    prompt_lat, prompt_idle = [], []
    for i in range(trials):
        stop = threading.Event()
        before = shared.abort_checks
        task = asyncio.create_task(generator.chat(long_prompt(f"p{i}"), max_tokens=50, stop_event=stop))
        while shared.abort_checks == before:  # noqa: ASYNC110 - wait until inside llama_decode
            await asyncio.sleep(0.001)
        await asyncio.sleep(random.uniform(0.05, 0.6) * prompt_seconds)
        stop.set()
        set_at_prompt = time.perf_counter()
        try:
            await task
        except GenerationStoppedError as stopped:
            assert stopped.phase == "prompt", "the prompt finished before the stop"
        prompt_lat.append(time.perf_counter() - set_at_prompt)
        prompt_idle.append(time.perf_counter() - set_at_prompt + await tiny_request_seconds())
    return Ours(
        prompt_tokens,
        prompt_seconds,
        decode_tps,
        decode_lat,
        decode_idle,
        prompt_lat,
        prompt_idle,
        warm_baseline,
        cold_baseline,
    )


async def _after_other(generator: LlamaCppGenerator, timed: Callable[[], Awaitable[float]]) -> float:
    """Time ``timed`` right after an unrelated short request (so only the common prefix is cached)."""
    await generator.chat(long_prompt(f"other{random.random()}", 40), max_tokens=1)
    return await timed()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(model: Path, threads: int) -> tuple[subprocess.Popen[bytes], int]:
    """``llama_cpp.server`` with the same settings as ours, on a free loopback port."""
    port = free_port()
    # fmt: off
    process = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--model_alias", "m",
         "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(N_CTX), "--n_threads", str(threads),
         "--n_threads_batch", str(threads), "--n_batch", str(N_BATCH), "--n_ubatch", str(N_BATCH),
         "--verbose", "False"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    # fmt: on
    return process, port


async def measure_server(
    model: Path, threads: int, trials: int, prompt_seconds: float
) -> tuple[list[float], list[float], float]:
    """Connection closed → follow-up 1-token request answered, during decode and prompt; and that request's
    time on an idle server (after an unrelated request, as after the stopped one)."""
    process, port = start_server(model, threads)
    url = f"http://127.0.0.1:{port}/v1/chat/completions"
    try:
        async with httpx.AsyncClient(timeout=120) as client:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if (await client.get(f"http://127.0.0.1:{port}/v1/models")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("llama_cpp.server did not start")
                await asyncio.sleep(0.1)

            def body(messages: list[ChatMessage], max_tokens: int) -> dict[str, object]:
                return {
                    "model": "m",
                    "messages": messages,
                    "max_tokens": max_tokens,
                    "temperature": 0,
                    "stream": True,
                }

            async def tiny_request_seconds() -> float:
                started = time.perf_counter()
                async with client.stream("POST", url, json=body(TINY, 1)) as response:
                    async for _ in response.aiter_lines():
                        pass
                return time.perf_counter() - started

            async def after_other() -> float:
                async with client.stream("POST", url, json=body(long_prompt(f"o{random.random()}", 40), 1)) as r:
                    async for _ in r.aiter_lines():
                        pass
                return await tiny_request_seconds()

            await tiny_request_seconds()
            baseline = statistics.median([await after_other() for _ in range(5)])

            async def stopped_request(
                messages: list[ChatMessage], close_when: Callable[[int], Awaitable[bool]]
            ) -> float:
                """Stream, close the connection when told; return seconds from close to server idle."""
                chunks = 0
                async with client.stream("POST", url, json=body(messages, 2000)) as response:
                    async for line in response.aiter_lines():
                        if line.startswith("data:") and "content" in line:
                            chunks += 1
                        if await close_when(chunks):
                            break
                        if line.startswith("data: [DONE]"):
                            raise RuntimeError("finished before the stop")
                closed_at = time.perf_counter()  # leaving the block closed the connection
                return time.perf_counter() - closed_at + await tiny_request_seconds()

            decode_idle = []
            for _ in range(trials):

                async def after_20(chunks: int) -> bool:
                    return chunks >= 20

                decode_idle.append(await stopped_request(long_prompt("d", 50), after_20))

            prompt_idle = []
            for i in range(trials):
                delay = random.uniform(0.05, 0.6) * prompt_seconds
                closed_at = await _close_during_prompt(client, url, body(long_prompt(f"s{i}"), 50), delay)
                prompt_idle.append(time.perf_counter() - closed_at + await tiny_request_seconds())
    finally:
        process.terminate()
        process.wait(timeout=30)
    return decode_idle, prompt_idle, baseline


async def _close_during_prompt(client: httpx.AsyncClient, url: str, body: dict[str, object], delay: float) -> float:
    """Send the request and close the connection after ``delay`` s, before any token; return when it
    closed."""

    async def send() -> None:
        async with client.stream("POST", url, json=body) as response:
            async for line in response.aiter_lines():
                if line.startswith("data:") and json.loads(line[5:]).get("choices", [{}])[0].get("delta", {}).get(
                    "content"
                ):
                    raise RuntimeError("a token arrived before the stop: raise the prompt size")

    task = asyncio.create_task(send())
    await asyncio.sleep(delay)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return time.perf_counter()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None, help="GGUF file (default: the bundled SmolLM2)")
    parser.add_argument("--threads", type=int, default=default_n_threads(), help="n_threads (default: cores - 1)")
    parser.add_argument("--trials", type=int, default=20, help="stops measured per phase and backend")
    parser.add_argument("--skip-server", action="store_true", help="measure ours only")
    args = parser.parse_args()
    model = args.model or bundled_model_path()
    random.seed(1)

    print(f"model: {model.name}   n_threads: {args.threads}   n_ctx: {N_CTX}   n_batch: {N_BATCH}")
    ours = await measure_ours(model, args.threads, args.trials)
    print(
        f"ours: prompt {ours.prompt_tokens / ours.prompt_seconds:.0f} tokens/s ({ours.prompt_tokens} tokens "
        f"in {ours.prompt_seconds:.2f} s), decode {ours.decode_tps:.1f} tokens/s"
    )
    rows = [
        ("ours: stop event → call returned", ours.decode_return, ours.prompt_return),
        (
            "ours: stop event → follow-up 1-token request answered "
            f"(alone: {ours.warm_baseline * 1000:.0f} ms warm, {ours.cold_baseline * 1000:.0f} ms cold)",
            ours.decode_idle,
            ours.prompt_idle,
        ),
    ]
    if not args.skip_server:
        decode_idle, prompt_idle, alone = await measure_server(model, args.threads, args.trials, ours.prompt_seconds)
        rows.append(
            (
                "llama_cpp.server: connection closed → follow-up 1-token request answered "
                f"(alone: {alone * 1000:.0f} ms)",
                decode_idle,
                prompt_idle,
            )
        )
    print(f"\nstop latency, p50 / p95 in ms, {args.trials} trials per cell\n")
    print("| backend and measure | during decode | during prompt processing |")
    print("| --- | --- | --- |")
    for label, decode, prompt in rows:
        print(f"| {label} | {ms(decode)} | {ms(prompt)} |")


if __name__ == "__main__":
    asyncio.run(main())
