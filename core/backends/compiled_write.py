"""What SQLAlchemy computes when it compiles one write for one driver, kept so that a call only binds values: the
common half of :mod:`core.backends.sqlite` and :mod:`core.backends.postgres`.

Only for statements with no Python-side defaults at execution and no expanding ``IN`` (docs/design/storage.md,
"Compiled statements"). Immutable once built; safe from any thread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.sql.dml import UpdateBase

__all__ = ["CompiledWrite"]

Processor = Callable[[Any], Any] | None


def _result_processor(type_: Any, dialect: Dialect) -> Processor:
    """The column type's result processor; ``None`` for a numeric type whose processor wants the driver's type code
    (asyncpg already returns a ``float`` for a double precision column, the only kind in the job table)."""
    try:
        processor: Processor = type_.dialect_impl(dialect).result_processor(dialect, None)
    except (TypeError, KeyError, AttributeError):
        return None
    return processor


def _processed(process: Processor, value: Any) -> Any:
    return value if process is None else process(value)


class CompiledWrite:
    """One ``INSERT``/``UPDATE``/``DELETE`` (with or without ``RETURNING``) compiled for ``dialect``. Immutable.

    Args:
        statement: A Core statement whose every value is bound by the caller or fixed in the statement.
        dialect: The dialect of the engine whose connections will run it (positional parameters).

    Raises:
        ValueError: The dialect's parameters are not positional, or the statement has an expanding ``IN``.
    """

    def __init__(self, statement: UpdateBase, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        if not compiled.positional or compiled.positiontup is None:
            raise ValueError(f"{type(self).__name__} needs a dialect with positional parameters")
        if "POSTCOMPILE" in compiled.string:
            raise ValueError(f"{type(self).__name__} cannot run an expanding IN: write or_(...) instead")
        self.statement = statement
        self.sql = compiled.string
        self._names = list(compiled.positiontup)
        # One processor per parameter name: a name used in several places (``now``) is processed once per call.
        self._processors: dict[str, Processor] = {
            name: compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect) for name in self._names
        }
        # A value fixed in the statement (``status="running"``) is processed here once; the others come from the call.
        self._fixed: dict[str, Any] = {
            name: _processed(self._processors[name], compiled.binds[name].effective_value)
            for name in self._processors
            if not compiled.binds[name].required
        }
        self._results: list[tuple[str, Processor]] = [
            (str(column["name"]), _result_processor(column["type"], dialect))
            for column in statement.returning_column_descriptions
        ]

    @property
    def returns_rows(self) -> bool:
        """Whether the statement has a ``RETURNING`` clause."""
        return bool(self._results)

    def bind(self, params: Mapping[str, Any] | None) -> list[Any]:
        """The driver's positional parameters for ``params`` (by bind name), processed as SQLAlchemy would.

        Raises:
            ValueError: A parameter that the statement does not fix is missing from ``params``.
        """
        values = dict(self._fixed)
        for name, value in (params or {}).items():
            if name in self._processors:
                values[name] = _processed(self._processors[name], value)
        try:
            return [values[name] for name in self._names]
        except KeyError as missing:
            raise ValueError(f"no value for the bind parameter {missing}") from None

    def rows(self, fetched: Iterable[Sequence[Any]]) -> list[dict[str, Any]]:
        """The driver's returned rows as dicts by column name, each value processed as SQLAlchemy would."""
        return [
            {
                name: (raw if process is None else process(raw))
                for (name, process), raw in zip(self._results, row, strict=True)
            }
            for row in fetched
        ]
