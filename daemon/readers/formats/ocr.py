"""Text recognition for PDF pages without a text layer: Tesseract 5 through tesserocr (Apache-2.0), offline.

Threading rules: a :class:`PageRecogniser` is used by one thread (the reader's), which must call
:meth:`PageRecogniser.close` (a ``with`` block does); its own threads are joined there. A stop is seen between pages.
Models, language choice and threads: docs/design/readers.md.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from daemon.readers.language import detect_language

__all__ = [
    "OCR_DPI",
    "TESSDATA_DIR",
    "TESSDATA_ENV",
    "THREADS",
    "PageRecogniser",
    "available",
    "tessdata_dir",
    "tesseract_languages",
]

TESSDATA_DIR = Path(__file__).resolve().parents[3] / "resources" / "tessdata"
TESSDATA_ENV = "STUDYJOBS_TESSDATA"
"""Another folder of trained data instead of :data:`TESSDATA_DIR` (tests: an empty one stands for a copy without)."""
OCR_DPI = 300
"""Pages are rendered for recognition at this resolution (Tesseract's models are trained on text of about 300 dpi)."""
THREADS = 2
"""Recognition threads (and engines): one per core of the machines the app is measured on."""
_LANGUAGES = {"pt": "por", "en": "eng"}
_BOTH = "por+eng"
_POLL = 0.05


def available() -> bool:
    """Whether recognition can run here: tesserocr imports and the trained data is in place."""
    try:
        import tesserocr  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        return False
    return all((tessdata_dir() / f"{name}.traineddata").is_file() for name in _LANGUAGES.values())


def tessdata_dir() -> Path:
    """The folder of the trained data: ``$STUDYJOBS_TESSDATA`` when set, else :data:`TESSDATA_DIR`."""
    return Path(os.environ.get(TESSDATA_ENV) or TESSDATA_DIR)


def tesseract_languages(language: str | None) -> str | None:
    """Tesseract's name for an ISO 639-1 ``language`` (``"pt"`` → ``"por"``), ``None`` for one we do not ship."""
    if not language:
        return None
    return _LANGUAGES.get(language.split("-")[0].split("_")[0].lower())


def _engine(languages: str) -> Any:
    import tesserocr

    return tesserocr.PyTessBaseAPI(path=str(tessdata_dir()), lang=languages, psm=tesserocr.PSM.AUTO)


def _recognise(engine: Any, image: Any) -> str:
    engine.SetImage(image)
    engine.Recognize()
    text: str = engine.GetUTF8Text()
    for line in _bullet_lines(engine):
        text = text.replace(line, "• " + line.split(" ", 1)[1], 1)
    engine.Clear()
    return text


_MISREAD_BULLETS = frozenset("e«*°o©¢")
"""What Tesseract's models, which have no "•", read a list bullet as."""
_BULLET_GAP = 1.5
"""A bullet stands apart: the gap after it is at least this many times its width (a word's space is less)."""


def _bullet_lines(engine: Any) -> list[str]:
    """The recognised lines (with their line end) that start with a list bullet read as a letter or mark: a lone
    :data:`_MISREAD_BULLETS` character, no wider than high, set apart from the word after it by a wide gap."""
    from tesserocr import RIL, iterate_level

    found: list[str] = []
    mark: tuple[str, int, int, int] | None = None  # a line's first word if it may be a bullet: line, width, height, end
    for word in iterate_level(engine.GetIterator(), RIL.WORD):
        box = word.BoundingBox(RIL.WORD)
        if word.IsAtBeginningOf(RIL.TEXTLINE):
            lone = box is not None and word.GetUTF8Text(RIL.WORD) in _MISREAD_BULLETS
            mark = (word.GetUTF8Text(RIL.TEXTLINE), box[2] - box[0], box[3] - box[1], box[2]) if lone else None
            continue
        if mark is not None and box is not None:
            line, width, height, end = mark
            if width <= height + 1 and box[0] - end >= _BULLET_GAP * width:
                found.append(line)
        mark = None
    return found


class PageRecogniser:
    """Recognises page images on :data:`THREADS` threads, in a language fixed by the first page when not given.

    Args:
        language: The ISO 639-1 code to read with (the user's choice or the text layer's); ``None``: the pages
            begun before one is done are read with ``por+eng``, and the first done decides the rest's language.
        stopped: Whether to stop (checked before each page).
    """

    def __init__(self, language: str | None, stopped: Callable[[], bool]) -> None:
        self._known = tesseract_languages(language)
        self._languages = self._known or _BOTH
        self._decided = self._known is not None
        self._decide_lock = threading.Lock()
        self._stopped = stopped
        self._inbox: queue.Queue[Any] = queue.Queue(maxsize=THREADS)
        self._results: queue.Queue[tuple[int, str] | BaseException] = queue.Queue()
        self._closing = threading.Event()
        self._threads = [
            threading.Thread(target=self._work, name=f"studyjobs-ocr-{n}", daemon=True) for n in range(THREADS)
        ]
        self._given = 0
        for thread in self._threads:
            thread.start()

    @property
    def languages(self) -> str:
        """The Tesseract languages the pages after the first are read with."""
        return self._languages

    def __enter__(self) -> PageRecogniser:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def give(self, index: int, image: Any, *, poll: float = _POLL) -> None:
        """Queue page ``index``'s image (blocks while both threads are busy and a page is already waiting)."""
        while True:
            if self._stopped():
                return
            try:
                self._inbox.put((index, image), timeout=poll)
                self._given += 1
                return
            except queue.Full:
                continue

    def pages(self, *, poll: float = _POLL) -> Iterator[tuple[int, str]]:
        """Each page given so far and not yet taken, as ``(index, text)`` in the order they are done; re-raises
        an engine's failure. Returns early when stopped."""
        while self._given > 0:
            try:
                result = self._results.get(timeout=poll)
            except queue.Empty:
                if self._stopped():
                    return
                continue
            self._given -= 1
            if isinstance(result, BaseException):
                raise result
            yield result

    def ready(self) -> Iterator[tuple[int, str]]:
        """The pages already done, without waiting."""
        while True:
            try:
                result = self._results.get_nowait()
            except queue.Empty:
                return
            self._given -= 1
            if isinstance(result, BaseException):
                raise result
            yield result

    def close(self) -> None:
        """End the threads (after the page each is on) and free their engines."""
        self._closing.set()
        for thread in self._threads:
            thread.join()

    def _work(self) -> None:
        engine: tuple[str, Any] | None = None
        try:
            while not self._closing.is_set():
                try:
                    index, image = self._inbox.get(timeout=_POLL)
                except queue.Empty:
                    continue
                if not self._stopped():
                    engine = self._page(engine, index, image)
        except BaseException as error:  # handed to the reader's thread, which raises it
            self._results.put(error)
        finally:
            if engine is not None:
                engine[1].End()

    def _page(self, engine: tuple[str, Any] | None, index: int, image: Any) -> tuple[str, Any]:
        """Recognise one page with the languages known now; the first page done decides them for the pages after
        it. Returns the engine (with its languages) kept for the next page."""
        languages = self._languages
        if engine is None or engine[0] != languages:
            if engine is not None:
                engine[1].End()
            engine = (languages, _engine(languages))
        text = _recognise(engine[1], image)
        with self._decide_lock:
            if not self._decided:
                self._decided = True
                self._languages = tesseract_languages(detect_language(text)) or _BOTH
        self._results.put((index, text))
        return engine
