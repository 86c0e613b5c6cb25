"""The switches for every worker and the restart requests (core.app.workers.controls) — on both backends."""

from __future__ import annotations

import pytest

from core.app.storage.database import open_app_database
from core.app.workers.controls import (
    RESTART_NOW,
    RESTART_WHEN_IDLE,
    get_control,
    queue_paused,
    read_worker_controls,
    request_restart,
    set_control,
    set_queue_paused,
)
from core.app.workers.registry import register_worker


@pytest.fixture
async def app_db(database_url: str):
    db = await open_app_database(database_url)
    try:
        yield db
    finally:
        await db.dispose()


async def _worker(db) -> str:  # type: ignore[no-untyped-def]
    return await register_worker(db, host="here", pid=1, version="t", threads=1, broker="sqlite:///q")


async def test_the_queue_runs_until_paused_and_runs_again_once_resumed(app_db):
    assert await queue_paused(app_db) is False
    await set_queue_paused(app_db, True)
    assert await queue_paused(app_db) is True
    await set_queue_paused(app_db, True)  # setting it twice keeps one row
    assert await queue_paused(app_db) is True
    await set_queue_paused(app_db, False)
    assert await queue_paused(app_db) is False


async def test_a_switch_holds_any_json_value_and_an_unknown_one_gives_the_default(app_db):
    assert await get_control(app_db, "nothing", default={"a": 1}) == {"a": 1}
    await set_control(app_db, "limits", {"pages": 40, "names": ["ç"]})
    assert await get_control(app_db, "limits") == {"pages": 40, "names": ["ç"]}


async def test_a_worker_reads_the_pause_and_the_restart_asked_of_it_alone(app_db):
    first, second = await _worker(app_db), await _worker(app_db)
    controls = await read_worker_controls(app_db, first)
    assert (controls.paused, controls.restart) == (False, None)
    await set_queue_paused(app_db, True)
    assert await request_restart(app_db, RESTART_WHEN_IDLE, [first]) == 1
    controls = await read_worker_controls(app_db, first)
    assert (controls.paused, controls.restart) == (True, RESTART_WHEN_IDLE)
    assert (await read_worker_controls(app_db, second)).restart is None
    assert (await read_worker_controls(app_db, "gone:1:x")).restart is None


async def test_a_restart_now_is_never_weakened_to_idle_and_every_worker_can_be_asked(app_db):
    first, second = await _worker(app_db), await _worker(app_db)
    assert await request_restart(app_db, RESTART_NOW, [first]) == 1
    assert await request_restart(app_db, RESTART_WHEN_IDLE) == 1  # only the second one: the first stays "now"
    assert (await read_worker_controls(app_db, first)).restart == RESTART_NOW
    assert (await read_worker_controls(app_db, second)).restart == RESTART_WHEN_IDLE
    assert await request_restart(app_db, RESTART_NOW, []) == 0
    with pytest.raises(ValueError, match="restart mode"):
        await request_restart(app_db, "later")
