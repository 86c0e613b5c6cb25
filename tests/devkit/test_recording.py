""":class:`devkit.recording.RecordingGenerator` on the real tiny model: every call and every written token is
recorded, a retry generator records into the same record, and the answers are the model's own."""

from __future__ import annotations

from pydantic import BaseModel, Field

from daemon.llm.llamacpp import LlamaCppGenerator
from daemon.llm.sampling import retry_sampling
from devkit.recording import RecordingGenerator
from devkit.tiny_gguf import expected_tiny_reply


class Word(BaseModel):
    word: str = Field(max_length=8)


async def test_calls_tokens_and_messages_are_recorded_and_a_retry_generator_shares_the_record(
    tiny: LlamaCppGenerator,
) -> None:
    recording = RecordingGenerator(tiny)
    asked = [{"role": "user", "content": "Say something."}]
    assert await recording.chat(asked, max_tokens=12) == expected_tiny_reply(12)
    assert (recording.record.chats, recording.record.completion_tokens) == (1, 12)
    seen: list[int] = []
    await recording.chat(asked, max_tokens=5, on_token=lambda progress: seen.append(progress.completion_tokens))
    assert seen[-1] == 5 and recording.record.completion_tokens == 17  # the caller's callback still hears each token
    answer = await recording.chat_structured(asked, Word, max_tokens=40)
    assert answer.word
    retry = recording.with_sampling(retry_sampling(tiny.sampling))
    assert retry is not recording and retry.record is recording.record
    assert retry.sampling == retry_sampling(tiny.sampling)
    await retry.chat(asked, max_tokens=3)
    record = recording.record
    assert (record.chats, record.structured, record.calls) == (3, 1, 4)
    assert record.completion_tokens > 17 + 3  # the structured answer's tokens too
    assert record.sent == [asked] * 4
    assert recording.context_window == tiny.context_window
    assert await recording.count_tokens("abc") == await tiny.count_tokens("abc")
