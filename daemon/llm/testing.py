"""A tiny GGUF model whose output is fixed by construction, for tests and benchmarks.

The model is a real llama-architecture network that llama.cpp loads and runs like any other; only its weights
are designed instead of trained, so that every output is known in advance and does not depend on rounding:

* The vocabulary is byte-level BPE with no merges: one token per byte (token id = byte value), plus three
  control tokens (``<|endoftext|>``, ``<|im_start|>``, ``<|im_end|>``), one merged token and a ChatML chat
  template.
* Attention and feed-forward weights are zero, so the residual stream carries the token embedding unchanged.
  They still cost real compute: prompt processing of a long prompt takes as long as for a random model of the
  same shape, which is what the stop tests need.
* Embeddings are one-hot plus one shared "bias" dimension; the output matrix maps each token onto its designed
  successor with a large margin (``SUCCESSOR_LOGIT``) and adds a small per-token preference (the bias).

With greedy decoding the answer to any chat prompt is therefore ``"abcdefghijklmnopqrstuvwxyz abc…"`` (the
template ends with a newline, whose successor is ``a``), cut at ``max_tokens``. Under a grammar the model
picks the allowed token with the best successor/preference score, so structured outputs are fixed as well:
strings run ``abc…`` up to their ``maxLength``, booleans are ``true``, arrays hold one item, integers are
``1``.

Writing needs the ``gguf`` package (a test dependency); this module is never imported by the daemon itself.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gguf import GGUFWriter, TokenType

__all__ = [
    "CHATML_TEMPLATE",
    "TINY_ALPHABET_CYCLE",
    "TinyModelShape",
    "expected_tiny_reply",
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


def _successors() -> dict[int, int]:
    """token id → designed next token id."""
    succ = {ord(a): ord(b) for a, b in zip(TINY_ALPHABET_CYCLE, TINY_ALPHABET_CYCLE[1:] + "a", strict=True)}
    succ[ord("\n")] = ord("a")
    # Under a JSON grammar: close an integer array after its first item, and an object array after its first
    # item.
    succ[ord("1")] = ord("]")
    succ[ord("}")] = ord("]")
    return succ


def _preferences() -> np.ndarray:
    """Per-token preference used when the successor is not allowed (by a grammar). No two tokens tie."""
    bias = -0.001 * np.arange(_N_VOCAB, dtype=np.float32)
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


def write_tiny_model(path: Path, shape: TinyModelShape | None = None) -> Path:
    """Write the tiny model to ``path`` (a ``.gguf`` file) and return the path.

    Args:
        path: Destination file; its directory must exist.
        shape: Dimensions; the default makes a ~5 MB file whose 3,000-token prompt takes a fraction of a
            second.

    Returns:
        ``path``.
    """
    shape = shape or TinyModelShape()
    n_embd, n_ff = shape.n_embd, shape.n_ff
    writer = GGUFWriter(str(path), "llama")
    writer.add_name("studyjobs-tiny-successor")
    writer.add_context_length(shape.n_ctx_train)
    writer.add_embedding_length(n_embd)
    writer.add_block_count(shape.n_layer)
    writer.add_feed_forward_length(n_ff)
    writer.add_head_count(shape.n_head)
    writer.add_head_count_kv(shape.n_head)
    writer.add_rope_dimension_count(n_embd // shape.n_head)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_vocab_size(_N_VOCAB)
    writer.add_file_type(0)  # all F32

    byte_chars = _bytes_to_unicode()
    nul = byte_chars[0]
    tokens = [byte_chars[b] for b in range(256)] + ["<|endoftext|>", "<|im_start|>", "<|im_end|>", nul + nul]
    types = [TokenType.NORMAL] * 256 + [TokenType.CONTROL] * 3 + [TokenType.NORMAL]
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges([f"{nul} {nul}"])
    writer.add_bos_token_id(_BOS)
    writer.add_eos_token_id(_IM_END)
    writer.add_pad_token_id(_BOS)
    writer.add_add_bos_token(False)
    writer.add_chat_template(CHATML_TEMPLATE)

    bias_dim = n_embd - 1
    embed = np.zeros((_N_VOCAB, n_embd), dtype=np.float32)
    embed[np.arange(_N_VOCAB), np.arange(_N_VOCAB)] = 1.0
    embed[:, bias_dim] = 1.0
    output = np.zeros((_N_VOCAB, n_embd), dtype=np.float32)
    for token, nxt in _successors().items():
        output[nxt, token] += SUCCESSOR_LOGIT
    output[:, bias_dim] = _preferences()

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

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def expected_tiny_reply(n_tokens: int) -> str:
    """What the tiny model answers to any chat prompt with greedy decoding and ``max_tokens=n_tokens``."""
    cycle = TINY_ALPHABET_CYCLE
    return (cycle * (n_tokens // len(cycle) + 1))[:n_tokens]
