"""Logging: one rotating file per program, with timestamps and tracebacks; warnings on stderr; idempotent."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from core.app.logs import LEVEL_VARIABLE, configure_logging, reset_logging

TIMESTAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"


@pytest.fixture(autouse=True)
def clean_root_logger():
    """Leave the root logger as the test found it."""
    root = logging.getLogger()
    level = root.level
    yield
    reset_logging()
    root.setLevel(level)


def ours() -> list[logging.Handler]:
    return [h for h in logging.getLogger().handlers if hasattr(h, "_studyjobs_handler")]


def flush() -> None:
    for handler in ours():
        handler.flush()


def test_the_log_file_gets_timestamps_levels_names_and_tracebacks(tmp_path: Path):
    path = configure_logging(tmp_path / "logs", "daemon")
    log = logging.getLogger("studyjobs.test")

    log.info("Lendo a apostila de Introdução à Biologia")
    try:
        1 / 0  # noqa: B018
    except ZeroDivisionError:
        log.exception("the outline step failed")
    flush()

    assert path == tmp_path / "logs" / "daemon.log"
    text = path.read_text(encoding="utf-8")
    assert re.search(rf"^{TIMESTAMP} INFO +studyjobs\.test \[\d+ \w+\] Lendo a apostila de Introdução", text, re.M)
    assert re.search(rf"^{TIMESTAMP} ERROR +studyjobs\.test .* the outline step failed$", text, re.M)
    assert "Traceback (most recent call last)" in text and "ZeroDivisionError: division by zero" in text


def test_debug_records_are_dropped_at_the_default_level(tmp_path: Path):
    path = configure_logging(tmp_path, "gui")

    logging.getLogger("studyjobs.test").debug("noise")
    logging.getLogger("studyjobs.test").info("signal")
    flush()

    text = path.read_text(encoding="utf-8")
    assert "signal" in text and "noise" not in text


@pytest.mark.parametrize(
    ("value", "expected"), [("debug", logging.DEBUG), ("WARNING", logging.WARNING), ("loud", logging.INFO)]
)
def test_the_level_can_be_chosen_in_the_environment_and_nonsense_keeps_information(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, expected: int
):
    monkeypatch.setenv(LEVEL_VARIABLE, value)

    configure_logging(tmp_path, "daemon")

    assert logging.getLogger().level == expected


def test_configuring_twice_adds_no_second_handler(tmp_path: Path):
    configure_logging(tmp_path, "daemon")
    path = configure_logging(tmp_path, "daemon", level=logging.DEBUG)

    logging.getLogger("studyjobs.test").debug("once")
    flush()

    assert len(ours()) == 2, "one file handler and one stderr handler"
    assert path.read_text(encoding="utf-8").count("once") == 1
    assert logging.getLogger().level == logging.DEBUG


def test_warnings_also_reach_stderr_but_information_does_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    configure_logging(tmp_path, "cli")

    logging.getLogger("studyjobs.test").info("quiet progress")
    logging.getLogger("studyjobs.test").warning("the model server is busy")

    err = capsys.readouterr().err
    assert "the model server is busy" in err and "quiet progress" not in err


def test_stderr_output_can_be_turned_off(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    configure_logging(tmp_path, "cli")
    configure_logging(tmp_path, "cli", stderr_level=None)

    logging.getLogger("studyjobs.test").error("only in the file")

    assert "only in the file" not in capsys.readouterr().err
    assert len(ours()) == 1


def test_the_file_rotates_at_its_size_limit_and_keeps_a_bounded_history(tmp_path: Path):
    path = configure_logging(tmp_path, "daemon", max_bytes=2_000, backup_count=2)

    for n in range(200):
        logging.getLogger("studyjobs.test").info("line %03d %s", n, "x" * 40)
    flush()

    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["daemon.log", "daemon.log.1", "daemon.log.2"]
    assert path.stat().st_size <= 2_000
    assert "line 199" in path.read_text(encoding="utf-8")


def test_rotation_counts_the_bytes_already_in_the_file_and_multibyte_text(tmp_path: Path):
    (tmp_path / "daemon.log").write_text("x" * 1_990 + "\n", encoding="utf-8")  # a file left by an earlier run
    path = configure_logging(tmp_path, "daemon", max_bytes=2_000, backup_count=3)

    for n in range(30):
        logging.getLogger("studyjobs.test").info("seção %02d concluída – ação", n)
    flush()

    assert (tmp_path / "daemon.log.1").exists(), "the first line did not rotate the nearly full file"
    for file in tmp_path.iterdir():
        assert file.stat().st_size <= 2_000, file.name
    assert "seção 29 concluída – ação" in path.read_text(encoding="utf-8")


def test_configuring_another_program_moves_the_file_instead_of_adding_one(tmp_path: Path):
    configure_logging(tmp_path, "daemon-1")
    second = configure_logging(tmp_path, "daemon-2")

    logging.getLogger("studyjobs.test").info("here")
    flush()

    files = [h for h in ours() if isinstance(h, logging.FileHandler)]
    assert [Path(h.baseFilename) for h in files] == [second]
    assert "here" in second.read_text(encoding="utf-8")
    assert "here" not in (tmp_path / "daemon-1.log").read_text(encoding="utf-8")


def test_other_handlers_are_left_alone(tmp_path: Path):
    foreign = logging.NullHandler()
    logging.getLogger().addHandler(foreign)
    try:
        configure_logging(tmp_path, "gui")
        reset_logging()
        assert foreign in logging.getLogger().handlers
        assert ours() == []
    finally:
        logging.getLogger().removeHandler(foreign)


@pytest.mark.parametrize("program", ["", "../escape", "a/b", "..", "with space"])
def test_a_program_name_that_is_not_a_plain_file_name_is_refused(tmp_path: Path, program: str):
    with pytest.raises(ValueError, match="plain file name"):
        configure_logging(tmp_path, program)


def test_lines_logged_while_a_job_runs_carry_its_id_and_read_back_with_their_traceback(tmp_path: Path):
    import asyncio
    import concurrent.futures
    import contextvars
    import uuid

    from core.app.logs import job_log_lines, job_logging

    path = configure_logging(tmp_path / "logs", "daemon", max_bytes=1000, backup_count=9)
    log = logging.getLogger("studyjobs.test")
    mine, other = uuid.uuid4(), uuid.uuid4()

    async def a_job(job_id: uuid.UUID, pool: concurrent.futures.ThreadPoolExecutor) -> None:
        with job_logging(job_id):
            log.warning("reading the document")
            context = contextvars.copy_context()
            await asyncio.wrap_future(pool.submit(context.run, log.warning, "inside the job's thread"))
            try:
                raise ValueError("a bad page")
            except ValueError:
                log.exception("the job failed")
        log.warning("after the job")

    async def two_jobs() -> None:
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            await asyncio.gather(a_job(mine, pool), a_job(other, pool))

    asyncio.run(two_jobs())
    log.warning("the supervisor reclaimed job %s", mine)  # untagged, but it names the job
    flush()
    lines = job_log_lines(path.parent, mine)
    text = "\n".join(lines)
    assert f"job={mine} reading the document" in text
    assert f"job={mine} inside the job's thread" in text
    assert f"job={mine} the job failed" in text and "ValueError: a bad page" in text  # its traceback follows it
    assert text.endswith(f"the supervisor reclaimed job {mine}")
    assert str(other) not in text and "after the job" not in text
    assert len(list(path.parent.glob("daemon.log.*"))) >= 1  # the lines were read across the rotated files too
    assert job_log_lines(tmp_path / "nowhere", mine) == []


def test_a_line_logged_outside_a_job_has_no_job_tag(tmp_path: Path):
    path = configure_logging(tmp_path / "logs", "gui")
    logging.getLogger("studyjobs.test").warning("the window opened")
    flush()
    (line,) = path.read_text(encoding="utf-8").splitlines()
    assert re.search(r"\[\d+ MainThread\] the window opened$", line), line
