"""Find bit rot inside a PDF that PDFium would silently skip.

Pure functions over bytes, thread-safe; zlib runs outside the PDFium lock. What counts as damage:
docs/design/readers.md.
"""

from __future__ import annotations

import re
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["BackgroundStreamCheck", "StreamDamage", "find_damaged_streams"]

_KEYWORD = re.compile(rb"stream")  # a literal: found at memchr speed; classified below
_WHITESPACE = b" \t\r\n\x0c\x00"
_SKIPPED_KINDS = (b"/Image", b"/EmbeddedFile", b"/Thumb")
_FLATE_FIRST = re.compile(rb"/Filter\s*(?:\[\s*)?/FlateDecode")
_LOOKBACK = 2048
_CHECK_EVERY = 64


@dataclass(frozen=True, slots=True)
class StreamDamage:
    """The damaged streams found: how many, and the first one's byte offset and what was wrong with it."""

    count: int
    first_offset: int
    first_error: str


def _is_zlib_header(data: bytes, start: int) -> bool:
    if start + 2 > len(data):
        return False
    cmf, flg = data[start], data[start + 1]
    return cmf & 0x0F == 8 and cmf >> 4 <= 7 and not flg & 0x20 and (cmf * 256 + flg) % 31 == 0


def _data_start(data: bytes, at: int) -> int | None:
    """Where a stream's data starts if the ``stream`` at ``at`` is the keyword (after ``>>``, before an end of
    line), else ``None``."""
    before = data[max(0, at - 32) : at].rstrip(_WHITESPACE)
    if not before.endswith(b">>"):
        return None
    after = at + 6
    if data[after : after + 2] == b"\r\n":
        return after + 2
    if data[after : after + 1] in (b"\n", b"\r"):
        return after + 1
    return None


def _dictionary(data: bytes, keyword_at: int) -> bytes:
    """The stream's dictionary: the bytes back to its ``obj`` keyword (at most 2 KiB)."""
    head = data[max(0, keyword_at - _LOOKBACK) : keyword_at + 2]
    return head[head.rfind(b"obj") + 1 :]


def _stream_error(data: bytes, view: memoryview, keyword_at: int, start: int, end: int) -> str | None:
    """What is wrong with the stream whose data runs from ``start`` to ``end``, or ``None``."""
    dictionary = _dictionary(data, keyword_at)
    if any(kind in dictionary for kind in _SKIPPED_KINDS) or (end - start < 16 and not data[start:end].strip()):
        return None  # an image or attachment, or an empty stream
    if not _is_zlib_header(data, start):
        return "a /FlateDecode stream without a zlib header" if _FLATE_FIRST.search(dictionary) else None
    try:
        zlib.decompressobj().decompress(view[start:end])
    except zlib.error as exc:
        return str(exc)
    return None


def find_damaged_streams(data: bytes, check: Callable[[], None] | None = None) -> StreamDamage | None:
    """The damaged streams of an unencrypted PDF (see docs/design/readers.md), or ``None`` when there are none.

    Args:
        data: The PDF's bytes.
        check: Called every few dozen streams (the reader passes its stop check, which may raise).
    """
    count, first_offset, first_error = 0, -1, ""

    def damaged(offset: int, error: str) -> None:
        nonlocal count, first_offset, first_error
        count += 1
        if first_offset < 0:
            first_offset, first_error = offset, error

    view = memoryview(data)
    open_at: tuple[int, int] | None = None  # (keyword offset, data start) of a stream waiting for its end
    for seen, match in enumerate(_KEYWORD.finditer(data)):
        if check is not None and seen % _CHECK_EVERY == 0:
            check()
        at = match.start()
        if data[at - 3 : at] == b"end":
            if not data[at + 6 : at + 64].lstrip(_WHITESPACE).startswith(b"endobj"):
                continue  # the word "endstream" inside some text, not the keyword that closes an object
            if open_at is None:
                damaged(at, "an endstream without its stream")
                continue
            error = _stream_error(data, view, open_at[0], open_at[1], at - 3)
            if error is not None:
                damaged(open_at[1], error)
            open_at = None
            continue
        start = _data_start(data, at)
        if start is None:
            continue  # the word "stream" somewhere else, not the keyword after a dictionary
        if open_at is not None:
            damaged(open_at[1], "a stream without endstream")
        open_at = (at, start)
    if open_at is not None:
        damaged(open_at[1], "a stream without endstream")
    return StreamDamage(count, first_offset, first_error) if count else None


class _Cancelled(Exception):
    """Raised inside the helper thread to end a check nobody waits for any more."""


class BackgroundStreamCheck:
    """:func:`find_damaged_streams` on a helper (daemon) thread, started at construction.

    The owner polls :meth:`result` between pages and must call :meth:`close` when done (in a ``finally``): it
    cancels the check if it is still running and joins the thread. Not for sharing between owners.
    """

    def __init__(self, data: bytes) -> None:
        self._cancelled = threading.Event()
        self._damage: StreamDamage | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(data,), name="pdf-stream-check", daemon=True)
        self._thread.start()

    def _run(self, data: bytes) -> None:
        try:
            self._damage = find_damaged_streams(data, self._check)
        except _Cancelled:
            pass
        except BaseException as exc:  # handed to the owner by result()
            self._error = exc

    def _check(self) -> None:
        if self._cancelled.is_set():
            raise _Cancelled

    def result(self, *, wait: bool) -> StreamDamage | None:
        """The damage found, ``None`` for none or (``wait=False``) for a check still running.

        Raises:
            BaseException: Whatever the check itself raised (a bug), re-raised on the owner's thread.
        """
        if wait:
            self._thread.join()
        elif self._thread.is_alive():
            return None
        if self._error is not None:
            raise self._error
        return self._damage

    def close(self) -> None:
        """Cancel the check if it is still running and wait for its thread to end (a few milliseconds)."""
        self._cancelled.set()
        self._thread.join()
