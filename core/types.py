"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

__all__ = ["UTCDateTime", "utcnow"]


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that is always timezone-aware UTC in Python, on every backend.

    PostgreSQL stores ``timestamptz``. SQLite has no time zones: values are stored as naive UTC text (so that
    they sort and compare correctly) and come back with ``tzinfo=UTC`` attached. A naive datetime handed in is
    refused, because guessing its zone is how jobs end up reclaimed an hour early.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: pass a timezone-aware datetime")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def bind_processor(self, dialect: Dialect) -> Callable[[Any], Any] | None:
        """On SQLite, the text SQLAlchemy's ``DATETIME`` would store (``YYYY-MM-DD HH:MM:SS.ffffff``, naive UTC),
        made by ``datetime.isoformat`` instead of its slower formatting; elsewhere the usual processing."""
        if dialect.name != "sqlite":
            return super().bind_processor(dialect)

        def to_text(value: datetime | None) -> str | None:
            moment = self.process_bind_param(value, dialect)
            return None if moment is None else moment.isoformat(sep=" ", timespec="microseconds")

        return to_text

    def result_processor(self, dialect: Dialect, coltype: Any) -> Callable[[Any], Any] | None:
        """On SQLite, that text read back with ``datetime.fromisoformat`` (C) rather than a regular expression."""
        if dialect.name != "sqlite":
            return super().result_processor(dialect, coltype)

        def from_text(value: Any) -> datetime | None:
            if value is None:
                return None
            moment = value if isinstance(value, datetime) else datetime.fromisoformat(value)
            return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

        return from_text

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):  # pragma: no cover - raw text from a hand-written row
            value = datetime.fromisoformat(value)
        moment: datetime = value
        if moment.tzinfo is None:
            return moment.replace(tzinfo=UTC)
        return moment.astimezone(UTC)
