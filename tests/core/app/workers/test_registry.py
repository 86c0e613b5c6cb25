"""The workers table: register, touch, list the living, forget the dead, hand a row over to the process that takes a
worker's place — on both backends."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from datetime import timedelta

import pytest
import sqlalchemy as sa

from core.app.storage.database import open_app_database
from core.app.storage.schema import Worker
from core.app.workers.controls import RESTART_NOW, request_restart
from core.app.workers.registry import (
    alive_workers,
    forget_dead_workers,
    forget_workers,
    gone_workers_here,
    list_workers,
    register_worker,
    touch_worker,
    unregister_worker,
)
from core.types import utcnow


@pytest.fixture
async def app_db(database_url: str):
    db = await open_app_database(database_url)
    try:
        yield db
    finally:
        await db.dispose()


async def register(db, **values) -> str:
    return await register_worker(
        db,
        **{"host": "ana-laptop", "pid": 4242, "version": "0.1.0", "threads": 2, "broker": "sqlite:///x.db"} | values,
    )


async def age(db, worker_id: str, seconds: float) -> None:
    """Make the worker look silent for ``seconds`` (as if it had crashed that long ago)."""
    async with db.get_session_context() as session:
        await session.execute(
            sa.update(Worker).where(Worker.id == worker_id).values(last_seen=utcnow() - timedelta(seconds=seconds))
        )


async def test_a_registered_worker_is_listed_with_what_it_said_about_itself(app_db):
    before = utcnow()
    worker_id = await register(app_db)

    [worker] = await list_workers(app_db)

    assert re.fullmatch(r"ana-laptop:4242:[0-9a-f]{8}", worker_id)
    assert (worker.id, worker.host, worker.pid, worker.version) == (worker_id, "ana-laptop", 4242, "0.1.0")
    assert (worker.threads, worker.running, worker.stopping, worker.broker) == (2, 0, False, "sqlite:///x.db")
    assert before <= worker.started_at == worker.last_seen <= utcnow()


async def test_two_registrations_of_one_process_get_different_ids(app_db):
    assert await register(app_db) != await register(app_db)
    assert len(await list_workers(app_db)) == 2


async def test_the_broker_password_is_never_stored(app_db):
    await register(app_db, broker="redis://queue:s3cr3t@broker.lan:6379/0")

    [worker] = await list_workers(app_db)

    assert worker.broker == "redis://queue:***@broker.lan:6379/0"


async def test_touching_renews_last_seen_and_records_the_running_count(app_db):
    worker_id = await register(app_db)
    await age(app_db, worker_id, 60)
    [stale] = await list_workers(app_db)

    assert await touch_worker(app_db, worker_id, running=2) is True

    [fresh] = await list_workers(app_db)
    assert fresh.last_seen > stale.last_seen and fresh.running == 2 and not fresh.stopping
    assert await touch_worker(app_db, worker_id, running=0, stopping=True) is True
    [draining] = await list_workers(app_db)
    assert (draining.running, draining.stopping) == (0, True)


async def test_touching_a_worker_whose_row_is_gone_answers_false(app_db):
    worker_id = await register(app_db)

    assert await unregister_worker(app_db, worker_id) is True

    assert await touch_worker(app_db, worker_id, running=1) is False
    assert await unregister_worker(app_db, worker_id) is False
    assert await list_workers(app_db) == []


async def test_only_workers_seen_recently_count_as_alive(app_db):
    alive = await register(app_db, pid=1)
    silent = await register(app_db, pid=2)
    await age(app_db, silent, 60)

    assert [w.id for w in await alive_workers(app_db)] == [alive]
    assert [w.id for w in await alive_workers(app_db, within=120)] == [alive, silent]
    assert [w.id for w in await list_workers(app_db, alive_within=15)] == [alive]
    assert {w.id for w in await list_workers(app_db)} == {alive, silent}


async def test_forgetting_dead_workers_removes_only_the_silent_ones(app_db):
    alive = await register(app_db, pid=1)
    dead = await register(app_db, pid=2)
    await age(app_db, dead, 3600)

    assert await forget_dead_workers(app_db, older_than=600) == 1

    assert [w.id for w in await list_workers(app_db)] == [alive]
    assert await touch_worker(app_db, dead, running=0) is False, "the dead one must register again"


async def test_nonsense_arguments_are_refused(app_db):
    with pytest.raises(ValueError, match="threads"):
        await register(app_db, threads=0)
    with pytest.raises(ValueError, match="model state"):
        await register(app_db, model_state="asleep")
    with pytest.raises(ValueError, match="alive_within"):
        await list_workers(app_db, alive_within=-1)
    with pytest.raises(ValueError, match="older_than"):
        await forget_dead_workers(app_db, older_than=-1)


@pytest.fixture
def ended_pid() -> int:
    """The pid of a process that ran and was reaped: it names no process now."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait(30)
    return child.pid


async def test_a_worker_of_this_machine_whose_process_ended_is_named_gone_and_can_be_forgotten(app_db, ended_pid: int):
    crashed = await register(app_db, host="ana-laptop", pid=ended_pid)
    running_here = await register(app_db, host="ana-laptop", pid=os.getpid())
    elsewhere = await register(app_db, host="bia-desktop", pid=ended_pid)  # another machine's pids mean nothing here
    namesake = await register(app_db, host="ana-laptop", pid=ended_pid)  # another machine of the same name, alive
    for worker_id in (crashed, running_here, elsewhere):
        await age(app_db, worker_id, 30)

    gone = await gone_workers_here(app_db, host="ana-laptop", silent_for=10)

    assert gone == ([crashed] if os.name == "posix" else [])
    assert await forget_workers(app_db, gone) == len(gone)
    assert {w.id for w in await list_workers(app_db)} == {running_here, elsewhere, namesake} | ({crashed} - set(gone))


async def test_a_fresh_worker_replaces_the_row_of_the_worker_whose_place_it_takes_and_no_other(app_db):
    gave_back = await register(app_db, pid=4242, model_state="unloaded")
    same_pid_elsewhere = await register(app_db, host="bia-desktop", pid=4242)
    other_here = await register(app_db, pid=5151)

    fresh = await register(app_db, pid=6363, replaces_pid=4242, model_state="unloaded")

    rows = {w.id: w for w in await list_workers(app_db)}
    assert set(rows) == {same_pid_elsewhere, other_here, fresh} and gave_back not in rows
    assert (rows[fresh].pid, rows[fresh].model_state, rows[fresh].running) == (6363, "unloaded", 0)


async def test_a_worker_that_executes_itself_again_replaces_the_row_of_its_own_pid(app_db):
    before = await register(app_db, pid=4242)

    after = await register(app_db, pid=4242, replaces_pid=4242)

    assert after != before
    assert [w.id for w in await list_workers(app_db)] == [after]


async def test_a_restart_asked_of_the_replaced_worker_is_asked_of_the_fresh_one(app_db):
    gave_back = await register(app_db, pid=4242)
    assert await request_restart(app_db, RESTART_NOW, [gave_back]) == 1

    fresh = await register(app_db, pid=6363, replaces_pid=4242)

    [row] = await list_workers(app_db)
    assert (row.id, row.restart_requested) == (fresh, RESTART_NOW)


async def test_a_reader_never_sees_the_table_without_a_worker_while_rows_are_handed_over(database_url: str):
    writer, reader = await open_app_database(database_url), await open_app_database(database_url)
    counts: list[int] = []
    done = asyncio.Event()

    async def read() -> None:
        while not done.is_set():
            counts.append(len(await list_workers(reader)))

    try:
        await register(writer, pid=1000)
        reading = asyncio.create_task(read())
        for pid in range(1001, 1101):
            await register(writer, pid=pid, replaces_pid=pid - 1, model_state="unloaded")
            await asyncio.sleep(0)
        done.set()
        await reading
    finally:
        await writer.dispose()
        await reader.dispose()

    assert len(counts) > 50, "the reads spanned the hand-overs"
    assert set(counts) == {1}, f"{counts.count(0)} of {len(counts)} reads saw no worker"
