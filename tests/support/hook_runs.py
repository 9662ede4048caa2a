"""paw's hook program run over real processes and files the way an agent runs it (the test
process plays the agent), for the hook channel adapter tests (Claude's, Qwen's)."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable

from paw.adapters.channels.claude import ClaudeHookChannel, ClaudeWiring
from paw.core.channels.request import ChannelRequest
from tests.support.budget import budget


def wait_for(predicate: Callable[[], object], what: str, timeout: float = 30.0) -> object:
    """What ``predicate()`` returns once it is true (within a ``timeout`` budget)."""
    deadline = time.monotonic() + budget(timeout)
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


class HookRuns:
    """The hook runs a test started for one wiring: each ``shell`` + the wiring's command (as
    the agent runs it), ``event`` on its stdin unless another is given."""

    def __init__(self, wiring: ClaudeWiring, shell: tuple[str, ...], event: object) -> None:
        self.wiring = wiring
        self.shell = shell
        self.event = event
        self.procs: list[subprocess.Popen[bytes]] = []

    def run(self, argv: list[str] | None = None, event: object = None) -> subprocess.Popen[bytes]:
        """Start the hook as the agent does (or ``argv``), the event on its stdin."""
        proc = subprocess.Popen(
            argv or [*self.shell, self.wiring.command],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(self.event if event is None else event).encode())
        proc.stdin.close()
        self.procs.append(proc)
        return proc

    def end(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
            proc.wait(timeout=budget(10))


def hook_output(proc: subprocess.Popen[bytes]) -> bytes:
    """What the hook printed, once it ended."""
    assert proc.stdout is not None
    out = proc.stdout.read()
    proc.wait(timeout=budget(30))
    return out


def one_request(port: ClaudeHookChannel) -> ChannelRequest:
    """The one request ``port`` lists (waited for)."""
    found = wait_for(port.pending, "the request to be listed")
    assert isinstance(found, list)
    assert len(found) == 1
    request: ChannelRequest = found[0]
    return request
