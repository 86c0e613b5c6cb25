"""The time a ``generate`` job has left, from the tokens it still has to read and write (:class:`GenerateEstimate`):
the tracker's estimate, the ``ingest`` job's follow-up time and the window's "a guide of 50 pages" alike.

One instance per job, used from one thread (the job's loop). The rules and their reasons: docs/design/timing.md,
"The estimate of a generate job".
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import replace

from core.app.guide_estimate_steps import NEARLY_FULL
from core.app.guide_estimate_steps import Step as _Step
from core.app.guide_estimate_steps import Tally as _Tally
from core.app.guide_estimate_steps import left_in_try as _left_in_try
from core.app.guide_estimate_steps import pace as _pace
from core.app.guide_estimate_steps import tokens_per_listed_section as _tokens_per_listed_section
from core.app.guide_estimate_steps import typical_length as _typical
from core.app.guide_progress import PROMPT_OVERHEAD_TOKENS, GuideProgress, GuideShape
from core.app.speeds import Speeds

__all__ = ["LOADED_SECONDS", "GenerateEstimate"]

LOADED_SECONDS = 0.01
"""``load_model`` when the worker holds the model already."""
_MIN_PROMPT_SECONDS = 0.2  # a prompt rate from less time than this is noise
_MIN_DECODE_TOKENS = 8  # likewise for a decode rate
_FADE = 0.5  # how much of the measurements so far a finished step leaves (recent pace counts most)
_SWING = 2.0  # the running step moves a rate measured before it at most this many times up or down
_FULL_RETRY = 0.5  # the least chance of a second try once a first one wrote (nearly) its whole budget
_PASSAGE_LABEL_TOKENS = 8  # "[n] " and the blank line, per passage (the writer's figure)
_CHARS_PER_PASSAGE = 650.0  # without the text: split_passages made a median of 650 characters per passage of prose
_BAR_KEYS = ("outline", "section")
_MAX_TRIES = 2  # a section's text is written at most twice (daemon.llm.guard)
_STEP_CEILING = 0.95  # the most of a running step the bar shows done


class GenerateEstimate:
    """Seconds left for one ``generate`` job (or expected for one yet to run).

    Args:
        speeds: The remembered or calibrated speeds; ``None`` when there is no basis (a server model never
            measured): the estimate then waits for this job's own measurements.
        writer: The writer the job uses (its token budgets and the model's context window).
        model_bytes: The model file's size (0 for a server model).
        loaded: Whether the model is in memory already.
    """

    def __init__(self, speeds: Speeds | None, writer: GuideShape, *, model_bytes: int, loaded: bool) -> None:
        self.prior = speeds
        self.writer = writer
        self.model_bytes = model_bytes
        self.loaded = loaded
        self.chars = 0
        self.text_tokens: float | None = None  # counted once the model is loaded
        self.passages = 0
        self.sections: int | None = None  # known once the outline is done
        self.section_chars: list[int] = []  # the source characters of each section, once the outline is done
        self.step: _Step | None = None
        self.prompt = _Tally()
        self.decode = {key: _Tally() for key in _BAR_KEYS}
        self.written = {key: _Tally() for key in _BAR_KEYS}  # steps finished (tokens) and how many (seconds)
        self.tries = _Tally()  # sections finished (seconds) and their tries (tokens)
        self.lengths: dict[tuple[str, int], list[int]] = defaultdict(list)  # tokens of each finished try, by try
        self.load_seconds: float | None = None
        self.last_token: float | None = None  # when the model last reported (its last token, in the end)

    # -- what the job tells it ------------------------------------------------------------------------------

    def prepare(self, *, chars: int | None = None, passages: int | None = None, tokens: int | None = None) -> None:
        """The document: its size in characters and, best, its passages as the writer cuts them (else guessed
        from the size); ``tokens`` once the model counted."""
        if chars is not None:
            self.chars = chars
            self.passages = passages if passages is not None else max(round(chars / _CHARS_PER_PASSAGE), 1)
        if tokens is not None:
            self.text_tokens = float(tokens)

    def model_loaded(self, seconds: float) -> None:
        """The ``load_model`` phase took ``seconds`` (a cold load teaches the disk's speed)."""
        if not self.loaded:
            self.load_seconds = seconds
        self.loaded = True

    def outlined(self, section_chars: list[int]) -> None:
        """The outline is done: one entry per section, the characters of the passages it is written from."""
        self.finish()
        self.section_chars = list(section_chars)
        self.sections = max(len(section_chars), 1)

    def finish(self, now: float | None = None) -> None:
        """The running step (if any) has ended: count it."""
        if self.step is not None:
            self._close(self.step, time.monotonic() if now is None else now)
            self.step = None

    def on_progress(self, progress: GuideProgress, now: float | None = None) -> None:
        """A writer's report (call it before writing the row, so that the write carries the new estimate)."""
        now = time.monotonic() if now is None else now
        if progress.phase == "section" and not self.writer.summaries:  # quoted sections: no model step to time
            self.sections = progress.steps
            return
        current = self.step
        if current is None or (current.phase, current.step) != (progress.phase, progress.step):
            if current is not None:
                self._close(current, now)
            began = self.last_token if self.last_token is not None else now  # the work between steps counts too
            current = self.step = _Step(
                progress.phase, progress.step, progress.steps, progress.prompt_tokens, progress.token_budget, began
            )
            if progress.phase == "section":
                self.sections = progress.steps
        current.prompt_tokens = progress.prompt_tokens or current.prompt_tokens
        if progress.tokens == 0 and progress.prompt_read:  # a batch of the prompt read (a second try's: cached)
            if current.first_token is None:
                current.reading(progress.prompt_read, now)
            return
        if 1 <= progress.tokens < current.tokens:  # the step's text was rejected: a second try has begun
            self._count_decode(current)
            current.earlier_tokens += current.tokens
            current.attempt += 1
            current.first_token = now  # its prompt came from the cache: no prompt time to count
        elif progress.tokens >= 1 and current.first_token is None:
            current.first_token, current.read = now, now - current.started
            self.prompt.tokens = self.prompt.tokens * _FADE + current.prompt_tokens
            self.prompt.seconds = self.prompt.seconds * _FADE + now - current.started
        current.tokens = progress.tokens
        current.last_at = self.last_token = now

    def _close(self, step: _Step, now: float) -> None:
        """A step ended (the next one began): count its decode time and what it wrote."""
        self._count_decode(step, now)
        written = self.written[step.phase]
        written.tokens += step.written
        written.seconds += 1
        if step.phase == "section":
            self.tries.tokens += step.attempt
            self.tries.seconds += 1

    def _count_decode(self, step: _Step, now: float | None = None) -> None:
        """Count the running try: its length, and its decode pace (its tokens after the first, from the first to
        the last, or to ``now``)."""
        end = step.last_at if now is None else now
        if step.tokens >= 1:
            self.lengths[step.phase, step.attempt].append(step.tokens)
        if step.first_token is not None and end is not None and step.tokens > 1:
            tally = self.decode[step.phase]
            tally.tokens = tally.tokens * _FADE + step.tokens - 1
            tally.seconds = tally.seconds * _FADE + end - step.first_token

    # -- the figures ------------------------------------------------------------------------------------------

    def speeds(self) -> Speeds | None:
        """The best speeds now: this job's measurements where it has them, the prior moved by this job's pace
        elsewhere; ``None`` when there is no basis at all."""
        prompt_rate = self.prompt.rate(1, _MIN_PROMPT_SECONDS)
        step = self.step if self.step is not None and self.step.first_token is None else None
        reading = step.reading_rate(_MIN_PROMPT_SECONDS) if step is not None else None
        so_far = self._prompt_so_far()  # the running prompt may take longer than the figures say
        if reading is not None:  # the running prompt's batches: how fast this machine reads now, either way
            prompt_rate = min(max(reading, prompt_rate / _SWING), prompt_rate * _SWING) if prompt_rate else reading
        elif so_far is not None and prompt_rate is not None:  # this job's own rate: moved at most 2×
            prompt_rate = min(prompt_rate, max(so_far, prompt_rate / _SWING))
        elif so_far is not None and so_far < (self.prior.prompt_rate if self.prior else math.inf):
            prompt_rate = so_far
        decode = {key: self._decode_rate(key) for key in _BAR_KEYS}
        prior = self.prior
        if prior is None:
            if prompt_rate is None or (decode["section"] is None and decode["outline"] is None):
                return None
            section = decode["section"] or (decode["outline"] or 0.0) * 1.4
            outline = decode["outline"] or section / 1.4
            prior = Speeds(prompt_rate, outline, section, 60.0, 0.9 * self.writer.section_tokens, 0.33, 2.3, 4e8)
        pace = _pace(prior, prompt_rate, decode)
        speeds = prior.faster(pace) if pace != 1.0 else prior
        habits = self._habits(prior)
        return replace(
            speeds,
            prompt_rate=prompt_rate or speeds.prompt_rate,
            outline_decode_rate=decode["outline"] or speeds.outline_decode_rate,
            section_decode_rate=decode["section"] or speeds.section_decode_rate,
            **habits,
        )

    def _prompt_so_far(self) -> float | None:
        """The running step's prompt tokens ÷ the time it has read them, before its first token: the true prompt
        rate is at most this. ``None`` before a step, after its first token, or in its first moments."""
        step = self.step
        if step is None or step.first_token is not None or not step.prompt_tokens:
            return None
        read = time.monotonic() - step.started
        return step.prompt_tokens / read if read >= _MIN_PROMPT_SECONDS else None

    def _decode_rate(self, key: str) -> float | None:
        """The finished tries' pace (recent ones count most) with the running try's, which moves it at most
        :data:`_SWING` times either way."""
        tally = self.decode[key]
        before = tally.rate(_MIN_DECODE_TOKENS, 0.01)
        step = self.step
        if step is None or step.phase != key or step.first_token is None or step.tokens <= 1:
            return before
        both = _Tally(tally.tokens + step.tokens - 1, tally.seconds + time.monotonic() - step.first_token)
        rate = both.rate(_MIN_DECODE_TOKENS, 0.01)
        if rate is None or before is None:
            return rate or before
        return min(max(rate, before / _SWING), before * _SWING)

    def _habits(self, prior: Speeds) -> dict[str, float]:
        """Tokens per step and sections per chunk as this job has shown them so far."""
        habits: dict[str, float] = {}
        if self.written["outline"].seconds:
            habits["outline_tokens"] = max(self.written["outline"].tokens / self.written["outline"].seconds, 1.0)
        if self.written["section"].seconds:
            habits["section_tokens"] = max(self.written["section"].tokens / self.written["section"].seconds, 1.0)
            habits["section_attempts"] = min(max(self.tries.tokens / self.tries.seconds, 1.0), 2.0)
        if self.lengths.get(("section", 2)):
            habits["retry_tokens"] = max(_typical(self.lengths, ("section", 2), 1.0), 1.0)
        if self.sections is not None and self.chars:
            habits["sections_per_chunk"] = self.sections / self._chunks(prior)
        elif self.step is not None and self.step.phase == "outline":  # the running chunk's outline so far
            listed = math.ceil(self.step.tokens / _tokens_per_listed_section(prior))
            habits["sections_per_chunk"] = max(prior.sections_per_chunk, float(listed))
        if self.text_tokens and self.chars:
            habits["chars_per_token"] = self.chars / self.text_tokens
        return habits

    def learned(self) -> Speeds | None:
        """What this job measured (over the prior where it measured nothing), to remember for the next jobs."""
        speeds = self.speeds()
        if speeds is None:
            return None
        if self.load_seconds is not None and self.model_bytes and self.load_seconds > 0.01:
            speeds = replace(speeds, load_bytes_per_second=self.model_bytes / self.load_seconds)
        if self.last_token is not None:  # called when the job's work is done: the time since its last token
            speeds = replace(speeds, finish_seconds=max(time.monotonic() - self.last_token, 0.01))
        return speeds

    # -- the estimate ---------------------------------------------------------------------------------------

    def expected_seconds(self) -> float | None:  # the whole job's, before it starts
        return self.remaining("load_model", 0.0, None)

    def remaining(self, phase: str, elapsed: float, done: float | None) -> float | None:
        """Seconds left for the job in ``phase`` after ``elapsed`` seconds in it (:data:`core.tracker.Estimate`).

        A count that says the phase is done (``done`` 1) while one of its steps still runs is not believed: the
        last section's first try may write its whole budget and then be rejected. The job calls :meth:`finish`
        when the writer returns; from then on (and in ``export``) what is left is the rest of
        :attr:`Speeds.finish_seconds`, counted from the model's last token."""
        speeds = self.speeds()
        if speeds is None or not self.chars:
            return None
        running = self.step is not None and self.step.phase == ("outline" if phase == "outline" else "section")
        if phase == "export" or (phase == "sections" and done is not None and done >= 1.0 and not running):
            since = time.monotonic() - self.last_token if self.last_token is not None else 0.0
            return max(speeds.finish_seconds - since, 0.1 * speeds.finish_seconds)
        if done is not None and done >= 1.0 and not running:  # the phase has just ended
            return self._after(phase, speeds)
        if phase == "load_model":
            load = self.phase_seconds(phase, speeds)
            return max(load - elapsed, 0.1 * load) + self._after(phase, speeds)
        step, key = self.step, ("outline" if phase == "outline" else "section")
        if step is None or step.phase != key:  # between the phase's start and its first step
            total = self.phase_seconds(phase, speeds)
            return max(total - elapsed, 0.9 * total) + self._after(phase, speeds)
        left_in_step = self._step_left(step, speeds)
        later = sum(self._step_seconds(key, speeds, n) for n in range(step.step + 1, self._steps(key, speeds) + 1))
        return left_in_step + later + self._after(phase, speeds)

    def phase_done(self) -> float | None:
        """The share of the running phase (``outline`` or ``sections``) done: its finished steps, and of the running
        step the seconds of work done (its prompt read so far, or read and the tokens written) over those and the
        seconds still expected (a second try included: the time left's figures), below :data:`_STEP_CEILING` of
        it. ``None`` before a step."""
        step, speeds = self.step, self.speeds()
        if step is None or speeds is None:
            return None
        left, rate = self._tokens_left(step, speeds)
        if step.first_token is None:  # its prompt is being read: the seconds that has taken so far
            now = time.monotonic()
            done, later = now - step.started, step.prompt_left(speeds.prompt_rate, now) + left / rate
        else:  # seconds of the step's work: its prompt read, its tokens written
            done, later = step.read + step.written / rate, left / rate
        within = done / (done + later) if done + later > 0 else 0.0
        return (step.step - 1 + min(within, _STEP_CEILING)) / max(step.steps, 1)

    def _after(self, phase: str, speeds: Speeds) -> float:
        """The expected seconds of the phases after ``phase``."""
        order = ("load_model", "outline", "sections", "export")
        later = order[order.index(phase) + 1 :] if phase in order else ()
        return sum(self.phase_seconds(name, speeds) for name in later)

    def phase_seconds(self, phase: str, speeds: Speeds) -> float:
        """The expected seconds of the whole of ``phase`` at ``speeds`` (the job's bar is laid out with them)."""
        if phase == "load_model":
            return LOADED_SECONDS if self.loaded else self.model_bytes / speeds.load_bytes_per_second
        if phase == "export":
            return speeds.finish_seconds
        key = "outline" if phase == "outline" else "section"
        return sum(self._step_seconds(key, speeds, n) for n in range(1, self._steps(key, speeds) + 1))

    def _tokens(self, speeds: Speeds) -> float:
        return self.text_tokens if self.text_tokens else self.chars / speeds.chars_per_token

    def _section_room(self) -> float:
        """The most source tokens a section's prompt takes (the writer trims the rest)."""
        return float(self.writer.context_window - self.writer.section_tokens - PROMPT_OVERHEAD_TOKENS)

    def _chunks(self, speeds: Speeds) -> int:
        budget = self.writer.context_window - self.writer.outline_tokens - PROMPT_OVERHEAD_TOKENS
        needed = self._tokens(speeds) + _PASSAGE_LABEL_TOKENS * self.passages
        return max(math.ceil(needed / max(budget, 1)), 1)

    def _steps(self, key: str, speeds: Speeds) -> int:
        step = self.step
        if step is not None and step.phase == key:
            return step.steps
        chunks = self._chunks(speeds)
        if key == "outline":
            return chunks
        if self.sections is not None:
            return self.sections
        limit = max(min(chunks * self.writer.max_sections_per_chunk, self.passages), 1)
        return min(max(round(chunks * speeds.sections_per_chunk), chunks, 1), limit)

    def _step_seconds(self, key: str, speeds: Speeds, number: int) -> float:
        """The expected seconds of step ``number`` (1-based): its prompt read, its answer written (none for a
        section of a writer that quotes instead: it asks the model nothing)."""
        if key == "section" and not self.writer.summaries:
            return 0.0
        tokens = self._tokens(speeds) + _PASSAGE_LABEL_TOKENS * self.passages
        if key == "outline":
            prompt = tokens / self._chunks(speeds) + PROMPT_OVERHEAD_TOKENS
            answer = min(speeds.outline_tokens, self.writer.outline_tokens)
            return prompt / speeds.prompt_rate + answer / speeds.outline_decode_rate
        if 0 < number <= len(self.section_chars):  # its own passages, as the outline gave them
            source = min(self.section_chars[number - 1] / speeds.chars_per_token, self._section_room())
            prompt = source + PROMPT_OVERHEAD_TOKENS
        else:
            prompt = tokens / self._steps("section", speeds) + PROMPT_OVERHEAD_TOKENS
        answer = min(speeds.section_tokens, _MAX_TRIES * self.writer.section_tokens)
        return prompt / speeds.prompt_rate + answer / speeds.section_decode_rate

    def _step_left(self, step: _Step, speeds: Speeds) -> float:
        """The seconds left in the running step: the rest of its prompt, then :meth:`_tokens_left`."""
        tokens, rate = self._tokens_left(step, speeds)
        if step.first_token is None:
            return step.prompt_left(speeds.prompt_rate, time.monotonic()) + tokens / rate
        return tokens / rate

    def _tokens_left(self, step: _Step, speeds: Speeds) -> tuple[float, float]:
        """The tokens the running step is expected still to write, and at what rate: the rest of its running try,
        and for a section's first try the chance of a second one."""
        if step.phase == "outline":
            one, retry, second, rate = min(speeds.outline_tokens, step.budget), 0.0, 0.0, speeds.outline_decode_rate
        else:
            attempts = min(max(speeds.section_attempts, 1.0), float(_MAX_TRIES))
            budget, rate = float(step.budget), speeds.section_decode_rate
            second = min(speeds.retry_tokens, budget)
            first = min(max(speeds.section_tokens - (attempts - 1.0) * second, 0.1 * budget), budget)
            one = _typical(self.lengths, ("section", step.attempt), first if step.attempt == 1 else second)
            retry = 0.0
            if step.attempt < _MAX_TRIES:  # a text cut at its budget is most often one that repeats itself
                nearly = NEARLY_FULL * budget
                past = 1.0 if step.tokens >= nearly else (step.tokens - first) / max(nearly - first, 1.0)
                retry = max(attempts - 1.0, _FULL_RETRY * min(max(past, 0.0), 1.0))
        if step.first_token is None:
            return one + retry * second, rate
        per_section = _tokens_per_listed_section(self.prior or speeds)
        left = _left_in_try(step, self.lengths, one, per_section)
        return left + retry * second, rate
