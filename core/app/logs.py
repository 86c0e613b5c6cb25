"""Logging for the GUI, the daemon and the CLI: one rotating file per program and process, warnings also on stderr,
each line tagged with its job (:func:`job_logging`), registered secrets replaced by ``***`` (:func:`redact`).

:func:`configure_logging` is idempotent; one log file has one writing process (docs/design/application.md).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import uuid
from collections.abc import Iterator
from contextvars import ContextVar
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any, cast

__all__ = [
    "CURRENT_JOB",
    "LEVEL_VARIABLE",
    "LOG_FORMAT",
    "JobTagFilter",
    "RedactFilter",
    "SizedRotatingFileHandler",
    "configure_logging",
    "job_log_lines",
    "job_logging",
    "redact",
    "redacted",
    "reset_logging",
]

LOG_FORMAT = "%(asctime)s.%(msecs)03d %(levelname)-8s %(name)s [%(process)d %(threadName)s]%(job_tag)s %(message)s"
CURRENT_JOB: ContextVar[str] = ContextVar("studyjobs_current_job", default="")
"""The id of the job the current task or thread works for (``""``: none). Set it with :func:`job_logging`; a job's
helper thread gets it by running in a copy of the job's context (:func:`contextvars.copy_context`)."""
_LINE_START = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
_MARK = "_studyjobs_handler"  # attribute set on the handlers this module installed


class SizedRotatingFileHandler(RotatingFileHandler):
    """A :class:`RotatingFileHandler` that keeps count of its file's size.

    The standard handler formats every record twice and asks the file system (``exists``, ``isfile``, ``seek``,
    ``tell``) before each write to decide whether to rotate; a daemon logging a line per job paid more for that
    than for the job's own database writes. This one formats once, counts the bytes it wrote (the size it found
    when it opened the file included) and rotates when the next line would pass ``maxBytes``. Each line is
    still flushed at once, so a crash loses nothing that was logged.
    """

    def __init__(self, filename: str | Path, **kwargs: Any) -> None:
        super().__init__(filename, **kwargs)
        self._written = os.path.getsize(self.baseFilename) if os.path.exists(self.baseFilename) else 0

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record) + self.terminator
            size = len(line.encode(self.encoding or "utf-8", "replace"))
            if self.maxBytes > 0 and self._written and self._written + size >= self.maxBytes:
                self.doRollover()
                self._written = 0
            if self.stream is None:
                self.stream = self._open()
            self.stream.write(line)
            self.flush()
            self._written += size
        except RecursionError:
            raise
        except Exception:
            self.handleError(record)


_SECRETS: set[str] = set()
_MIN_SECRET = 4  # shorter texts would blank out ordinary words


def redact(secret: str) -> None:
    """Never write ``secret`` to a log: the handlers of :func:`configure_logging` replace it with ``***`` (in this
    process, from now on). Texts shorter than 4 characters are not secrets worth the name and are ignored."""
    if len(secret) >= _MIN_SECRET:
        _SECRETS.add(secret)


def redacted(text: str) -> str:
    """``text`` with every registered secret replaced by ``***``."""
    for secret in sorted(_SECRETS, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, "***")
    return text


class RedactFilter(logging.Filter):
    """Replaces the secrets registered with :func:`redact` in a record's message and traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not _SECRETS:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: the handler reports it as usual
            return True
        clean = redacted(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redacted(record.exc_text)
        if record.stack_info:
            record.stack_info = redacted(record.stack_info)
        return True


class JobTagFilter(logging.Filter):
    """Adds ``job_tag`` to every record: ``" job=<id>"`` while :data:`CURRENT_JOB` is set, else ``""``."""

    def filter(self, record: logging.LogRecord) -> bool:
        job = CURRENT_JOB.get()
        record.job_tag = f" job={job}" if job else ""
        return True


@contextlib.contextmanager
def job_logging(job_id: uuid.UUID | str) -> Iterator[None]:
    """Tag the lines logged in this context (this task, or this thread) with ``job_id`` until the block ends."""
    token = CURRENT_JOB.set(str(job_id))
    try:
        yield
    finally:
        CURRENT_JOB.reset(token)


def job_log_lines(
    log_dir: str | Path, job_id: uuid.UUID | str, *, program: str = "daemon", limit: int = 500
) -> list[str]:
    """The lines of ``<log_dir>/<program>.log`` (and its rotated files, oldest first) about ``job_id``: those tagged
    with it or naming it, each with the lines that continue it (a traceback); at most the last ``limit``.

    Reads files: call it off a UI thread. A missing folder or file gives no lines.
    """
    folder = Path(log_dir)
    files = [folder / f"{program}.log.{n}" for n in range(99, 0, -1)] + [folder / f"{program}.log"]
    wanted = str(job_id)
    lines: list[str] = []
    for path in files:
        try:
            with path.open(encoding="utf-8", errors="replace") as handle:
                keep = False
                for line in handle:
                    if _LINE_START.match(line):
                        keep = wanted in line
                    if keep:
                        lines.append(line.rstrip("\n"))
        except FileNotFoundError:
            continue
    return lines[-limit:]


def _ours(role: str) -> list[logging.Handler]:
    return [h for h in logging.getLogger().handlers if getattr(h, _MARK, None) == role]


def configure_logging(
    log_dir: str | Path,
    program: str,
    *,
    level: int | None = None,
    max_bytes: int = 1_000_000,
    backup_count: int = 5,
    stderr_level: int | None = logging.WARNING,
) -> Path:
    """Send the root logger to ``<log_dir>/<program>.log`` (rotating) and warnings to stderr; idempotent.

    Args:
        log_dir: The folder for log files (created if missing).
        program: The file's base name (``"gui"``, ``"daemon"``, ``"cli"``); letters, digits, ``-``, ``_`` and
            ``.`` only.
        level: The root logger's level (what reaches the file); by default ``STUDYJOBS_LOG_LEVEL`` (``DEBUG``,
            ``INFO``, ``WARNING`` …) when it names a level, else ``INFO``. ``DEBUG`` adds a line per job step.
        max_bytes: Size at which the file rotates.
        backup_count: How many rotated files are kept (``program.log.1`` … ``.N``).
        stderr_level: Records at this level or above also go to stderr; ``None`` for no stderr output.

    Returns:
        The log file's path.

    Raises:
        ValueError: an empty or path-like ``program``.
        OSError: the folder or the file cannot be created.
    """
    if not program or not all(c.isalnum() or c in "-_." for c in program) or program.strip(".") == "":
        raise ValueError(f"program {program!r} must be a plain file name (letters, digits, '-', '_', '.')")
    path = Path(log_dir).expanduser().absolute() / f"{program}.log"
    root = logging.getLogger()
    formatter = logging.Formatter(LOG_FORMAT, DATE_FORMAT, defaults={"job_tag": ""})

    _file_handler(path, formatter, max_bytes=max_bytes, backup_count=backup_count)
    _stderr_handler(formatter, stderr_level)

    root.setLevel(_level_from_environment() if level is None else level)
    # What the format does not show need not be gathered per record (the logging HOWTO's "Optimization"): the
    # caller's file and line (a walk up the stack) and the multiprocessing process name.
    logging._srcfile = None  # type: ignore[attr-defined]
    logging.logMultiprocessing = False
    return path


def _file_handler(path: Path, formatter: logging.Formatter, *, max_bytes: int, backup_count: int) -> None:
    """The root logger's one rotating file handler, on ``path`` (an existing one on another file is replaced)."""
    root = logging.getLogger()
    for handler in _ours("file"):
        if not (isinstance(handler, RotatingFileHandler) and Path(handler.baseFilename) == path):
            root.removeHandler(handler)
            handler.close()
    files = _ours("file")
    if files:
        file_handler = cast(RotatingFileHandler, files[0])
        file_handler.maxBytes, file_handler.backupCount = max_bytes, backup_count
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        file_handler = SizedRotatingFileHandler(path, maxBytes=max_bytes, backupCount=backup_count, encoding="utf-8")
        setattr(file_handler, _MARK, "file")
        root.addHandler(file_handler)
    file_handler.setFormatter(formatter)
    file_handler.setLevel(logging.NOTSET)
    _tag_jobs(file_handler)


def _stderr_handler(formatter: logging.Formatter, stderr_level: int | None) -> None:
    """The root logger's one stderr handler at ``stderr_level``, or none when it is ``None``."""
    root = logging.getLogger()
    for handler in _ours("stderr") if stderr_level is None else ():
        root.removeHandler(handler)
    if stderr_level is not None:
        streams = _ours("stderr")
        if streams:
            stream_handler = cast(logging.StreamHandler, streams[0])  # type: ignore[type-arg]
            stream_handler.setStream(sys.stderr)  # follow a replaced sys.stderr
        else:
            stream_handler = logging.StreamHandler(sys.stderr)
            setattr(stream_handler, _MARK, "stderr")
            root.addHandler(stream_handler)
        stream_handler.setFormatter(formatter)
        stream_handler.setLevel(stderr_level)
        _tag_jobs(stream_handler)


def _tag_jobs(handler: logging.Handler) -> None:
    if not any(isinstance(f, JobTagFilter) for f in handler.filters):
        handler.addFilter(JobTagFilter())
    if not any(isinstance(f, RedactFilter) for f in handler.filters):
        handler.addFilter(RedactFilter())


LEVEL_VARIABLE = "STUDYJOBS_LOG_LEVEL"


def _level_from_environment() -> int:
    name = os.environ.get(LEVEL_VARIABLE, "").strip().upper()
    level = logging.getLevelName(name) if name else logging.INFO
    return level if isinstance(level, int) else logging.INFO


def reset_logging() -> None:
    """Remove (and close) the handlers :func:`configure_logging` installed; other handlers are left alone."""
    root = logging.getLogger()
    for handler in _ours("file") + _ours("stderr"):
        root.removeHandler(handler)
        handler.close()
