"""Job rows for the window's tests and the GUI benchmark: a long history in bulk, and one document of each story.

Written straight into the ``jobs`` table in one transaction (what a long-running install accumulates), so
100,000 rows take seconds rather than minutes of single enqueues. Not part of the app: the README's screenshots come
from a real run (``docs/screenshots.py``), never from these rows.
"""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import insert

from core.app.storage.schema import Job
from core.db import AsyncDatabaseManager
from core.progress import PhasePlan
from core.store import JobStore
from core.types import utcnow

__all__ = ["DEMO_PLAN", "phase_list", "seed_history", "seed_showcase"]

DEMO_PLAN = PhasePlan.from_seconds({"extract": 40.0, "outline": 60.0, "write": 200.0})
_NAMES = ("Biologia Celular", "História do Brasil", "Cálculo I", "Organic Chemistry", "Direito Civil",
          "Microeconomics", "Anatomia Humana", "Physics 101", "Literatura Portuguesa", "Machine Learning")  # fmt: skip
_EXT = (".pdf", ".docx", ".epub", ".txt")


def phase_list(stage: str | None, *, now: datetime, finished: bool = False) -> list[dict[str, Any]]:
    """The phase list a tracker leaves on a row that reached ``stage`` (``finished``: every phase done)."""
    phases = DEMO_PLAN.describe()
    t = now - timedelta(seconds=200)
    for entry in phases:
        if stage is None and not finished:
            break
        entry["started_at"] = t.isoformat()
        if entry["name"] == stage and not finished:
            break
        t += timedelta(seconds=float(entry["seconds"]))
        entry["finished_at"] = t.isoformat()
    return phases


async def seed_history(db: AsyncDatabaseManager, count: int, *, seed: int = 5, chunk: int = 5000) -> None:
    """Insert ``count`` finished documents (done, failed, cancelled) spread over the past, in one transaction.

    A document done with a study guide has its ``generate`` child, done too (two rows, one document).
    """
    rng = random.Random(seed)
    now = utcnow()
    async with db.get_session_context() as session:
        for first in range(0, count, chunk):
            rows: list[dict[str, Any]] = []
            for i in range(first, min(first + chunk, count)):
                created = now - timedelta(minutes=10 * (count - i) + 30)
                status = rng.choices(("done", "failed", "cancelled"), (85, 10, 5))[0]
                name = f"{rng.choice(_NAMES)} {i}{rng.choice(_EXT)}"
                rows.append(
                    {
                        "id": uuid.UUID(int=rng.getrandbits(128)),
                        "kind": "ingest",
                        "status": status,
                        "title": name,
                        "stage": "write",
                        "progress": 1.0 if status == "done" else 0.4,
                        "message": "",
                        "detail": {},
                        "phases": [],
                        "params": {"path": f"/docs/{name}", "only_extract": i % 7 == 0},
                        "error": "O arquivo está protegido por senha." if status == "failed" else None,
                        "error_transient": False,
                        "attempts": 1,
                        "max_attempts": 5,
                        "started_at": created + timedelta(seconds=5),
                        "finished_at": created + timedelta(seconds=5 + rng.randint(60, 900)),
                        "created_at": created,
                        "updated_at": created + timedelta(seconds=900),
                    }
                )
                if status == "done" and i % 7 != 0:
                    rows.append({**rows[-1], "id": uuid.UUID(int=rng.getrandbits(128)), "kind": "generate",
                                 "parent_id": rows[-1]["id"], "params": {}, "max_attempts": 3,
                                 "created_at": created + timedelta(seconds=30)})  # fmt: skip
            rows = [{"parent_id": None, **row} for row in rows]
            await session.execute(insert(Job.__table__), rows)


async def seed_showcase(store: JobStore[Any]) -> dict[str, uuid.UUID]:
    """One job of each kind of story: running with phases, queued for a retry, failed, done, cancelled, waiting.

    Returns the ids by story name (``running``, ``retrying``, ``failed``, ``done``, ``cancelled``, ``queued``).
    """
    now = utcnow()
    ids: dict[str, uuid.UUID] = {}

    async def make(name: str, title: str, only_extract: bool = False, **fields: Any) -> None:
        job = await store.enqueue("ingest", title=title, params={"path": f"/home/ana/Documentos/{title}",
                                                                  "only_extract": only_extract})  # fmt: skip
        if fields.get("status") == "done" and not only_extract:  # its guide, written by its generate child
            child = await store.enqueue("generate", title=title, columns={"parent_id": job.id})
            claimed = await store.claim(child.id)
            assert claimed is not None
            await store.succeed(child.id, attempt=claimed.attempts, message=str(fields.get("message", "")))
        async with store.db.get_session_context() as session:
            row = await session.get(Job, job.id)
            assert row is not None
            if "started_at" in fields:
                fields.setdefault("created_at", fields["started_at"] - timedelta(seconds=3))
            for key, value in fields.items():
                setattr(row, key, value)
        ids[name] = job.id

    ago = lambda s: now - timedelta(seconds=s)  # noqa: E731
    await make("done", "Anatomia Humana.pdf", status="done", progress=1.0, stage="write", attempts=1,
               phases=phase_list(None, now=ago(600), finished=True), started_at=ago(900), finished_at=ago(610),
               message="Guia de estudo pronto: 6 seções.")  # fmt: skip
    await make("cancelled", "Rascunho.docx", status="cancelled", progress=0.31, stage="outline", attempts=1,
               phases=phase_list("outline", now=ago(1200)), started_at=ago(1300), finished_at=ago(1250),
               message="Cancelado por você.")  # fmt: skip
    await make("failed", "Contrato assinado.pdf", status="failed", progress=0.02, stage="extract", attempts=1,
               phases=phase_list("extract", now=ago(300)), started_at=ago(320), finished_at=ago(318),
               error="O arquivo está protegido por senha: abra-o, salve uma cópia sem senha e tente de novo.",
               )  # fmt: skip
    await make("retrying", "Física Moderna.epub", status="queued", progress=0.0, attempts=2, error_transient=True,
               run_after=now + timedelta(minutes=4), error="O servidor do modelo não respondeu a tempo.")  # fmt: skip
    await make("running", "Biologia Celular.pdf", status="running", stage="write", attempts=1,
               progress=DEMO_PLAN.at("write", 0.4), phases=phase_list("write", now=now), started_at=ago(170),
               heartbeat_at=now, message="Escrevendo a seção 2 de 5…",
               detail={"current_section": 2, "total_sections": 5, "pages_done": 40, "pages_total": 40})  # fmt: skip
    await make("extracting", "História do Brasil.docx", True, status="running", stage="extract", attempts=1,
               progress=DEMO_PLAN.at("extract", 0.3), phases=phase_list("extract", now=now), started_at=ago(12),
               heartbeat_at=now, message="Lendo página 12 de 40…",
               detail={"pages_done": 12, "pages_total": 40})  # fmt: skip
    await make("queued", "Cálculo I - Lista 3.pdf")
    return ids
