"""A tiny GGUF model whose output is fixed by construction, for tests and benchmarks.

With greedy decoding any chat prompt answers ``"abcdefghijklmnopqrstuvwxyz abc…"`` (with a ``phrase``, that phrase
in a cycle: :func:`expected_phrase_reply`). Writing needs the ``gguf`` package (a test dependency); the daemon never
imports this module. Construction: docs/design/model-backends.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from gguf import GGUFWriter, TokenType

__all__ = [
    "CHATML_TEMPLATE",
    "TINY_ALPHABET_CYCLE",
    "TINY_ARCHITECTURES",
    "TinyModelShape",
    "expected_phrase_reply",
    "expected_tiny_reply",
    "requantize",
    "write_tiny_model",
]

CHATML_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""The chat template stored in the tiny model (ChatML, the same family as SmolLM2's)."""

TINY_ALPHABET_CYCLE = "abcdefghijklmnopqrstuvwxyz "
"""What the tiny model writes, repeated: each letter's successor is the next one, ``z`` → space → ``a``."""

SUCCESSOR_LOGIT = 10.0
_BOS, _IM_START, _IM_END = 256, 257, 258
_NUL_PAIR = 259  # the one merge (two NUL bytes): llama.cpp wants a non-empty merge list
_N_VOCAB = 260


class TinyModelShape:
    """Dimensions of the tiny model. Wider or deeper makes prompt processing slower (stop tests), not
    different.

    Attributes:
        n_embd: Embedding width; at least the vocabulary size + 1 (one-hot embeddings plus the bias
            dimension).
        n_layer: Number of transformer blocks.
        n_head: Attention heads (``n_embd`` must be a multiple of it).
        n_ff: Feed-forward width.
        n_ctx_train: Context length written into the metadata.
    """

    def __init__(
        self, n_embd: int = 384, n_layer: int = 2, n_head: int = 6, n_ff: int = 512, n_ctx_train: int = 8192
    ) -> None:
        if n_embd < _N_VOCAB + 1 or n_embd % n_head:
            raise ValueError("n_embd must exceed the vocabulary size and be a multiple of n_head")
        self.n_embd, self.n_layer, self.n_head, self.n_ff, self.n_ctx_train = (
            n_embd,
            n_layer,
            n_head,
            n_ff,
            n_ctx_train,
        )


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2's reversible byte → printable character map, which llama.cpp's BPE tokenizer decodes."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    mapping: dict[int, str] = {}
    extra = 0
    for byte in range(256):
        if byte in printable:
            mapping[byte] = chr(byte)
        else:
            mapping[byte] = chr(256 + extra)
            extra += 1
    return mapping


def _successors(phrase: Sequence[str] = ()) -> dict[int, int]:
    """token id → designed next token id (with a ``phrase``: its words, one token each, in a cycle)."""
    succ = {ord(a): ord(b) for a, b in zip(TINY_ALPHABET_CYCLE, TINY_ALPHABET_CYCLE[1:] + "a", strict=True)}
    succ[ord("\n")] = ord("a")
    if phrase:
        ids = [_N_VOCAB + i for i in range(len(phrase))]
        succ[ord("\n")] = ids[0]
        succ.update(zip(ids, ids[1:] + ids[:1], strict=True))
    # Under a JSON grammar: close an integer array after its first item, and an object array after its first
    # item.
    succ[ord("1")] = ord("]")
    succ[ord("}")] = ord("]")
    return succ


def _preferences(n_vocab: int = _N_VOCAB) -> np.ndarray:
    """Per-token preference used when the successor is not allowed (by a grammar). No two tokens tie."""
    bias = -0.001 * np.arange(n_vocab, dtype=np.float32)
    bias[_N_VOCAB:] = -2.0  # phrase tokens: never chosen under a grammar
    for char, value in {
        "a": 1.0,
        '"': 0.9,
        "t": 0.5,
        "1": 0.4,
        "{": 0.35,
        ",": 0.32,
        "]": 0.3,
        "}": 0.29,
    }.items():
        bias[ord(char)] = value
    for char in " \n\t\r":
        bias[ord(char)] = -1.0
    bias[_IM_END] = 0.2
    bias[_BOS] = bias[_IM_START] = bias[_NUL_PAIR] = -2.0
    return bias


TINY_ARCHITECTURES = ("llama", "mistral3", "qwen2", "qwen3")
"""The architectures :func:`write_tiny_model` writes: the same designed network, with each one's own tensors (``qwen2``:
attention biases; ``qwen3``: per-head query and key norms), all zero or one so that the output stays the same."""


def write_tiny_model(
    path: Path,
    shape: TinyModelShape | None = None,
    *,
    phrase: Sequence[str] = (),
    architecture: str = "llama",
    chat_template: str = CHATML_TEMPLATE,
) -> Path:
    """Write the tiny model to ``path`` (a ``.gguf`` file) and return the path.

    Args:
        path: Destination file; its directory must exist.
        shape: Dimensions; the default makes a ~5 MB file whose 3,000-token prompt takes a fraction of a
            second.
        phrase: Pieces of text (``["The", " cell", …]``), one token each: the model then answers every chat
            prompt with the pieces joined, over and over (a model that repeats itself), see
            :func:`expected_phrase_reply`. Structured outputs stay as without a phrase.
        architecture: One of :data:`TINY_ARCHITECTURES`, or any other name for a file llama.cpp must refuse
            (written as a llama network under that name).
        chat_template: The chat template stored in the file.

    Returns:
        ``path``.
    """
    shape = shape or TinyModelShape()
    n_vocab = _N_VOCAB + len(phrase)
    if len(set(phrase)) != len(phrase) or any(len(piece.encode("utf-8")) < 2 for piece in phrase):
        raise ValueError("phrase pieces must be distinct and longer than one byte (bytes have their own tokens)")
    if shape.n_embd < n_vocab + 1:
        raise ValueError("n_embd must exceed the vocabulary size, phrase tokens included")
    writer = GGUFWriter(str(path), architecture)
    _add_architecture(writer, shape, n_vocab)
    _add_tokenizer(writer, phrase, chat_template)
    _add_tensors(writer, shape, n_vocab, phrase)
    _add_architecture_tensors(writer, shape, architecture)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def _add_architecture(writer: GGUFWriter, shape: TinyModelShape, n_vocab: int) -> None:
    """The llama architecture's metadata: dimensions of ``shape``, all tensors F32."""
    n_embd = shape.n_embd
    writer.add_name("studyjobs-tiny-successor")
    writer.add_context_length(shape.n_ctx_train)
    writer.add_embedding_length(n_embd)
    writer.add_block_count(shape.n_layer)
    writer.add_feed_forward_length(shape.n_ff)
    writer.add_head_count(shape.n_head)
    writer.add_head_count_kv(shape.n_head)
    writer.add_rope_dimension_count(n_embd // shape.n_head)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_vocab_size(n_vocab)
    writer.add_file_type(0)  # all F32


def _add_tokenizer(writer: GGUFWriter, phrase: Sequence[str], chat_template: str) -> None:
    """The byte-level BPE vocabulary (one token per byte, the control tokens, the one merge, the phrase's pieces)
    and the ChatML template."""
    byte_chars = _bytes_to_unicode()
    nul = byte_chars[0]
    tokens = [byte_chars[b] for b in range(256)] + ["<|endoftext|>", "<|im_start|>", "<|im_end|>", nul + nul]
    tokens += ["".join(byte_chars[b] for b in piece.encode("utf-8")) for piece in phrase]
    types = [TokenType.NORMAL] * 256 + [TokenType.CONTROL] * 3 + [TokenType.NORMAL] * (1 + len(phrase))
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges([f"{nul} {nul}"])
    writer.add_bos_token_id(_BOS)
    writer.add_eos_token_id(_IM_END)
    writer.add_pad_token_id(_BOS)
    writer.add_add_bos_token(False)
    writer.add_chat_template(chat_template)


def _add_tensors(writer: GGUFWriter, shape: TinyModelShape, n_vocab: int, phrase: Sequence[str]) -> None:
    """The designed weights: one-hot embeddings plus the bias dimension, the successor output matrix, zero
    attention and feed-forward blocks."""
    n_embd, n_ff = shape.n_embd, shape.n_ff
    bias_dim = n_embd - 1
    embed = np.zeros((n_vocab, n_embd), dtype=np.float32)
    embed[np.arange(n_vocab), np.arange(n_vocab)] = 1.0
    embed[:, bias_dim] = 1.0
    output = np.zeros((n_vocab, n_embd), dtype=np.float32)
    for token, nxt in _successors(phrase).items():
        output[nxt, token] += SUCCESSOR_LOGIT
    output[:, bias_dim] = _preferences(n_vocab)

    writer.add_tensor("token_embd.weight", embed)
    writer.add_tensor("output_norm.weight", np.ones(n_embd, dtype=np.float32))
    writer.add_tensor("output.weight", output)
    for i in range(shape.n_layer):
        writer.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(n_embd, dtype=np.float32))
        writer.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(n_embd, dtype=np.float32))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            writer.add_tensor(f"blk.{i}.{name}.weight", np.zeros((n_embd, n_embd), dtype=np.float32))
        writer.add_tensor(f"blk.{i}.ffn_gate.weight", np.zeros((n_ff, n_embd), dtype=np.float32))
        writer.add_tensor(f"blk.{i}.ffn_up.weight", np.zeros((n_ff, n_embd), dtype=np.float32))
        writer.add_tensor(f"blk.{i}.ffn_down.weight", np.zeros((n_embd, n_ff), dtype=np.float32))


def _add_architecture_tensors(writer: GGUFWriter, shape: TinyModelShape, architecture: str) -> None:
    """The tensors an architecture has beyond llama's: zero biases (``qwen2``), unit query/key norms (``qwen3``)."""
    n_embd, head_dim = shape.n_embd, shape.n_embd // shape.n_head
    for i in range(shape.n_layer):
        if architecture == "qwen2":
            for name in ("attn_q", "attn_k", "attn_v"):
                writer.add_tensor(f"blk.{i}.{name}.bias", np.zeros(n_embd, dtype=np.float32))
        if architecture == "qwen3":
            for name in ("attn_q_norm", "attn_k_norm"):
                writer.add_tensor(f"blk.{i}.{name}.weight", np.ones(head_dim, dtype=np.float32))


def expected_tiny_reply(n_tokens: int) -> str:
    """What the tiny model answers to any chat prompt with greedy decoding and ``max_tokens=n_tokens``."""
    cycle = TINY_ALPHABET_CYCLE
    return (cycle * (n_tokens // len(cycle) + 1))[:n_tokens]


def expected_phrase_reply(phrase: Sequence[str], n_tokens: int) -> str:
    """What a tiny model written with ``phrase`` answers with greedy decoding and ``max_tokens=n_tokens``."""
    return "".join(phrase[i % len(phrase)] for i in range(n_tokens))


_QUANTIZE = r"""
import sys
import llama_cpp
params = llama_cpp.llama_model_quantize_default_params()
params.ftype = getattr(llama_cpp, "LLAMA_FTYPE_MOSTLY_" + sys.argv[3])
params.allow_requantize = True
params.nthread = 1
sys.exit(llama_cpp.llama_model_quantize(sys.argv[1].encode(), sys.argv[2].encode(), params))
"""


def requantize(source: Path, target: Path, kind: str = "Q8_0") -> Path:
    """``source`` re-quantized by llama.cpp to ``kind`` (``Q8_0``, ``Q4_0`` …) at ``target``, in a child process
    (llama.cpp prints every tensor). Raises :class:`RuntimeError` when llama.cpp fails."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _QUANTIZE, str(source), str(target), kind], capture_output=True, text=True, check=False
    )
    if done.returncode != 0 or not target.is_file():
        raise RuntimeError(f"re-quantizing {source.name} to {kind} failed: {done.stderr.strip()[-500:]}")
    return target
