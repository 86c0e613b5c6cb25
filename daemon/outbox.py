"""The embedded outbox: when the job store and the SQLite broker share one file, a queued row writes its own message.

Two triggers on the ``jobs`` table insert a row's Dramatiq message into ``dramatiq_messages`` **in the transaction
that queues the row**: one on ``INSERT`` of a queued row, one on an ``UPDATE`` that puts a row back to queued (a
retry, a claim handed back at shutdown, a reclaimed job). The message becomes visible at the row's ``run_after``
(a retry's backoff), or at once. So:

* an enqueue and its message are atomic, whichever process writes the row (the screen, the CLI, a daemon): there
  is no moment at which a queued row has no message, and none at which a message names a row not yet committed;
* the daemon does no work per new row: its consumer sees the commit (``PRAGMA data_version``) and claims.

Each message is exactly what :meth:`dramatiq.Actor.send` would store for ``actor(job_id)`` (queue, actor name =
the job's kind, ``args = [job id]``, no options), except that its ``message_id`` is the job's id: the sweep finds
due rows whose message was lost (deleted by hand, or queued while the triggers were absent) with one anti-join on
that column (:meth:`Outbox.repair`), and writes their messages with the same expressions.

Threading: the functions open and close their own ``sqlite3`` connection (call them from any thread).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from core.schema import Job
from core.sqlite_gate import write_gate
from daemon.brokers.sqlite_schema import connect, write_transaction

__all__ = ["TRIGGERS", "Outbox", "remove_outbox"]

TRIGGERS = ("studyjobs_outbox_insert", "studyjobs_outbox_requeue")
_JOBS = Job.__tablename__
_MESSAGE_ID_INDEX = "dramatiq_messages_message_id"
_NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"


def _message_select(row: str, queue_name: str) -> str:
    """``SELECT`` of the message columns for the job row aliased ``row`` (no ``FROM``: the caller adds it)."""
    due = f"CAST((julianday({row}.run_after) - 2440587.5) * 86400000.0 AS INTEGER)"
    document = (
        f"json_object('queue_name', {_quote(queue_name)}, 'actor_name', {row}.kind, 'args', json_array({row}.id), "
        f"'kwargs', json_object(), 'options', json_object(), 'message_id', {row}.id, 'message_timestamp', {_NOW_MS})"
    )
    return (
        f"SELECT {_quote(queue_name)}, {row}.id, CAST({document} AS BLOB), "
        f"MAX({_NOW_MS}, COALESCE({due}, 0)), {_NOW_MS}"
    )


_INSERT_MESSAGE = "INSERT INTO dramatiq_messages (queue_name, message_id, data, available_at, enqueued_at) "


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _kinds_sql(kinds: Iterable[str]) -> str:
    names = sorted(set(kinds))
    if not names:
        raise ValueError("the outbox needs at least one job kind")
    return "(" + ", ".join(_quote(name) for name in names) + ")"


@dataclass(frozen=True, slots=True)
class Outbox:
    """The triggers of one SQLite file that holds both the ``jobs`` table and the broker's tables.

    Attributes:
        path: The shared SQLite file.
        queue_name: The Dramatiq queue of the job actors.
        kinds: The job kinds that have an actor of the same name (other kinds get no message).
    """

    path: Path
    queue_name: str
    kinds: tuple[str, ...]

    def install(self) -> None:
        """(Re)create the triggers in one transaction. Call it at every daemon start, after the job tables and the
        broker's tables exist: the kinds may have changed since the last start."""
        kinds_sql = _kinds_sql(self.kinds)
        insert_message = _INSERT_MESSAGE + _message_select("NEW", self.queue_name) + ";"
        conn = connect(self.path)
        try:
            with write_transaction(conn, write_gate(self.path)):
                _drop_triggers(conn)
                conn.execute(f"CREATE INDEX IF NOT EXISTS {_MESSAGE_ID_INDEX} ON dramatiq_messages (message_id)")
                conn.execute(
                    f"CREATE TRIGGER {TRIGGERS[0]} AFTER INSERT ON {_JOBS} "
                    f"WHEN NEW.status = 'queued' AND NEW.kind IN {kinds_sql} "
                    f"BEGIN {insert_message} END"
                )
                conn.execute(
                    f"CREATE TRIGGER {TRIGGERS[1]} AFTER UPDATE OF status ON {_JOBS} "
                    f"WHEN NEW.status = 'queued' AND OLD.status <> 'queued' AND NEW.kind IN {kinds_sql} "
                    f"BEGIN {insert_message} END"
                )
        finally:
            conn.close()

    def lost(self, conn: sqlite3.Connection, *, limit: int = 100) -> list[str]:
        """The ids of due queued rows (oldest first) that have no message, ready or claimed. A read only."""
        rows = conn.execute(
            f"SELECT j.id FROM {_JOBS} j WHERE {_lost_condition(self.kinds)} ORDER BY j.created_at LIMIT ?",
            (limit,),
        ).fetchall()
        return [str(row[0]) for row in rows]

    def repair(self, conn: sqlite3.Connection, *, limit: int = 100) -> int:
        """Write the message of every due queued row that has none (at most ``limit``, oldest first); return how
        many. Reads first and writes only when something is missing, so a healthy file costs one read."""
        if not self.lost(conn, limit=limit):
            return 0
        with write_transaction(conn, write_gate(self.path)):
            cursor = conn.execute(
                _INSERT_MESSAGE + _message_select("j", self.queue_name) + f" FROM {_JOBS} j WHERE j.id IN ("
                f"SELECT j.id FROM {_JOBS} j WHERE {_lost_condition(self.kinds)} ORDER BY j.created_at LIMIT ?)",
                (limit,),
            )
            return int(cursor.rowcount)


def remove_outbox(path: Path) -> None:
    """Drop the triggers of ``path`` (its daemon now sends its messages elsewhere, e.g. to Redis). Idempotent."""
    conn = connect(path)
    try:
        with write_transaction(conn, write_gate(path)):
            _drop_triggers(conn)
            conn.execute(f"DROP INDEX IF EXISTS {_MESSAGE_ID_INDEX}")
    finally:
        conn.close()


def _drop_triggers(conn: sqlite3.Connection) -> None:
    for name in TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")


def _lost_condition(kinds: Iterable[str]) -> str:
    return (
        f"j.status = 'queued' AND j.kind IN {_kinds_sql(kinds)} "
        "AND (j.run_after IS NULL OR julianday(j.run_after) <= julianday('now')) "
        "AND NOT EXISTS (SELECT 1 FROM dramatiq_messages m WHERE m.message_id = j.id)"
    )
