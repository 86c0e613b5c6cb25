"""``studyjobs daemon``: the worker process — Dramatiq started from our code, never from the ``dramatiq`` CLI.

:func:`run_daemon` runs on the main thread and owns the process: one daemon per data folder (the folder lock), a
graceful stop on SIGTERM/SIGINT that hands claims back, an exit with :data:`~core.app.exit_codes.EXIT_IDLE` or
:data:`~core.app.exit_codes.EXIT_RESTART` for the watchdog to answer.
Start, stop, idle and restart: docs/design/worker.md.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
from typing import Any

import dramatiq
import dramatiq.worker
from dramatiq.asyncio import EventLoopThread, get_event_loop_thread

from core import __version__
from core.app.exit_codes import EXIT_ALREADY_RUNNING, EXIT_IDLE, EXIT_RESTART
from core.app.logs import configure_logging
from core.app.settings.config import Settings
from core.app.workers.controls import RESTART_NOW, RESTART_WHEN_IDLE
from daemon.brokers import JobRows, JobTableBroker, create_broker
from daemon.llm.models import warm_model_checks
from daemon.lock import DataFolderLock, DataFolderLocked
from daemon.readers.sandbox.isolated import default_pool as default_reader_pool
from daemon.runtime import Runtime, install, model_choice
from daemon.signals import stop_on_signals
from daemon.supervisor import Supervisor
from daemon.watchdog import ENV_GAVE_BACK

__all__ = ["run_daemon"]

log = logging.getLogger(__name__)
GRACE_SECONDS = 7.0
"""How long in-flight jobs get to stop and hand their claims back before the worker is stopped."""
EMBEDDED_PREFETCH = 32
"""Due rows the embedded daemon may hold as messages at once (at least twice its threads); it reads the job table
again once half of them are done. Holding a row does not claim it: another worker on the file may still take it."""


def _backoff_override() -> tuple[float, ...] | None:
    """``STUDYJOBS_BACKOFF="1,2"`` shortens the retry schedule (tests, demos)."""
    raw = os.environ.get("STUDYJOBS_BACKOFF", "").strip()
    return tuple(float(x) for x in raw.split(",")) if raw else None


def _redispatch_override() -> dict[str, float]:
    """``STUDYJOBS_REDISPATCH_AFTER="3"`` shortens how long a queued row waits before its message is re-sent (tests)."""
    raw = os.environ.get("STUDYJOBS_REDISPATCH_AFTER", "").strip()
    return {"redispatch_after": float(raw)} if raw else {}


def run_daemon(settings: Settings, *, threads: int | None = None, autostart: bool = False) -> int:
    """Run the worker until SIGTERM/SIGINT; returns the exit code."""
    configure_logging(settings.log_dir, "daemon")
    lock = DataFolderLock(settings.data_dir)
    try:
        lock.acquire()
    except DataFolderLocked as locked:
        if not autostart:
            print(str(locked))
        return 0 if autostart else EXIT_ALREADY_RUNNING
    worker_threads = threads or settings.worker_threads
    prefetch, options = _prefetch(settings.broker_url, worker_threads)
    dramatiq.worker.QUEUE_PREFETCH = prefetch  # the consumer-wide limit of unacked messages
    stop = stop_on_signals("the worker")
    try:
        broker = create_broker(settings.broker_url, **options)
        dramatiq.set_broker(broker)
        runtime = _runtime(settings, broker)
        install(runtime)
        supervisor = Supervisor(runtime, version=__version__, threads=worker_threads, **_redispatch_override())
        supervisor.start()
        supervisor.wait_registered()
        worker, loop_thread = _start_worker(broker, runtime, worker_threads)
        # What exists now (modules, the ORM, the broker) lives as long as the process: keep it out of the garbage
        # collector's full passes, which otherwise walk all of it again and again while jobs allocate.
        gc.collect()
        gc.freeze()
        log.info("worker %s started: %d thread(s), broker %s", runtime.worker_id, worker_threads, broker)
        print(f"StudyJobs worker running ({worker_threads} thread(s)). Press Ctrl+C to stop.", flush=True)
        code = _wait_for_end(stop, runtime, supervisor)
        _shutdown(runtime, worker, supervisor, loop_thread, hand_over=code == EXIT_IDLE)
        return code
    except Exception:
        log.exception("the worker could not run")
        raise
    finally:
        install(None)
        lock.release()


def _prefetch(broker_url: str, worker_threads: int) -> tuple[int, dict[str, Any]]:
    """How many messages the worker may hold unacked, and the broker's options that go with it."""
    if _is_table_queue(broker_url):
        prefetch = max(EMBEDDED_PREFETCH, 2 * worker_threads)
        return prefetch, {"claim_batch": prefetch // 2}
    # One message in hand per thread: a long job must not hold a second one another daemon could run now.
    return worker_threads, {}


def _runtime(settings: Settings, broker: dramatiq.Broker) -> Runtime:
    """The daemon's runtime, wired to the actors (imported here: the broker is set) and to the job table's
    broker when the table is the queue."""
    from daemon import actors  # the broker is set: now the actors may be declared

    runtime = Runtime(settings, backoff=_backoff_override(), gave_back_by=_gave_back_by())
    runtime.dispatch = actors.dispatch
    runtime.dispatch_many = actors.dispatch_many
    if isinstance(broker, JobTableBroker):
        runtime.rows_are_messages = True
        runtime.wake_queue = broker.wake
        broker.taking_jobs = runtime.taking_jobs
    return runtime


def _gave_back_by() -> int | None:
    """The pid of the worker that gave its memory back whose place this process takes
    (:data:`~daemon.watchdog.ENV_GAVE_BACK`); ``None`` when it takes nobody's place."""
    raw = os.environ.get(ENV_GAVE_BACK, "").strip()
    return int(raw) if raw.isdigit() else None


def _start_worker(
    broker: dramatiq.Broker, runtime: Runtime, worker_threads: int
) -> tuple[dramatiq.Worker, EventLoopThread]:
    """Start Dramatiq's worker, warm the reader pool, start the runtime on the worker's event loop, and (job
    table as the queue) attach the table so that due rows are delivered."""
    # Dramatiq's Redis consumer sleeps up to worker_timeout between polls of an empty queue: keep it short there.
    # The job table's consumers watch the table themselves.
    poll_ms = 100 if isinstance(broker, JobTableBroker) else 20
    worker = dramatiq.Worker(broker, worker_threads=worker_threads, worker_timeout=poll_ms)
    worker.start()
    if not runtime.replaces_idle:  # after an idle exit, nothing waits: the first file starts its reader
        default_reader_pool().warm()  # a reader process imports the readers now, not when the first file comes
        warm_model_checks(model_choice(runtime.settings))  # what the first job's model check reads, read now
    loop_thread = get_event_loop_thread()
    if loop_thread is None:
        raise RuntimeError("Dramatiq's AsyncIO middleware is not installed on the broker")
    loop_thread.run_coroutine(runtime.start())
    if isinstance(broker, JobTableBroker):
        broker.attach(JobRows(runtime.store, loop_thread.loop))  # from now on the due rows are delivered
    return worker, loop_thread


def _wait_for_end(stop: threading.Event, runtime: Runtime, supervisor: Supervisor) -> int:
    """Block until the worker must end; its exit code: :data:`EXIT_RESTART` for a restart asked of it,
    :data:`EXIT_IDLE` once it gave its memory back, 0 for a stop."""
    while not stop.wait(0.1):
        if not supervisor.is_alive():
            log.error("the supervisor thread died; stopping")
            return 0
        if runtime.restart == RESTART_NOW or (runtime.restart == RESTART_WHEN_IDLE and not runtime.running()):
            log.info("starting again to use new settings (%s)", "jobs handed back" if runtime.running() else "idle")
            return EXIT_RESTART
        if runtime.gave_back.is_set() and not runtime.running():
            log.info("memory given back: a fresh worker takes over")
            return EXIT_IDLE
    return 0


def _is_table_queue(broker_url: str) -> bool:
    """Whether ``broker_url`` names the embedded queue (the job table, :mod:`daemon.brokers.jobs`)."""
    return broker_url.partition(":")[0].lower().startswith("sqlite")


def _shutdown(
    runtime: Runtime, worker: dramatiq.Worker, supervisor: Supervisor, loop_thread: object, *, hand_over: bool
) -> None:
    """Stop the worker: its jobs handed back, its threads, readers and broker closed, then the supervisor, which
    removes the worker's row, or with ``hand_over`` leaves it for the fresh process that takes its place."""
    started = time.monotonic()
    for thread in worker.workers:  # take no further message: those still waiting are handed back by worker.stop()
        thread.stop()
    runtime.stop_all()  # Worker.pause() would wait for every running message to finish
    while runtime.running() and time.monotonic() - started < GRACE_SECONDS:
        time.sleep(0.02)
    if runtime.running():
        log.warning("%d job(s) did not stop in time; their leases will expire", len(runtime.running()))
    if isinstance(worker.broker, JobTableBroker):
        worker.broker.attach(None)  # the store closes next: read no more rows
    run = getattr(loop_thread, "run_coroutine", None)
    if run is not None:
        try:
            run(runtime.close())
        except Exception:
            log.warning("closing the runtime failed", exc_info=True)
    worker.stop(timeout=2000)
    default_reader_pool().close()  # its processes end now, not when this process exits or execs itself again
    worker.broker.close()
    supervisor.stop(hand_over=hand_over)
    log.info("worker stopped in %.1f s", time.monotonic() - started)
