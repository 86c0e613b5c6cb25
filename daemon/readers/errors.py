"""Why a document could not be read.

:class:`ExtractionError` carries a stable ``code``, its ``values``, one plain English sentence and a ``detail`` for
the log; it is permanent except for :data:`TRANSIENT_CODES`. :class:`ExtractionStopped` is a
:class:`~core.app.messages.sentences.StoppedOnRequest`, not a failure.
"""

from __future__ import annotations

from typing import Literal, get_args

from core.app.messages.sentences import CodedError, StoppedOnRequest, message

__all__ = ["EXTRACTION_CODES", "TRANSIENT_CODES", "ExtractionCode", "ExtractionError", "ExtractionStopped"]

ExtractionCode = Literal[
    "file_deleted",
    "file_busy",
    "file_unreadable",
    "empty_file",
    "too_large",
    "unsupported_format",
    "not_a_pdf",
    "wrong_format",
    "zero_filled",
    "corrupt_file",
    "truncated",
    "archive_too_large",
    "archive_entries",
    "unsafe_names",
    "unsafe_xml",
    "encrypted",
    "no_text",
    "blank_pages",
    "reader_crashed",
    "reader_killed",
    "reader_out_of_memory",
    "reader_too_slow",
    "text_too_large",
]
"""The codes an :class:`ExtractionError` can carry.

* ``file_deleted`` — no file at that path any more: it was deleted, moved or renamed after it was added (or
  while it was being read).
* ``file_busy`` — transient: the file is locked or in use by another program, or still being synced from a
  cloud folder (``EBUSY``, ``EAGAIN``, ``ETXTBSY``, a Windows sharing or lock violation, a cloud-file error).
* ``file_unreadable`` — the file exists but the operating system refuses to let us read it (permissions, a
  folder, a device, a pipe).
* ``empty_file`` — zero bytes.
* ``too_large`` — bigger than the limit (values ``size_mb``, ``max_mb``).
* ``unsupported_format`` — neither the name nor the content is a format StudyJobs reads (an old ``.doc``, a
  spreadsheet, an image …).
* ``not_a_pdf`` — named ``.pdf`` but the content is text, random bytes or another binary format.
* ``wrong_format`` — named ``.docx`` or ``.epub`` but the content is text (value ``format``, the name's format).
* ``zero_filled`` — every byte is zero (value ``size``): space reserved by a download, a copy or a cloud sync that
  never wrote the content.
* ``corrupt_file`` — the right kind of file, but damaged (bad zip, bad PDF structure, bad XML) with nothing
  showing that it was cut short.
* ``truncated`` — the file ends before its end: a PDF without its ``%%EOF`` end marker, a zip archive without
  its directory (value ``size``, the bytes there are). Only this code speaks of an interrupted download.
* ``archive_too_large`` — an EPUB or Word archive that unpacks past the limits (value ``max_mb``): a zip bomb.
* ``archive_entries`` — an EPUB or Word archive with too many entries (values ``count``, ``max_count``).
* ``unsafe_names`` — an archive entry named with an absolute path or ``..``.
* ``unsafe_xml`` — XML that declares entities (billion laughs) or refers to external files or addresses.
* ``encrypted`` — password-protected PDF (any scheme) or Word file, or an EPUB with DRM (value ``format``).
* ``no_text`` — nothing to read: a scanned (image-only) PDF, an empty document (value ``format``).
* ``blank_pages`` — a PDF whose pages draw nothing: no text, no pictures, no shapes (value ``format``).
* ``reader_crashed`` — the reader process (:mod:`daemon.readers.sandbox.isolated`) died on the file: a fault in native
  code, or an exit without an answer.
* ``reader_killed`` — transient: something other than StudyJobs ended the reader process (on Linux, the kernel
  when the computer ran out of memory).
* ``reader_out_of_memory`` — the file needed more memory than its limit (value ``max_mb``).
* ``reader_too_slow`` — reading took longer than its CPU or wall-time limit (value ``seconds``).
* ``text_too_large`` — the file gave more text than its limit (values ``chars``, ``max_chars``).
"""

EXTRACTION_CODES: tuple[ExtractionCode, ...] = get_args(ExtractionCode)
TRANSIENT_CODES: frozenset[ExtractionCode] = frozenset({"file_busy", "reader_killed"})
"""The codes whose job is retried: the same file may read fine in a while."""


class ExtractionError(CodedError):
    """A document cannot be read; reading it again helps only for :data:`TRANSIENT_CODES`.

    Attributes:
        code: One of :data:`EXTRACTION_CODES`.
        transient: Whether ``code`` is in :data:`TRANSIENT_CODES`.
        values: Values for the user's sentence (``format``, ``size_mb`` …); pass them to
            :func:`core.app.messages.sentences.message`.
        message: The English sentence (also ``str(error)``).
        detail: What the library said, for the log.
    """

    def __init__(self, code: ExtractionCode, *, detail: str = "", **values: str | int) -> None:
        super().__init__(code, transient=code in TRANSIENT_CODES, detail=detail, **values)
        self.message = message(code, "en", **values)
        self.args = (self.message,)

    def __repr__(self) -> str:
        return f"ExtractionError({self.code!r}, values={self.values!r}, detail={self.detail!r})"


class ExtractionStopped(StoppedOnRequest):
    """The stop event was set: reading ended early on purpose. Not a failure.

    Attributes:
        code: ``"stopped"``.
        done: Units (pages, parts) read before the stop.
        total: Units in the document (0 when the stop came before it was known).
    """

    def __init__(self, done: int = 0, total: int = 0) -> None:
        super().__init__("Reading the document was stopped on request.")
        self.done = done
        self.total = total
