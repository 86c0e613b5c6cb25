"""Sentences for the user by code, translated when someone reads them: :func:`message` (a code, a language, values; an
unknown code or a missing value never raises) and :func:`render` (a stored message, or any other text as it is).

Plain data and pure functions; thread-safe (rules: docs/design/application.md, "Sentences for the user").
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from core.app.messages.catalog import EN, PT_BR
from core.stored_messages import decode, encode

__all__ = [
    "CATALOG",
    "FALLBACK_LANGUAGE",
    "GENERIC_CODE",
    "LANGUAGES",
    "CodedError",
    "StoppedOnRequest",
    "has_message",
    "message",
    "normalize_language",
    "render",
]

LANGUAGES = ("pt_BR", "en")
"""The languages the catalog speaks."""

FALLBACK_LANGUAGE = "en"
"""Used for a language the catalog does not speak."""

GENERIC_CODE = "unknown_error"
"""The entry used for a code the catalog does not know."""

CATALOG: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {"en": MappingProxyType(EN), "pt_BR": MappingProxyType(PT_BR)}
)
"""Language → (code or ``code:format``) → sentence template (:meth:`str.format` placeholders)."""


class _KeepMissing(dict[str, object]):
    """Format values that leave an unknown placeholder as written instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def normalize_language(language: str) -> str:
    """``"pt_BR"`` for any Portuguese spelling (``pt``, ``pt-BR``, ``pt_PT``, ``Portuguese_Brazil``), else ``"en"``."""
    return "pt_BR" if language.strip().lower().startswith(("pt", "portuguese")) else FALLBACK_LANGUAGE


def has_message(code: str) -> bool:
    """Whether the catalog has a sentence of its own for ``code`` in every language."""
    return all(code in table for table in CATALOG.values())


def message(code: str, language: str, /, **values: object) -> str:
    """The sentence for ``code`` in ``language``, with ``values`` filled in.

    Args:
        code: A stable code (``"encrypted"``, ``"server_unreachable"``, ``"reading_page"`` …).
        language: ``"pt_BR"`` or ``"en"`` (other spellings: see :func:`normalize_language`).
        **values: Placeholder values (``done=3, total=10``). ``format="pdf"`` also picks the ``code:pdf`` variant
            when the catalog has one.

    Returns:
        One sentence; the generic *Something went wrong…* one for an unknown code. Never raises for a missing
        code, language or value.
    """
    table = CATALOG[normalize_language(language)]
    variant = f"{code}:{values['format']}" if "format" in values else None
    if variant is not None and variant in table:
        template = table[variant]
    elif code in table:
        template = table[code]
    else:
        template = table[GENERIC_CODE]
    return template.format_map(_KeepMissing(values))


def render(stored: str | None, language: str) -> str:
    """What a stored ``message`` or ``error`` says in ``language``.

    An encoded message becomes its sentence (:func:`message`); any other text is returned unchanged, so rows
    written before codes were stored keep working; ``None`` gives ``""``.
    """
    found = decode(stored)
    if found is None:
        return stored or ""
    return message(found.code, language, **found.values)


class CodedError(Exception):
    """The base of every error that carries a sentence for the user as a message code with its values: the
    reader's, the model's, the download's and the worker's own. The worker stores :meth:`stored` as the job's error
    and retries it when ``transient`` (except a :class:`StoppedOnRequest`, which is no failure); each screen renders
    it in its reader's language.

    Args:
        code: The catalog code; a subclass may fix it as a class attribute instead.
        transient: Whether the same work may succeed later unchanged; a subclass may fix it too.
        detail: What a library or server said, for the log only.
        **values: The sentence's placeholder values.
    """

    code: str = GENERIC_CODE
    transient: bool = False

    def __init__(
        self, code: str | None = None, /, *, transient: bool | None = None, detail: str = "", **values: object
    ):
        if code is not None:
            self.code = code
        if transient is not None:
            self.transient = transient
        self.detail = detail
        self.values: dict[str, object] = dict(values)
        super().__init__(self.code)

    def stored(self) -> str:
        """The error as a job stores it (:func:`core.stored_messages.encode`)."""
        return encode(self.code, **self.values)

    def user_message(self, language: str) -> str:
        """The sentence for the user in ``language``."""
        return message(self.code, language, **self.values)


class StoppedOnRequest(CodedError):
    """The base of every error that says work ended early because its stop was asked for (a cancel, a shutdown, a
    time limit): code ``stopped``. Not a failure: whoever catches :class:`CodedError` catches this first, and the
    worker ends the job as the stop's cause says, never with this as its error.

    Args:
        text: The English sentence (also ``str(error)``); the stored sentence, ``stopped``, has no values.
    """

    code = "stopped"

    def __init__(self, text: str = "Stopped on request.", /) -> None:
        super().__init__()
        self.args = (text,)
