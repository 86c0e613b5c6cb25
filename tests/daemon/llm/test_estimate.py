"""The time a generate job has left: from the model file, its speeds and the tokens — on real GGUF models."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from core.app.settings.config import ModelSettings, Settings
from core.app.timing.guide_estimate import LOADED_SECONDS, GenerateEstimate
from core.app.timing.model_speed import decode_size_factor, prompt_size_factor, thread_factor
from core.app.timing.speeds import ModelKey, SpeedBook, Speeds, calibration, prior_speeds
from daemon.guide_writer.writer import GuideProgress, GuideWriter
from daemon.jobs.estimates import generate_estimate, prepare_text
from daemon.llm.llamacpp import unload_all
from daemon.llm.models import ModelChoice, create_generator
from daemon.runtime import Runtime
from devkit.tiny_gguf import TinyModelShape, write_tiny_model

TEXT = "\n\n".join(
    f"Paragraph {n}: plants turn light, water and carbon dioxide into sugar and oxygen in their leaves." * 3
    for n in range(8)
)


def _size(path: Path) -> int:
    return path.stat().st_size


@pytest.fixture
async def runtime_for(tmp_path: Path) -> AsyncIterator[Callable[..., object]]:
    """``await runtime_for(model_settings)``: a started runtime on a data folder of its own (closed afterwards)."""
    runtimes: list[Runtime] = []

    async def make(model: ModelSettings) -> Runtime:
        folder = tmp_path / f"data{len(runtimes)}"
        runtime = Runtime(dataclasses.replace(Settings.defaults(folder), model=model))
        runtimes.append(runtime)
        await runtime.start()
        return runtime

    yield make
    for runtime in runtimes:
        await runtime.close()
    unload_all()


@pytest.fixture(scope="module")
def bigger_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model made wider and deeper: a bigger file that computes the same answers more slowly."""
    shape = TinyModelShape(n_embd=768, n_layer=4, n_head=6, n_ff=1536)
    return write_tiny_model(tmp_path_factory.mktemp("bigger-model") / "bigger.gguf", shape)


async def test_a_cold_load_is_estimated_from_the_model_files_size_and_a_loaded_model_costs_nothing(
    runtime_for, tiny_model: Path
):
    unload_all()  # cold: earlier tests of this process may have loaded the same file
    runtime = await runtime_for(ModelSettings(kind="gguf", gguf_path=tiny_model, n_threads=1))
    made = await generate_estimate(runtime)
    assert made is not None
    cold, _writer, key = made
    assert key == ModelKey(tiny_model.name, _size(tiny_model), 1) and not cold.loaded
    prepare_text(cold, TEXT)
    speeds = prior_speeds(_size(tiny_model), 1)
    load = _size(tiny_model) / speeds.load_bytes_per_second
    cold_left = cold.remaining("load_model", 0.0, None)

    await (await runtime.generator()).load()  # type: ignore[attr-defined]
    made = await generate_estimate(runtime)
    assert made is not None
    warm = made[0]
    assert warm.loaded
    prepare_text(warm, TEXT)
    warm_left = warm.remaining("load_model", 0.0, None)
    assert cold_left is not None and warm_left is not None
    assert cold_left - warm_left == pytest.approx(load - LOADED_SECONDS, rel=1e-6)


async def test_a_bigger_model_file_gets_a_longer_estimate_for_the_same_document(
    runtime_for, tiny_model: Path, bigger_model: Path
):
    assert _size(bigger_model) > 2 * _size(tiny_model)
    expected = []
    for model in (tiny_model, bigger_model):
        runtime = await runtime_for(ModelSettings(kind="gguf", gguf_path=model, n_threads=1))
        made = await generate_estimate(runtime)
        assert made is not None
        prepare_text(made[0], TEXT)
        expected.append(made[0].expected_seconds())
    small, big = expected
    assert small is not None and big is not None
    size, base = _size(bigger_model), _size(tiny_model)
    finish = prior_speeds(base, 1).finish_seconds  # the work after the last token: no model in it
    # the load scales with the file, the prompt and the tokens each by their own factor (core.app.timing.model_speed)
    ratios = (size / base, 1 / prompt_size_factor(size, base), 1 / decode_size_factor(size, base))
    assert min(ratios) * 0.99 < (big - finish) / (small - finish) < max(ratios) * 1.01
    assert min(ratios) > 1


def test_the_prior_speeds_follow_the_shared_size_and_thread_rule():
    base = calibration()
    for size in (base.model_bytes // 10, base.model_bytes, 2_100_000_000):
        prior = prior_speeds(size, 1, base, cores=4)
        assert prior.prompt_rate == pytest.approx(base.speeds.prompt_rate * prompt_size_factor(size, base.model_bytes))
        decode = decode_size_factor(size, base.model_bytes) * thread_factor(2, base.threads, cores=4)
        assert prior_speeds(size, 2, base, cores=4).section_decode_rate == pytest.approx(
            base.speeds.section_decode_rate * decode
        )
        assert prior.chars_per_token == base.speeds.chars_per_token


def test_more_threads_give_a_shorter_estimate_up_to_all_cores_but_one():
    base = calibration()
    one, two = prior_speeds(1_000_000, 1, base, cores=4), prior_speeds(1_000_000, 2, base, cores=4)
    assert two.prompt_rate > one.prompt_rate
    assert prior_speeds(1_000_000, 8, base, cores=4) == prior_speeds(1_000_000, 3, base, cores=4)
    assert prior_speeds(1_000_000, 2, base, cores=2) == prior_speeds(1_000_000, 1, base, cores=2)  # one core busy


async def test_a_model_with_no_basis_says_estimating_until_the_job_has_measured_it(runtime_for):
    server = ModelSettings(kind="http", endpoint="http://127.0.0.1:9/v1", model_name="somewhere")
    runtime = await runtime_for(server)
    made = await generate_estimate(runtime)
    assert made is not None
    estimate = made[0]
    prepare_text(estimate, TEXT)
    assert estimate.prior is None
    assert estimate.expected_seconds() is None
    assert estimate.remaining("outline", 3.0, None) is None


async def test_speeds_measured_in_a_real_guide_are_remembered_for_the_same_model_and_threads_only(
    tmp_path: Path, runtime_for, tiny_model: Path
):
    runtime = await runtime_for(ModelSettings(kind="gguf", gguf_path=tiny_model, n_threads=1))
    made = await generate_estimate(runtime)
    assert made is not None
    estimate, writer, key = made
    prepare_text(estimate, TEXT)
    generator = await runtime.generator()
    await generator.load()  # type: ignore[attr-defined]
    estimate.model_loaded(0.0)
    estimate.prepare(tokens=await generator.count_tokens(TEXT))
    left = []
    written: dict[tuple[str, int], int] = {}  # every try of a step counted
    tries: dict[tuple[str, int], list[int]] = {}  # each try's tokens

    def report(progress) -> None:
        estimate.on_progress(progress)
        left.append(estimate.remaining("sections" if progress.phase == "section" else "outline", 0.0, None))
        if progress.tokens == 0 and progress.prompt_read:  # a batch of the prompt read: no token yet
            return
        step = tries.setdefault((progress.phase, progress.step), [0])
        if 1 <= progress.tokens < step[-1]:  # the section check rejected the text: a second try
            step.append(0)
        step[-1] = progress.tokens
        written[progress.phase, progress.step] = sum(step)

    guide = await GuideWriter(generator).write(TEXT, on_progress=report)
    estimate.finish()
    assert all(value is not None and value >= 0 for value in left)
    learned = estimate.learned()
    assert learned is not None
    sections = [tokens for (phase, _step), tokens in written.items() if phase == "section"]
    assert learned.section_tokens == pytest.approx(sum(sections) / len(sections))
    assert max(t for (phase, _step), each in tries.items() if phase == "section" for t in each) <= writer.section_tokens
    section_tries = [len(each) for (phase, _step), each in tries.items() if phase == "section"]
    assert learned.section_attempts == pytest.approx(sum(section_tries) / len(section_tries))
    assert learned.chars_per_token == pytest.approx(len(TEXT) / await generator.count_tokens(TEXT))
    chunks = max(step for phase, step in written if phase == "outline")
    assert learned.sections_per_chunk == pytest.approx(len(guide.sections) / chunks)

    book = SpeedBook(tmp_path / "speeds.json")
    assert key is not None and book.recall(key) is None
    book.remember(key, learned)
    assert book.recall(key) == Speeds(**{k: round(v, 4) for k, v in dataclasses.asdict(learned).items()})
    assert book.recall(ModelKey(key.name, key.size, key.threads + 1)) is None  # other threads: other speeds
    twice = book.remember(key, learned.faster(4.0))
    assert twice.prompt_rate == pytest.approx(learned.prompt_rate * 2.0, rel=1e-3)  # halfway, geometrically
    assert json.loads(book.path.read_text())["models"][str(key)]["jobs"] == 2


def test_an_unreadable_speeds_file_is_ignored(tmp_path: Path):
    path = tmp_path / "speeds.json"
    path.write_text("{not json", encoding="utf-8")
    assert SpeedBook(path).recall("model|1|1") is None


def _reports(estimate: GenerateEstimate, step: int, tries: list[int], began: float, pace: float) -> float:
    """Feed the reports of one section written in ``tries`` (tokens per try) at ``pace`` tokens per second, after
    a one-second prompt read; returns when it ended."""
    at = began
    estimate.on_progress(GuideProgress("section", step, 3, 0, 400, prompt_tokens=200), at)
    at += 1.0  # the prompt; a second try's comes from llama.cpp's cache
    for tokens in tries:
        for n in range(1, tokens + 1):
            estimate.on_progress(GuideProgress("section", step, 3, n, 400, prompt_tokens=200), at)
            at += 1.0 / pace
    return at


def test_a_section_written_twice_counts_both_tries_and_keeps_the_models_pace(tiny_model: Path):
    """A text the section check rejects is written again: the step takes both tries, and the tries are no slower
    decoding (the second try's tokens are not divided by the first try's time)."""
    prior = prior_speeds(_size(tiny_model), 1)
    writer = GuideWriter(create_generator(ModelChoice(kind="gguf", path=tiny_model, n_threads=1)))  # not loaded
    estimate = GenerateEstimate(prior, writer, model_bytes=_size(tiny_model), loaded=True)
    prepare_text(estimate, TEXT)
    estimate.outlined([len(TEXT) // 3] * 3)
    at = _reports(estimate, 1, [400, 300], time.monotonic() - 11.0, pace=100.0)  # rejected once; 11 s in all
    at = _reports(estimate, 2, [200], at, pace=100.0)
    estimate.finish(at)
    learned = estimate.learned()
    assert learned is not None
    assert learned.section_decode_rate == pytest.approx(100.0, rel=0.02)
    assert learned.section_tokens == pytest.approx((700 + 200) / 2)
    assert learned.section_attempts == pytest.approx(1.5)
    # the next section: a one-second prompt, then 450 tokens at 100 per second, more or less
    estimate.on_progress(GuideProgress("section", 3, 3, 0, 400, prompt_tokens=200), at)
    left = estimate.remaining("sections", 0.0, None)
    assert left is not None and 4.5 < left < 6.5


def test_a_prompt_read_more_slowly_than_the_figures_say_slows_the_whole_estimate(tiny_model: Path):
    """A cold worker on a busy machine: before the first token, the time the prompt has taken already bounds the
    rate, so the figure grows with the wait instead of resting on the calibrated speeds."""
    prior = prior_speeds(_size(tiny_model), 1)
    writer = GuideWriter(create_generator(ModelChoice(kind="gguf", path=tiny_model, n_threads=1)))  # not loaded
    estimates = [GenerateEstimate(prior, writer, model_bytes=_size(tiny_model), loaded=True) for _ in range(2)]
    now, expected_prompt = time.monotonic(), 200 / prior.prompt_rate
    for estimate, began in zip(estimates, (now, now - 10 * expected_prompt), strict=True):
        prepare_text(estimate, TEXT)
        estimate.outlined([len(TEXT) // 3] * 3)
        estimate.on_progress(GuideProgress("section", 1, 3, 0, 400, prompt_tokens=200), began)
    fresh, waited = (estimate.remaining("sections", 0.0, None) for estimate in estimates)
    assert fresh is not None and waited is not None
    assert waited > 3 * fresh


def test_a_machine_slower_or_faster_than_the_calibrated_one_shows_in_the_first_prompts_batches(tiny_model: Path):
    """A cold worker's first prompt, read at a third or at three times the calibrated pace: after two batches the
    prompts rest on the pace measured, the answers too where it is slower (a busy machine; a faster reading says
    little of the writing), and the bar moves while the prompt is read."""
    figures = {}
    for rate in (100.0, 900.0):  # the calibrated pace: 300 tokens per second
        estimate = _estimate(tiny_model, prompt_rate=300.0)
        began = time.monotonic() - 512 / rate
        estimate.on_progress(GuideProgress("section", 1, 3, 0, 400, prompt_tokens=2000), began)
        for read in (256, 512):
            progress = GuideProgress("section", 1, 3, 0, 400, prompt_tokens=2000, prompt_read=read)
            estimate.on_progress(progress, began + read / rate)
        speeds, left, done = estimate.speeds(), estimate.remaining("sections", 0.0, None), estimate.phase_done()
        assert speeds is not None and left is not None and done is not None
        assert speeds.prompt_rate == pytest.approx(rate, rel=0.01)
        calibrated = estimate.prior
        assert calibrated is not None
        answers = speeds.section_decode_rate / calibrated.section_decode_rate
        assert answers == pytest.approx(min(rate / 300.0, 1.0), rel=0.01)  # a third, or the calibrated pace
        assert left > (2000 - 512) / rate  # the rest of this prompt at the pace measured, then the rest
        assert 0.0 < done < 1 / 3  # part of the first of three sections
        figures[rate] = left
    assert figures[100.0] > 4 * figures[900.0]


def test_a_last_section_whose_first_try_wrote_its_whole_budget_is_not_taken_for_done(tiny_model: Path):
    """The job's count says the phase is done once the last section's first try reaches its budget; a second try
    may follow, so until the writer returns the estimate counts it."""
    prior = prior_speeds(_size(tiny_model), 1)
    writer = GuideWriter(create_generator(ModelChoice(kind="gguf", path=tiny_model, n_threads=1)))  # not loaded
    estimate = GenerateEstimate(prior, writer, model_bytes=_size(tiny_model), loaded=True)
    prepare_text(estimate, TEXT)
    estimate.outlined([len(TEXT) // 2] * 2)
    at = _reports(estimate, 1, [400, 300], time.monotonic() - 16.0, pace=100.0)  # 8 s, rejected once
    at = _reports(estimate, 2, [400], at, pace=100.0)  # the last section: 5 s, its first try at the budget
    left = estimate.remaining("sections", 0.0, 1.0)
    assert left is not None and left > 1.0  # the section so far took two tries: another one of 350 tokens is due
    estimate.finish(at)
    ended = estimate.remaining("sections", 0.0, 1.0)
    assert ended is not None and ended < 0.1  # the writer returned: only the export is left


def _estimate(tiny_model: Path, sections: int = 3, **speeds: float) -> GenerateEstimate:
    """A fresh estimate on the tiny model's calibrated speeds (``speeds`` replaced), its outline done with
    ``sections`` sections."""
    writer = GuideWriter(create_generator(ModelChoice(kind="gguf", path=tiny_model, n_threads=1)))  # not loaded
    prior = dataclasses.replace(prior_speeds(_size(tiny_model), 1), **speeds)
    estimate = GenerateEstimate(prior, writer, model_bytes=_size(tiny_model), loaded=True)
    prepare_text(estimate, TEXT)
    estimate.outlined([len(TEXT) // sections] * sections)
    return estimate


def test_a_stall_in_the_running_section_moves_the_decode_rate_at_most_twofold(tiny_model: Path):
    """One slow moment (the machine busy for a while) must not multiply the whole figure: the running try moves
    the rate the finished ones measured at most 2× either way."""
    figures = []
    for stalled in (0.0, 30.0):  # seconds since the running try's last token
        estimate = _estimate(tiny_model)
        at = _reports(estimate, 1, [300], time.monotonic() - stalled - 6.0, pace=100.0)
        estimate.on_progress(GuideProgress("section", 2, 3, 0, 400, prompt_tokens=200), at)
        for n in range(1, 51):
            estimate.on_progress(GuideProgress("section", 2, 3, n, 400, prompt_tokens=200), at + 1.0 + n / 100)
        speeds = estimate.speeds()
        assert speeds is not None
        figures.append((speeds.section_decode_rate, estimate.remaining("sections", 0.0, None)))
    (steady_rate, steady_left), (stalled_rate, stalled_left) = figures
    assert steady_rate > 60.0
    assert stalled_rate >= 100.0 / 2 * 0.95  # 50 tokens in 31 s alone would say 1.6 per second
    assert steady_left is not None and stalled_left is not None and stalled_left < 2.5 * steady_left


def test_a_first_try_that_wrote_its_whole_budget_expects_a_second_try_before_any_was_seen(tiny_model: Path):
    """A cold worker (no section rejected yet, the calibrated one try per section): the last section's first try
    cut at its budget is most often text that repeats itself, so the figure keeps a second try in it rather than
    showing no time left while the model writes again."""
    estimate = _estimate(tiny_model, section_attempts=1.0, section_tokens=350.0)
    at = _reports(estimate, 3, [400], time.monotonic() - 4.0, pace=100.0)
    speeds = estimate.speeds()
    assert speeds is not None and speeds.section_attempts == 1.0
    left = estimate.remaining("sections", 0.0, 1.0)
    assert left is not None and left >= 0.5 * speeds.retry_tokens / speeds.section_decode_rate  # half a try
    estimate.finish(at)


def test_a_second_try_is_expected_as_long_as_this_jobs_second_tries_were(tiny_model: Path):
    estimate = _estimate(tiny_model)
    at = _reports(estimate, 2, [400, 100], time.monotonic() - 12.0, pace=100.0)  # a short second try
    at = _reports(estimate, 3, [400, 40], at, pace=100.0)  # the last section's second try, 40 tokens in
    left = estimate.remaining("sections", 0.0, None)
    assert left is not None and 0.6 * 60 / 100 < left < 1.0 + 60 / 100 + 0.5  # 60 tokens more, and the finish
    estimate.finish(at)


def test_a_try_deep_into_its_budget_may_run_on_into_it_even_where_one_earlier_try_stopped_soon_after(
    tiny_model: Path,
):
    """One earlier second try that stopped at 240 tokens says little about the next one, which at 230 of its 400
    tokens may be a model repeating itself up to its budget: the figure keeps a good part of that room in it
    (the bundled network's cold run: 240 tokens, then the whole budget)."""
    estimate = _estimate(tiny_model)
    at = _reports(estimate, 2, [400, 240], time.monotonic() - 20.0, pace=100.0)
    at = _reports(estimate, 3, [400, 230], at, pace=100.0)  # the last section's second try, 10 short of 240
    speeds = estimate.speeds()
    left = estimate.remaining("sections", 0.0, None)
    assert speeds is not None and left is not None
    assert left >= 0.33 * 170 / speeds.section_decode_rate  # within 3× of the whole room's time
    assert left <= 170 / speeds.section_decode_rate + speeds.finish_seconds + 0.1  # not more than the whole room
    estimate.finish(at)


def test_the_work_after_the_last_token_is_measured_and_counted_until_the_job_ends(tiny_model: Path):
    """The last section's check, the guide's file and rows: learned as ``finish_seconds`` (from the model's last
    token to the job's end), then expected by the next job for as long as it lasts, not as a few milliseconds."""
    estimate = _estimate(tiny_model, sections=1)
    at = _reports(estimate, 1, [200], time.monotonic() - 4.0, pace=100.0)  # the last token was 1 s ago
    estimate.finish(at)
    learned = estimate.learned()
    assert learned is not None and 0.9 < learned.finish_seconds < 1.5
    writer = GuideWriter(create_generator(ModelChoice(kind="gguf", path=tiny_model, n_threads=1)))
    slow_end = dataclasses.replace(learned, finish_seconds=3.0)
    following = GenerateEstimate(slow_end, writer, model_bytes=_size(tiny_model), loaded=True)
    prepare_text(following, TEXT)
    following.outlined([len(TEXT)])
    end = _reports(following, 1, [200], time.monotonic() - 3.0, pace=100.0)  # its last token: just now
    following.finish(end)
    for phase, done in (("sections", 1.0), ("export", None), ("export", 1.0)):
        left = following.remaining(phase, 0.0, done)
        assert left is not None and 2.5 < left <= 3.0, (phase, left)


def test_a_try_longer_than_every_earlier_one_is_expected_to_stop_halfway_to_its_budget(tiny_model: Path):
    """Past the length expected of it and past every earlier try, nothing says where a try stops: half the room to
    its budget is expected, not the few tokens a shorter try would have had left."""
    estimate = _estimate(tiny_model, section_attempts=1.0, section_tokens=100.0)
    at = _reports(estimate, 2, [100], time.monotonic() - 10.0, pace=100.0)
    at = _reports(estimate, 3, [200], at, pace=100.0)  # the last section, 200 tokens in: 200 more may come
    speeds = estimate.speeds()
    left = estimate.remaining("sections", 0.0, None)
    assert speeds is not None and left is not None
    assert left >= 100 / speeds.section_decode_rate
    estimate.finish(at)


def test_once_a_try_ran_into_its_budget_a_try_longer_than_every_other_is_expected_to_run_into_its_own(
    tiny_model: Path,
):
    """A model that looped (a try cut at its budget) loops again: a try past every earlier one of its kind is
    expected to write the whole room to its budget, not half of it."""
    looping = _estimate(tiny_model, section_attempts=1.0, section_tokens=100.0)
    at = _reports(looping, 2, [400, 100], time.monotonic() - 13.0, pace=100.0)  # its first try cut at the budget
    at = _reports(looping, 3, [400, 200], at, pace=100.0)  # the last section's second try, past the earlier one
    speeds = looping.speeds()
    left = looping.remaining("sections", 0.0, None)
    assert speeds is not None and left is not None
    assert left >= 200 / speeds.section_decode_rate
    looping.finish(at)

    steady = _estimate(tiny_model, section_attempts=1.0, section_tokens=100.0)
    at = _reports(steady, 2, [100], time.monotonic() - 5.0, pace=100.0)
    at = _reports(steady, 3, [200], at, pace=100.0)
    pace, half = steady.speeds(), steady.remaining("sections", 0.0, None)
    assert pace is not None and half is not None
    assert half < 200 / pace.section_decode_rate  # none of its tries ran into its budget: not the whole room
    steady.finish(at)


async def test_the_bar_stays_short_of_the_sections_end_while_the_last_section_is_written_again(
    runtime_for, tiny_model: Path
):
    """The tiny model's section text runs to its budget and fails the check, so every section is written twice.
    The share of the phase done (the job's bar) never reaches the phase's end while the model writes; when the last
    section's first try has written its whole budget, the bar and the time left both keep a second try in them."""
    runtime = await runtime_for(ModelSettings(kind="gguf", gguf_path=tiny_model, n_threads=1))
    made = await generate_estimate(runtime)
    assert made is not None
    estimate, writer, _key = made
    prepare_text(estimate, TEXT)
    generator = await runtime.generator()
    await generator.load()  # type: ignore[attr-defined]
    estimate.model_loaded(0.0)
    seen: list[tuple[GuideProgress, float, float, Speeds, float]] = []  # each report, the bar's share, time left,
    # speeds, and the seconds the running step's prompt took (the bar counts them as part of the step)
    counted: dict[str, float] = {}  # the bar never moves back (the tracker keeps the highest count)

    def report(progress: GuideProgress) -> None:
        estimate.on_progress(progress)
        phase = "sections" if progress.phase == "section" else "outline"
        done, speeds = estimate.phase_done(), estimate.speeds()
        assert done is not None and speeds is not None
        counted[phase] = max(done, counted.get(phase, 0.0))
        left = estimate.remaining(phase, 0.0, counted[phase])
        assert left is not None
        seen.append((progress, counted[phase], left, speeds, estimate.step.read if estimate.step else 0.0))

    plan = await writer.outline(TEXT, on_progress=report)
    estimate.outlined([sum(len(plan.passages[n - 1]) for n in numbers) for _title, numbers in plan.sections])
    await writer.write_sections(plan, on_progress=report)
    estimate.finish()

    assert all(entry[1] < 1.0 for entry in seen), "the bar reached a phase's end while the model wrote"
    last = [entry for entry in seen if entry[0].phase == "section" and entry[0].step == entry[0].steps]
    end = next(i for i, entry in enumerate(last) if entry[0].tokens == entry[0].token_budget)  # its first try's
    assert any(entry[0].tokens < last[end][0].tokens for entry in last[end:]), "the tiny model wrote no second try"
    progress, done, left, speeds, read = last[end]
    second = min(speeds.retry_tokens, progress.token_budget)  # the second try expected of it, at least half of it:
    within = done * progress.steps - (progress.steps - 1)  # the last section's share the bar shows done
    rate = speeds.section_decode_rate
    written = read + progress.token_budget / rate  # the step's seconds so far: its prompt, its whole first try
    assert within <= written / (written + 0.5 * second / rate) + 1e-9
    assert left >= 0.5 * second / speeds.section_decode_rate


def test_an_outline_longer_than_expected_adds_the_sections_it_lists_before_it_ends(tiny_model: Path):
    """A model that lists two sections where the calibrated one lists one: past one section's worth of outline
    tokens, the outline is expected to end one section's worth later (not halfway to its budget), and two sections
    are expected to be written, before the outline has ended."""
    figures = []
    for tokens in (20, 40):
        estimate = _estimate(tiny_model, sections=1, outline_tokens=30.0, sections_per_chunk=1.0)
        estimate.sections, estimate.section_chars = None, []  # the outline is still running
        at = time.monotonic() - 2.0
        estimate.on_progress(GuideProgress("outline", 1, 1, 0, 400, prompt_tokens=300), at)
        for n in range(1, tokens + 1):
            estimate.on_progress(GuideProgress("outline", 1, 1, n, 400, prompt_tokens=300), at + 1.0 + n / 100)
        speeds = estimate.speeds()
        assert speeds is not None
        outline_left = estimate.remaining("outline", 0.0, None) - estimate._after("outline", speeds)
        figures.append((outline_left * speeds.outline_decode_rate, estimate._steps("section", speeds)))
    (short_left, short_sections), (long_left, long_sections) = figures
    assert short_sections == 1 and long_sections == 2
    assert short_left == pytest.approx(10, abs=1) and long_left == pytest.approx(20, abs=1)  # to 30, to 60 tokens


def test_the_bar_counts_the_time_a_steps_prompt_took_and_not_only_its_tokens(tiny_model: Path):
    """A step whose prompt took nine seconds and whose answer takes about one is most of the way done at its first
    token: the bar must not fall back to the share of the tokens written (one of a hundred)."""
    estimate = _estimate(tiny_model, sections=1, section_tokens=100.0, section_attempts=1.0)
    began = time.monotonic() - 9.0
    estimate.on_progress(GuideProgress("section", 1, 1, 0, 400, prompt_tokens=200), began)
    estimate.on_progress(GuideProgress("section", 1, 1, 1, 400, prompt_tokens=200), began + 9.0)
    speeds, done = estimate.speeds(), estimate.phase_done()
    assert speeds is not None and done is not None
    answer = 99 / speeds.section_decode_rate  # the tokens still expected, in seconds
    assert done == pytest.approx(min(9.0 / (9.0 + answer), 0.95), rel=0.05)
    assert done > 0.3  # the tokens alone: 1 of 100
