"""The Dramatiq actors. Import this module only after the broker is set (``dramatiq.set_broker``).

Each actor is a thin boundary: it finds the process's runtime and runs the job kind's handler through
:func:`daemon.jobs.context.run_job`, which closes the job row whatever happens. Dramatiq's own retries, time
limit and age limit are not installed at all (the store owns retries; a study guide may take hours; a queued job
waits as long as it must).
"""

from __future__ import annotations

import uuid

import dramatiq

from daemon.jobs.context import run_job
from daemon.jobs.download_model import run_download_model
from daemon.jobs.generate import run_generate
from daemon.jobs.ingest import run_ingest
from daemon.runtime import current

__all__ = ["ACTORS", "QUEUE", "dispatch", "dispatch_many", "download_model", "generate", "ingest"]

QUEUE = "studyjobs"


@dramatiq.actor(actor_name="ingest", queue_name=QUEUE)
async def ingest(job_id: str) -> None:
    """Run the ``ingest`` job ``job_id``."""
    await run_job(current(), "ingest", uuid.UUID(job_id), run_ingest)


@dramatiq.actor(actor_name="generate", queue_name=QUEUE)
async def generate(job_id: str) -> None:
    """Run the ``generate`` job ``job_id``."""
    await run_job(current(), "generate", uuid.UUID(job_id), run_generate)


@dramatiq.actor(actor_name="download_model", queue_name=QUEUE)
async def download_model(job_id: str) -> None:
    """Run the ``download_model`` job ``job_id``."""
    await run_job(current(), "download_model", uuid.UUID(job_id), run_download_model)


ACTORS = {"ingest": ingest, "generate": generate, "download_model": download_model}


def dispatch(kind: str, job_id: uuid.UUID, delay: float = 0.0) -> None:
    """Send the broker message that makes a worker run ``job_id`` (after ``delay`` seconds). Thread-safe.

    Duplicates are harmless: the claim is conditional, so a second message finds the job not queued.
    """
    milliseconds = int(delay * 1000)
    ACTORS[kind].send_with_options(args=(str(job_id),), delay=milliseconds or None)


def dispatch_many(jobs: list[tuple[str, uuid.UUID]]) -> None:
    """Send the messages of several ``(kind, job_id)`` at once: in one round trip when the broker can batch
    (Redis), else one by one. Thread-safe; duplicates are harmless, as with :func:`dispatch`."""
    if not jobs:
        return
    messages = [ACTORS[kind].message_with_options(args=(str(job_id),)) for kind, job_id in jobs]
    broker = ACTORS[jobs[0][0]].broker  # every actor is declared on the process's one broker
    enqueue_many = getattr(broker, "enqueue_many", None)
    if enqueue_many is not None:
        enqueue_many(messages)
        return
    for message in messages:
        broker.enqueue(message)
