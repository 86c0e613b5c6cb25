"""The time a ``generate`` job has left, from the tokens it still has to read and write (:class:`GenerateEstimate`):
the tracker's estimate, the ``ingest`` job's follow-up time and the window's "a guide of 50 pages" alike. The module
holds the whole estimate: the running step, the tallies its rates are measured with, the job's habits.

One instance per job, used from one thread (the job's loop). The rules and their reasons: docs/design/timing.md,
"The estimate of a generate job"; the figures they were measured with: docs/performance.md.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace

from core.app.guides.progress import PROMPT_OVERHEAD_TOKENS, GuideProgress, GuideShape
from core.app.timing.speeds import Speeds

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
_MAX_TRIES = 2  # a section's text is written at most twice (daemon.guide_writer.guard)
_STEP_CEILING = 0.95  # the most of a running step the bar shows done
_PLAN_CHARS_PER_SECOND = 500_000.0
"""Of the text, planned from the document's chapters (passages cut, each counted by the model's tokenizer, the
sections fitted): R-exts.pdf, 576,051 characters, in 1.04 s on the 2-core machine (docs/performance.md)."""
_QUOTE_CHARS_PER_SECOND = 75_000.0
_QUOTE_FULL_CHARS = 80_000.0
"""A writer without summaries quotes a section of ``c`` characters (its key passages picked and checked against
the guide so far) in ``c / _QUOTE_CHARS_PER_SECOND * min(c / _QUOTE_FULL_CHARS, 1)`` seconds: a short section goes
faster per character. Measured on the 2-core machine, idle and busy: refman.pdf's first section (900,000
characters) in 10 s, its 158 others (21,000 on average) in 10 to 27 s; R-exts.pdf's first (115,000) in 1.5 s, its
23 others in 1.2 to 4 s. This job's own pace replaces the figure once it has quoted for :data:`_MIN_QUOTE_SECONDS`."""
_COUNT_CHARS_PER_SECOND = 250_000.0
"""Of the text, counted by a local model's tokenizer in the ``load_model`` phase: refman.pdf's 4,332,860
characters in 17 s, R-intro.pdf's 222,259 (the model's cold load included) in 0.94 s, on the 2-core machine."""
_TERMS_CHARS_PER_SECOND = 200_000.0
"""Of the text, searched for each section's key terms before the first section is written (either writer):
R-exts.pdf's 576,051 characters in 0.6 to 1.7 s on the 2-core machine, a text of thousands of distinct words
(tests/daemon/worker/test_eta_quotes.py's book) in 4.7 s; the search holds the interpreter (its row is not written
meanwhile, the screen counts down), so the figure leans to the slow side. Counted in the quoting's work only (a
model's sections take minutes besides)."""
_QUOTE_SECTION_SECONDS = 0.02
"""Of each quoted section besides its text: its key terms and review questions, its part stored, its progress
written (a book of 107 sections of 5,400 characters: 2.1 s)."""
_MIN_QUOTE_SECONDS = 0.3
_NEARLY_FULL = 0.9
"""Of a step's token budget: a try that wrote this much was cut at its budget rather than ended by the model."""
_LOOP_RISE = 1.75
"""A section's try still running at a share ``s`` of its token budget runs on into it (a model repeating itself)
with a chance of ``s ** _LOOP_RISE``."""


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
        self.chapters: int | None = None  # sections the document's chapters give (0: the model outlines it)
        self.quoted_last: tuple[int, float] | None = None  # quoting sections: the latest begun, and when
        self.terms_searched: tuple[float, float] | None = None  # the key-term search: its share done, and when
        self.step: _Step | None = None
        self.prompt = _Tally()
        self.decode = {key: _Tally() for key in _BAR_KEYS}
        self.written = {key: _Tally() for key in _BAR_KEYS}  # steps finished (tokens) and how many (seconds)
        self.tries = _Tally()  # sections finished (seconds) and their tries (tokens)
        self.lengths: dict[tuple[str, int], list[int]] = defaultdict(list)  # tokens of each finished try, by try
        self.load_seconds: float | None = None
        self.last_token: float | None = None  # when the model last reported (its last token, in the end)

    # -- what the job tells it ------------------------------------------------------------------------------

    def prepare(
        self,
        *,
        chars: int | None = None,
        passages: int | None = None,
        tokens: int | None = None,
        chapters: int | None = None,
    ) -> None:
        """The document: its size in characters and, best, its passages as the writer cuts them (else guessed
        from the size); ``tokens`` once the model counted; ``chapters``, the sections its own chapters give (0: the
        model is asked for an outline), once its structure is known."""
        if chapters is not None:
            self.chapters = chapters
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
        if progress.phase == "terms":  # the key-term search before the sections: its own pace
            self.terms_searched = (progress.step / max(progress.steps, 1), now)
            return
        if progress.phase == "section" and not self.writer.summaries:  # quoted sections: timed by their text
            self.finish(now)
            self.sections = progress.steps
            self.quoted_last = (progress.step, now)
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
        if speeds is None or not self.chars or self._unknown_plan():
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
        if phase == "sections" and not self.writer.summaries:
            return self._quoting_left(elapsed) + self._after(phase, speeds)
        if phase == "outline" and self.chapters:  # the chapters are the sections: no model step
            total = self.phase_seconds(phase, speeds)
            return max(total - elapsed, 0.1 * total) + self._after(phase, speeds)
        step, key = self.step, ("outline" if phase == "outline" else "section")
        if step is None or step.phase != key:  # between the phase's start and its first step
            total = self.phase_seconds(phase, speeds)
            return max(total - elapsed, 0.9 * total) + self._after(phase, speeds)
        left_in_step = self._step_left(step, speeds)
        later = sum(self._step_seconds(key, speeds, n) for n in range(step.step + 1, self._steps(key, speeds) + 1))
        return left_in_step + later + self._after(phase, speeds)

    def _unknown_plan(self) -> bool:
        """Whether the time hangs on what is not known yet: a writer without summaries asks the model for nothing
        but an outline, which a document with chapters does not need (8 s for R-exts.pdf's 236 pages, against
        about 20 min to outline them), and its structure is not read yet (an ``ingest`` job still reading)."""
        return not self.writer.summaries and self.chapters is None

    def phase_done(self) -> float | None:
        """The share of the running phase (``outline`` or ``sections``) done: its finished steps, and of the running
        step the seconds of work done (its prompt read so far, or read and the tokens written) over those and the
        seconds still expected (a second try included: the time left's figures), below :data:`_STEP_CEILING` of
        it. ``None`` before a step."""
        if self.quoted_last is not None and not self.writer.summaries:  # quoting: the sections' text quoted
            return self._quoted_share(self.quoted_last[0] - 1)
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
            load = LOADED_SECONDS if self.loaded else self.model_bytes / speeds.load_bytes_per_second
            return load + self._count_seconds()
        if phase == "export":
            return speeds.finish_seconds
        if phase == "outline" and self.chapters:
            return self.chars / _PLAN_CHARS_PER_SECOND
        if phase == "sections" and not self.writer.summaries:
            return self._quote_work()
        key = "outline" if phase == "outline" else "section"
        return sum(self._step_seconds(key, speeds, n) for n in range(1, self._steps(key, speeds) + 1))

    def _count_seconds(self) -> float:
        """The seconds a local model's tokenizer takes to count the text in ``load_model`` (none once counted, and
        none for a server model): a book's take seconds, more than the model's load."""
        if self.text_tokens is not None or not self.model_bytes:
            return 0.0
        return self.chars / _COUNT_CHARS_PER_SECOND

    def _quote_work(self, finished: int | None = None) -> float:
        """The expected seconds of the sections phase of a writer without summaries up to the first ``finished``
        sections quoted (all when ``None``): the key terms of the whole text (:data:`_TERMS_CHARS_PER_SECOND`), then
        each section by its size once the outline gave them, else the text split evenly over the sections expected
        (:data:`_QUOTE_FULL_CHARS`)."""
        sizes = [float(n) for n in self.section_chars]
        if not sizes:
            count = self.sections or max(self.chapters or 0, round(self.passages / 10), 1)  # a long chapter is split
            sizes = [self.chars / count] * count
        chosen = sizes if finished is None else sizes[: max(finished, 0)]
        quoting = sum(
            _QUOTE_SECTION_SECONDS + n / _QUOTE_CHARS_PER_SECOND * min(n / _QUOTE_FULL_CHARS, 1.0) for n in chosen
        )
        return self._terms_seconds() + quoting

    def _terms_seconds(self) -> float:
        """The key-term search's seconds at :data:`_TERMS_CHARS_PER_SECOND` (before its own pace is known)."""
        return self.chars / _TERMS_CHARS_PER_SECOND

    def _quoted_share(self, finished: int) -> float:
        """The share of the sections phase's work done once the first ``finished`` sections are quoted
        (:meth:`_quote_work`)."""
        total = self._quote_work()
        return min(self._quote_work(finished) / total, 1.0) if total > 0 else 0.0

    def _quoting_left(self, elapsed: float) -> float:
        """Seconds left in the sections phase of a writer without summaries, ``elapsed`` seconds into it: the work
        not done yet at this job's pace (the phase's time to the latest section's start over the work done by
        then) once it has one, else at the figures of :meth:`_quote_work`; the time since the latest section
        began counts as spent on it."""
        total = self._quote_work()
        if self.quoted_last is None:  # the key terms are being found: the search's pace is the quoting's too
            terms = self._terms_seconds()
            pace = self._search_pace(elapsed, terms)
            return max(terms * pace - elapsed, 0.1 * terms * pace) + (total - terms) * pace
        since = max(time.monotonic() - self.quoted_last[1], 0.0)
        share, seconds = self._quoted_share(self.quoted_last[0] - 1), elapsed - since
        if share > 0 and seconds >= _MIN_QUOTE_SECONDS:
            total = seconds / share
        left = (1.0 - share) * total
        return max(left - since, 0.1 * left)

    def _search_pace(self, elapsed: float, terms: float) -> float:
        """How many times :data:`_TERMS_CHARS_PER_SECOND`'s figure the key-term search takes here, ``elapsed``
        seconds into the sections phase: measured from its reports once it has searched for
        :data:`_MIN_QUOTE_SECONDS` (faster or slower), else at least 1 (a search running over its figure)."""
        if terms <= 0:
            return 1.0
        if self.terms_searched is not None:
            share, at = self.terms_searched
            spent = elapsed - max(time.monotonic() - at, 0.0)  # the phase's seconds at that report
            if share > 0 and spent >= _MIN_QUOTE_SECONDS:
                return max(spent / share, elapsed) / terms
        return max(elapsed / terms, 1.0)

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
        if self.chapters:
            return self.chapters
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
                nearly = _NEARLY_FULL * budget
                past = 1.0 if step.tokens >= nearly else (step.tokens - first) / max(nearly - first, 1.0)
                retry = max(attempts - 1.0, _FULL_RETRY * min(max(past, 0.0), 1.0))
        if step.first_token is None:
            return one + retry * second, rate
        per_section = _tokens_per_listed_section(self.prior or speeds)
        left = _left_in_try(step, self.lengths, one, per_section)
        return left + retry * second, rate


# -- the running step, the tallies its rates are measured with, the job's habits ------------------------------


@dataclass
class _Step:
    """The step running now: what the writer reported, and when (monotonic seconds)."""

    phase: str
    step: int
    steps: int
    prompt_tokens: int
    budget: int
    started: float
    first_token: float | None = None  # of the running try
    tokens: int = 0  # written by the running try
    last_at: float | None = None  # the last report (a finished try's end)
    earlier_tokens: int = 0  # written by the step's finished tries
    attempt: int = 1
    read: float = 0.0  # seconds its prompt took (from its start to its first token)
    read_first: tuple[int, float] | None = None  # the model's first report of its prompt read: (tokens, when)
    read_last: tuple[int, float] | None = None  # and its latest

    @property
    def written(self) -> int:
        """Tokens the step has written so far, every try counted."""
        return self.earlier_tokens + self.tokens

    def reading(self, tokens_read: int, now: float) -> None:
        """The model has read ``tokens_read`` tokens of the step's prompt (reported between batches)."""
        if self.read_first is None:
            self.read_first = (tokens_read, now)
        self.read_last = (tokens_read, now)

    def reading_rate(self, minimum_seconds: float) -> float | None:
        """The pace the model reads the running prompt at (prompt tokens per second): between its first and its
        latest report of a batch read, or with one report, from the step's start (a prefix reused from the cache
        counts as read then); ``None`` before a report, or over less than ``minimum_seconds``."""
        if self.read_first is None or self.read_last is None:
            return None
        first = self.read_first if self.read_last[1] > self.read_first[1] else (0, self.started)
        tokens, seconds = self.read_last[0] - first[0], self.read_last[1] - first[1]
        return tokens / seconds if tokens > 0 and seconds >= minimum_seconds else None

    def prompt_left(self, rate: float, now: float) -> float:
        """Seconds until the model has read the whole prompt at ``rate``: what it has not read yet, less the time
        since it said how much it had read (never less than a tenth of that)."""
        read, at = self.read_last if self.read_last is not None else (0, self.started)
        rest = max(self.prompt_tokens - read, 0) / rate
        return max(rest - (now - at), 0.1 * rest)


@dataclass
class _Tally:
    """Tokens and seconds measured so far for one rate."""

    tokens: float = 0.0
    seconds: float = 0.0

    def rate(self, minimum_tokens: float, minimum_seconds: float) -> float | None:
        """Tokens per second, or ``None`` with fewer than ``minimum_tokens`` or ``minimum_seconds`` measured."""
        if self.tokens < minimum_tokens or self.seconds < minimum_seconds:
            return None
        return self.tokens / self.seconds


def _tokens_per_listed_section(prior: Speeds) -> float:
    """The outline's tokens per section it lists (the prior's habits: tokens per step over sections per step)."""
    return max(prior.outline_tokens / max(prior.sections_per_chunk, 1.0), 8.0)


def _typical(lengths: Mapping[tuple[str, int], list[int]], key: tuple[str, int], otherwise: float) -> float:
    """The mean length of a job's finished tries of ``key`` (phase, try) in ``lengths``, or ``otherwise`` before
    any."""
    found = lengths.get(key)
    return sum(found) / len(found) if found else otherwise


def _ran_to_budget(lengths: Mapping[tuple[str, int], list[int]], phase: str, budget: int) -> bool:
    """Whether a finished try of ``phase`` in ``lengths`` wrote (nearly) ``budget`` tokens: cut at its budget, the
    text of a model that repeats itself."""
    return any(n >= _NEARLY_FULL * budget for (kind, _try), found in lengths.items() if kind == phase for n in found)


def _left_in_try(
    step: _Step, lengths: Mapping[tuple[str, int], list[int]], expected: float, per_listed_section: float
) -> float:
    """The tokens the running try of ``step`` is expected still to write, at most the room left in its budget.

    Where this job's finished tries of the same kind (``lengths``) went on past this point, it stops where they
    stopped, except that a section's try may be one that runs on into its budget (:data:`_LOOP_RISE`). Short of its
    ``expected`` length, it writes the rest of it. Past both, an outline lists one more section
    (``per_listed_section`` tokens each) and a section's try stops halfway to its budget, or at it once a try of
    this job ran into its own (a model that loops does it again)."""
    room = float(max(step.budget - step.tokens, 0))
    longer = [n for n in lengths.get((step.phase, step.attempt), ()) if n > step.tokens]
    if longer:
        stop = sum(longer) / len(longer) - step.tokens
        loop = (step.tokens / step.budget) ** _LOOP_RISE if step.phase == "section" and step.budget else 0.0
        return min(loop * room + (1.0 - loop) * stop, room)
    if step.tokens < expected:
        return min(max(expected - step.tokens, min(0.1 * expected, room)), room)
    if step.phase == "outline":
        listed = math.ceil((step.tokens + 1) / per_listed_section)
        return min(listed * per_listed_section - step.tokens, room)
    return room if _ran_to_budget(lengths, step.phase, step.budget) else room / 2


def _pace(prior: Speeds, prompt_rate: float | None, decode: dict[str, float | None]) -> float:
    """How much faster this job runs than ``prior`` says (the machine may be busier or idler). A prompt read more
    slowly than the prior says slows the writing too (a busy machine); one read faster says little about the
    writing, whose pace is the memory's more than the processor's: it counts once the model writes."""
    ratios = [min(prompt_rate / prior.prompt_rate, 1.0)] if prompt_rate else []
    if decode["outline"]:
        ratios.append(decode["outline"] / prior.outline_decode_rate)
    if decode["section"]:
        ratios.append(decode["section"] / prior.section_decode_rate)
    if not ratios:
        return 1.0
    return min(max(math.exp(sum(math.log(r) for r in ratios) / len(ratios)), 0.05), 20.0)
