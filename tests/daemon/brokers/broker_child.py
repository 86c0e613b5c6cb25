"""A broker in a separate process, driven by the broker tests (not a test module).

Usage: ``broker_child.py MODE URL OPTIONS_JSON QUEUE [ARG]``, where MODE is

- ``hold``: consume one message, print its id, then stay alive (a second consumer keeps asking, so Redis sees the
  process's heartbeat) until killed; the message is never acked.
- ``drain``: print ``ready``, then consume and ack messages until none came for ARG seconds; print the ids as one
  JSON list.
- ``send``: enqueue ARG messages 50 ms apart, each carrying ``time.time()`` of its sending; print ``done``.
"""

from __future__ import annotations

import json
import sys
import time

from dramatiq.message import Message

from daemon.brokers import create_broker


def main() -> None:
    mode, url, options, queue_name = sys.argv[1:5]
    broker = create_broker(url, middleware=[], **json.loads(options))
    broker.declare_queue(queue_name)
    if mode == "hold":
        broker.declare_queue(f"{queue_name}-keepalive")
        consumer = broker.consume(queue_name, prefetch=1, timeout=100)
        message = None
        while message is None:
            message = next(consumer)
        print(message.message_id, flush=True)
        keepalive = broker.consume(f"{queue_name}-keepalive", prefetch=1, timeout=100)
        while True:
            next(keepalive)
    elif mode == "drain":
        idle_seconds = float(sys.argv[5])
        consumer = broker.consume(queue_name, prefetch=4, timeout=100)
        print("ready", flush=True)
        seen: list[str] = []
        last = time.monotonic()
        while time.monotonic() - last < idle_seconds:
            message = next(consumer)
            if message is not None:
                consumer.ack(message)
                seen.append(message.message_id)
                last = time.monotonic()
        consumer.close()
        broker.close()
        print(json.dumps(seen), flush=True)
    elif mode == "send":
        for _ in range(int(sys.argv[5])):
            message = Message(queue_name=queue_name, actor_name="noop", args=(time.time(),), kwargs={}, options={})
            broker.enqueue(message)
            time.sleep(0.05)
        broker.close()
        print("done", flush=True)
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main()
