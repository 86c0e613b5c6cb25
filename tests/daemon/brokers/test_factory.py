"""The factory: a broker chosen by URL scheme, our middleware, the import order rule and the layering of the
broker modules."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import grimp
import pytest
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import (
    AgeLimit,
    AsyncIO,
    Callbacks,
    CurrentMessage,
    Pipelines,
    Retries,
    ShutdownNotifications,
    TimeLimit,
)

from daemon.brokers import JobTableBroker, create_broker, default_middleware
from daemon.middleware import JobAsyncIO
from tests.daemon.brokers.broker_kits import ROOT


def test_an_sqlite_url_makes_the_job_table_broker_with_our_middleware(tmp_path: Path):
    broker = create_broker(f"sqlite:///{tmp_path / 'data' / 'jobs.db'}")
    try:
        assert isinstance(broker, JobTableBroker)
        assert [type(m) for m in broker.middleware] == [type(m) for m in default_middleware()]
        assert not (tmp_path / "data").exists(), "the broker opens no file of its own"
    finally:
        broker.close()


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "rediss://user:secret@redis.example:6380/2"])
def test_a_redis_url_makes_dramatiqs_redis_broker_without_connecting(url: str):
    broker = create_broker(url, namespace="sjtest-factory")
    try:
        assert isinstance(broker, RedisBroker)
        assert broker.namespace == "sjtest-factory"
        assert not any(isinstance(m, Retries | TimeLimit) for m in broker.middleware)
    finally:
        broker.client.close()


def test_given_middleware_replaces_ours(tmp_path: Path):
    chosen = [CurrentMessage()]
    broker = create_broker(f"sqlite:///{tmp_path / 'q.db'}", middleware=chosen)
    try:
        assert broker.middleware == chosen
    finally:
        broker.close()


@pytest.mark.parametrize("url", ["amqp://guest@localhost//", "postgresql://db/jobs", "/tmp/queue.db", ""])
def test_an_unsupported_url_is_refused_naming_the_url_and_the_schemes(url: str):
    with pytest.raises(ValueError) as raised:
        create_broker(url)
    message = str(raised.value)
    assert repr(url) in message
    assert "sqlite, redis, rediss" in message


def test_a_refused_url_does_not_show_its_password():
    with pytest.raises(ValueError) as raised:
        create_broker("amqp://guest:hunter2@localhost:5672/")
    assert "hunter2" not in str(raised.value)
    assert "amqp://guest:***@localhost:5672/" in str(raised.value)


def test_our_middleware_has_no_retries_no_time_limit_and_nothing_our_actors_do_not_use():
    kinds = [type(m) for m in default_middleware()]
    assert kinds == [ShutdownNotifications, JobAsyncIO, CurrentMessage]
    assert issubclass(JobAsyncIO, AsyncIO)  # Dramatiq's middleware, with our loop thread
    assert not {AgeLimit, Callbacks, Pipelines, Retries, TimeLimit} & set(kinds)
    first, second = default_middleware(), default_middleware()
    assert all(a is not b for a, b in zip(first, second, strict=True)), "each broker needs its own instances"


def test_the_broker_can_be_set_before_any_actor_module_is_imported(tmp_path: Path):
    (tmp_path / "some_actors.py").write_text(
        textwrap.dedent(
            """
            import dramatiq

            @dramatiq.actor(queue_name="ingest")
            def ingest(job_id: str) -> None:
                pass
            """
        )
    )
    script = textwrap.dedent(
        f"""
        import sys
        import dramatiq
        import dramatiq.broker
        from daemon.brokers import create_broker

        assert dramatiq.broker.global_broker is None, "importing the factory must not pick a global broker"
        broker = create_broker({f"sqlite:///{tmp_path / 'jobs.db'}"!r})
        dramatiq.set_broker(broker)
        import some_actors
        assert some_actors.ingest.broker is broker
        assert "ingest" in broker.get_declared_queues()
        assert "dramatiq.brokers.rabbitmq" not in sys.modules
        broker.close()
        print("ok")
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_the_concrete_brokers_never_import_the_factory():
    graph = grimp.build_graph("daemon", exclude_type_checking_imports=True)
    concrete = {m for m in graph.modules if m.startswith("daemon.brokers.")}
    assert {"daemon.brokers.jobs", "daemon.brokers.redis"} <= concrete
    for module in concrete:
        imported = graph.find_modules_directly_imported_by(module)
        assert "daemon.brokers" not in imported, f"{module} imports the factory"
        if module == "daemon.brokers.jobs":
            assert not {"daemon.brokers.redis", "redis"} & imported, f"{module} imports Redis"
