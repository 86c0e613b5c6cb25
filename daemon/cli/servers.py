"""``studyjobs servers [--address URL …] [--json]``: the model servers that answer on this computer (or at the
addresses given), with the ``endpoint`` and ``model_name`` values the ``[model]`` settings need.

Exit 0 when at least one server answered with models, 1 when none did, 2 for an address that is not one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from core.app.models.api_keys import find_api_key
from core.app.models.servers import FoundServer, ProbeStatus, ServerTarget, custom_target, find_servers
from core.app.settings.config import Settings

__all__ = ["servers_command"]

_SAID = {
    ProbeStatus.NO_ANSWER: "no answer",
    ProbeStatus.NEEDS_KEY: "wants an API key (set STUDYJOBS_API_KEY or save it in Settings)",
    ProbeStatus.NOT_A_SERVER: "answered, but not as a model server",
}


def _as_json(found: FoundServer) -> dict[str, object]:
    return {
        "kind": found.target.kind,
        "name": found.target.name,
        "status": found.status.value,
        "endpoint": found.endpoint,
        "models": list(found.models),
        "context": found.context,
    }


def servers_command(settings: Settings, args: argparse.Namespace) -> int:
    """Run ``studyjobs servers``; returns the exit code."""
    try:
        extra: list[ServerTarget] = [custom_target(a) for a in args.address]
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    key = find_api_key(extra[0].address, settings_path=settings.settings_path) if extra else None
    answers = asyncio.run(find_servers(extra=extra, api_key=key.key if key else None))
    if args.json:
        print(json.dumps([_as_json(a) for a in answers], indent=2))
    for answer in [] if args.json else answers:
        if answer.found:
            print(f"{answer.target.name}: endpoint = {answer.endpoint}")
            for model in answer.models or ("(no model loaded)",):
                print(f"    model_name = {model}")
        else:
            print(f"{answer.target.name} ({answer.target.address}): {_SAID[answer.status]}")
    return 0 if any(a.found and a.models for a in answers) else 1
