"""The embedded LLM server's lifecycle: one server, reused, stopped on request (real llama.cpp)."""
import os
import threading

import pytest

from pic_copilot.llm import local_server

pytestmark = [pytest.mark.llm, pytest.mark.skipif(not local_server.runtime_python().exists(),
                                                  reason="the embedded LLM is not installed (scripts/setup.sh)")]


def test_concurrent_starts_share_one_server_and_stop_ends_it():
    was_running = local_server.is_running()  # (a busy server may miss a quick health check)
    infos = []
    threads = [threading.Thread(target=lambda: infos.append(local_server.start())) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=180)
    assert len(infos) == 3 and len({i.pid for i in infos}) == 1, infos
    assert local_server.is_running()  # (an HTTP health check can wait minutes behind other clients)
    if not was_running:
        assert local_server.stop()
        assert local_server.status() is None and not local_server.is_running()
        with pytest.raises(ProcessLookupError):
            os.kill(infos[0].pid, 0)
