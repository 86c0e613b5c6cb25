"""Fixtures of the broker tests: a Redis namespace of its own per test (the embedded queue, the job table, has its
own tests in ``test_broker_jobs.py``).

The Redis tests use the machine's server (127.0.0.1:6379, ``STUDYJOBS_TEST_REDIS_URL`` points elsewhere); each
test gets a unique namespace whose keys are deleted at teardown, so tests may run side by side.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis

from tests.daemon.brokers.broker_kits import REDIS_OPTIONS, REDIS_URL, BrokerKit, Child


@pytest.fixture
def kit() -> Iterator[BrokerKit]:
    """A kit of the message broker under test (Redis); every broker it opened is closed afterwards."""
    yield from _redis_kit()


def _redis_kit() -> Iterator[BrokerKit]:
    namespace = f"sjtest-{uuid.uuid4().hex[:12]}"
    made = BrokerKit("redis", REDIS_URL, {**REDIS_OPTIONS, "namespace": namespace})
    try:
        yield made
    finally:
        made.close_all()
        client = redis.Redis.from_url(REDIS_URL)
        try:
            keys = list(client.scan_iter(match=f"{namespace}:*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()


@pytest.fixture
def redis_kit() -> Iterator[BrokerKit]:
    """A Redis kit, for the tests of what only our Redis broker adds."""
    yield from _redis_kit()


@pytest.fixture
def children() -> Iterator[list[Child]]:
    """Child processes a test starts; any still running at teardown is killed."""
    started: list[Child] = []
    yield started
    for child in started:
        child.kill()
