"""The ids derived from an ingest job: stable across attempts and releases (databases already hold them)."""

from __future__ import annotations

import uuid

from core.app.documents.job_ids import document_id_for, generate_job_id_for

INGEST = uuid.UUID("00000000-0000-4000-8000-000000000001")


def test_the_derived_ids_are_the_same_on_every_call_and_differ_from_each_other() -> None:
    assert document_id_for(INGEST) == document_id_for(INGEST)
    assert generate_job_id_for(INGEST) == generate_job_id_for(INGEST)
    assert len({INGEST, document_id_for(INGEST), generate_job_id_for(INGEST)}) == 3


def test_the_derived_ids_keep_the_values_existing_databases_hold() -> None:
    assert document_id_for(INGEST) == uuid.uuid5(uuid.UUID("6f0c2a8e-3b7d-4d0e-9a55-2f61c7d0b001"), str(INGEST))
    assert generate_job_id_for(INGEST) == uuid.uuid5(uuid.UUID("6f0c2a8e-3b7d-4d0e-9a55-2f61c7d0b002"), str(INGEST))
