"""The ids the worker derives from a document's ``ingest`` job, shared by the worker, the window and the CLI.

Both are UUIDv5 of the ``ingest`` job's id, so every attempt of the same job makes the same document row and queues
the same ``generate`` job, and any program that knows the ingest job can find them without a query.
"""

from __future__ import annotations

import uuid

__all__ = ["DOCUMENT_NAMESPACE", "GENERATE_NAMESPACE", "document_id_for", "generate_job_id_for"]

DOCUMENT_NAMESPACE = uuid.UUID("6f0c2a8e-3b7d-4d0e-9a55-2f61c7d0b001")
GENERATE_NAMESPACE = uuid.UUID("6f0c2a8e-3b7d-4d0e-9a55-2f61c7d0b002")


def document_id_for(ingest_job_id: uuid.UUID) -> uuid.UUID:
    """The id of the ``documents`` row an ``ingest`` job writes (the same on every attempt)."""
    return uuid.uuid5(DOCUMENT_NAMESPACE, str(ingest_job_id))


def generate_job_id_for(ingest_job_id: uuid.UUID) -> uuid.UUID:
    """The id of the first ``generate`` job an ``ingest`` job queues (the same on every attempt)."""
    return uuid.uuid5(GENERATE_NAMESPACE, str(ingest_job_id))
