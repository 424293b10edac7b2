"""A bench worker that answers hello/plot/shutdown and never answers anything else.

Stands in for an engine worker blocked on a pipe (tests/test_benchmark.py): the driver must kill
it and go on. Each start appends a line to $HUNG_WORKER_STARTS.
"""
import json
import os
import sys

with open(os.environ["HUNG_WORKER_STARTS"], "a") as f:
    f.write(f"{os.getpid()}\n")
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("op") in ("hello", "plot", "shutdown"):
        sys.stdout.write(json.dumps({"type": "reply", "id": msg["id"], "result": {"pid": os.getpid()}}) + "\n")
        sys.stdout.flush()
        if msg["op"] == "shutdown":
            break
    # anything else: stay silent, as a worker stuck in a read would
