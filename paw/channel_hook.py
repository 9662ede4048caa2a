"""paw's ``PermissionRequest`` hook program (``python -m paw.channel_hook``) for Claude Code,
Qwen Code and Codex, and its ``Notification`` hook for Gemini CLI (observe only, see the end).

Claude runs it (``/bin/sh -c <command>``, the command paw wrote into the per-launch settings in
its state dir) while its permission dialog is drawn, with the event as JSON on stdin; Qwen runs
it (``bash -c <command>``) *before* it draws its dialog, and draws none if the hook answers;
Codex as Qwen (``<its user's shell> -c <command>``, the command paw passed in ``-c`` flags). It:

1. mints a request id and writes the signed record ``req/<id>.json`` atomically (fsync'd) under
   the spawn's channel directory, and keeps the file open (the adapter checks this live process
   holds it: a copied or forged record names no process that does), then pokes the paw
   processes that sweep (:func:`poke`: a byte in each one's FIFO, "look now");
2. waits for paw's decision ``ans/<id>.json`` (signed, bound to this id) for less than Claude's
   hook timeout, then prints it for Claude and writes ``done/<id>.json``;
3. without a decision (or on SIGTERM, or on any error) prints nothing: Claude keeps its dialog,
   and the screen path applies;
4. (Claude) stops waiting, printing nothing, once the agent's transcript shows the tool's
   result: the request was answered elsewhere (a human at the pane), so paw lists it no longer.
   Qwen draws no dialog while its hook runs: nothing can answer it elsewhere.

Gemini (flavor ``gemini``) runs it for a ``ToolPermission`` notification *before* it draws
its dialog, waits for it, and takes no answer from it: it writes the signed record (Gemini's
details as the tool input), removes the spawn's older records, pokes, and exits at once
printing nothing. Its record is a claim no live process holds (see
:mod:`paw.core.channels.gemini`).

Standard library and pure ``paw.core`` only; it must start fast and never fail loudly.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from paw.core.channels import claude, codex, gemini, qwen
from paw.core.channels.request import ChannelAnswer
from paw.core.channels.wake import MAX_POKED, SUFFIX, wake_dir_of

POLL_S = 0.01
TRANSCRIPT_POLL_S = 0.25
MOVED_ON = "moved-on"
TRANSCRIPT_TAIL_BYTES = 1 << 20
MAX_EVENT_BYTES = 1 << 20
# The agents this program serves: its record's source and how long it waits by default.
FLAVORS = {
    "claude": (claude.SOURCE, claude.WAIT_S),
    "qwen": (qwen.SOURCE, qwen.WAIT_S),
    "codex": (codex.SOURCE, codex.WAIT_S),
    "gemini": (gemini.SOURCE, 0.0),
}
DENIED = "denied through paw"


def _write_atomic(path: Path, data: object) -> None:
    """Write ``path`` whole and fsync'd, by a rename from the spawn's channel directory (its
    parent's parent): the temporary file made and renamed there changes that directory's
    mtime, the one ``stat`` a sweep marks the channel by (FileChannelHub.mark)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    staging = path.parent.parent
    fd, tmp = tempfile.mkstemp(dir=staging, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(data, ensure_ascii=False))
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _EndedError(Exception):
    """SIGTERM / SIGHUP from Claude (its hook timeout) or the pane going away."""


def _on_signal(signum: int, frame: FrameType | None) -> None:
    raise _EndedError


def run(directory: Path, agent: str, spawn: str, wait_s: float, flavor: str = "claude") -> int:
    """Record the event on stdin, wait for paw's decision, print it. Always exits 0."""
    if flavor == "gemini":
        return observe(directory, agent, spawn)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    request_id = ""
    outcome = "error"
    try:
        secret = (directory / "secret").read_bytes()
        event = json.loads(sys.stdin.buffer.read(MAX_EVENT_BYTES) or b"null")
        if not isinstance(event, dict) or event.get("hook_event_name") != claude.HOOK_EVENT:
            return 0
        request_id = secrets.token_hex(8)
        source = FLAVORS[flavor][0]
        record = claude.make_record(
            secret=secret, source=source, agent=agent, spawn=spawn, request_id=request_id,
            event=event, hook_pid=os.getpid(), written_at=time.time(),
        )  # fmt: skip
        path = directory / "req" / f"{request_id}.json"
        _write_atomic(path, record)
        with path.open("rb"):  # held open while waiting: the adapter's proof of a live writer
            outcome = "timed-out"
            poke(wake_dir_of(directory))  # (held first: the look it asks for finds it proven)
            moved_on = _moved_on_check(event) if flavor == "claude" else _never
            answer = _wait(directory, secret, agent, spawn, request_id, wait_s, moved_on)
            if answer == MOVED_ON:
                outcome = "resolved-elsewhere"
            elif isinstance(answer, ChannelAnswer):
                sys.stdout.write(qwen.render_decision(answer, DENIED) + "\n")
                sys.stdout.flush()
                outcome = f"answered:{answer}"
    except _EndedError:
        outcome = "ended"
    except Exception:  # noqa: BLE001 - a hook never fails loudly: the dialog is the fallback
        outcome = "error"
    finally:
        if request_id:
            with contextlib.suppress(Exception):
                done = {"id": request_id, "outcome": outcome, "at": time.time()}
                _write_atomic(directory / "done" / f"{request_id}.json", done)
                poke(wake_dir_of(directory))  # the request is over: it is listed no longer
    return 0


def observe(directory: Path, agent: str, spawn: str) -> int:
    """Gemini's notification: record it (signed, the spawn's older records removed: only the
    latest names a dialog), poke, and return at once. Prints nothing; always exits 0."""
    try:
        secret = (directory / "secret").read_bytes()
        event = json.loads(sys.stdin.buffer.read(MAX_EVENT_BYTES) or b"null")
        if not gemini.is_tool_permission(event):
            return 0
        request_id = secrets.token_hex(8)
        record = claude.make_record(
            secret=secret, source=gemini.SOURCE, agent=agent, spawn=spawn,
            request_id=request_id, event=gemini.as_tool_event(event), hook_pid=os.getpid(),
            written_at=time.time(),
        )  # fmt: skip
        _write_atomic(directory / "req" / f"{request_id}.json", record)
        for old in (directory / "req").glob("*.json"):
            if old.name != f"{request_id}.json":
                old.unlink(missing_ok=True)
        poke(wake_dir_of(directory))
    except Exception:  # noqa: BLE001 - a hook never fails loudly: the dialog is drawn anyway
        return 0
    return 0


def poke(wake: Path) -> None:
    """Write one byte to every paw process's FIFO in ``wake`` ("look now"). Never blocks (a
    FIFO whose reader is gone fails to open; a full one has pokes unread: its reader will look
    after this record landed), never follows a link (neither the directory nor an entry), never
    writes to anything but a FIFO of this user. Best effort: the sweeps' own schedule reads the
    record anyway."""
    try:
        directory = os.open(wake, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return
    flags = os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(SUFFIX))  # noqa: PTH208 - by fd
        for name in names[:MAX_POKED]:
            try:
                fd = os.open(name, flags, dir_fd=directory)
            except OSError:
                continue  # ENXIO: nobody reads it (its paw process ended)
            try:
                info = os.fstat(fd)
                if stat.S_ISFIFO(info.st_mode) and info.st_uid == os.getuid():
                    os.write(fd, b"!")
            except OSError:
                pass  # EAGAIN: its reader has pokes unread and looks after them
            finally:
                os.close(fd)
    except OSError:
        pass
    finally:
        os.close(directory)


def _wait(
    directory: Path,
    secret: bytes,
    agent: str,
    spawn: str,
    request_id: str,
    wait_s: float,
    moved_on: Callable[[], bool],
) -> ChannelAnswer | str | None:
    path = directory / "ans" / f"{request_id}.json"
    deadline = time.monotonic() + wait_s
    next_look = 0.0
    while time.monotonic() < deadline:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            if time.monotonic() >= next_look:
                if moved_on():
                    return MOVED_ON
                next_look = time.monotonic() + TRANSCRIPT_POLL_S
            time.sleep(POLL_S)
            continue
        return claude.parse_answer(
            doc, secret=secret, agent=agent, spawn=spawn, request_id=request_id
        )
    return None


def _never() -> bool:
    return False


def _moved_on_check(event: dict[str, object]) -> Callable[[], bool]:
    """A check: has the agent's transcript got the result of this very tool call (answered at
    the pane)? It reads the transcript's tail once, then only what is appended (see
    :class:`_Follower`). Without a transcript: never."""
    path = event.get("transcript_path")
    tool_input = event.get("tool_input")
    if not isinstance(path, str) or not path:
        return lambda: False
    transcript = Path(path)
    try:
        with transcript.open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - TRANSCRIPT_TAIL_BYTES))
            tail = handle.read()
    except OSError:
        return lambda: False
    follower = _Follower(transcript, size, tool_input)
    follower.scan(tail.splitlines())
    return follower.moved_on


class _Follower:
    """Reads what is appended to a transcript: this call's ``tool_use`` (the last one with the
    exact input; Claude may write it after the hook started), then that call's result."""

    def __init__(self, path: Path, offset: int, tool_input: object) -> None:
        self.path, self.offset, self.tool_input = path, offset, tool_input
        self.call_id: str | None = None
        self.rest = b""

    def scan(self, lines: list[bytes]) -> bool:
        for line in lines:
            for item in _contents(line):
                if item.get("type") == "tool_use" and item.get("input") == self.tool_input:
                    call = item.get("id")
                    self.call_id = call if isinstance(call, str) else self.call_id
                elif (
                    item.get("type") == "tool_result"
                    and self.call_id is not None
                    and item.get("tool_use_id") == self.call_id
                ):
                    return True
        return False

    def moved_on(self) -> bool:
        try:
            with self.path.open("rb") as handle:
                handle.seek(self.offset)
                chunk = handle.read()
        except OSError:
            return False
        self.offset += len(chunk)
        *lines, self.rest = (self.rest + chunk).split(b"\n")
        return self.scan(lines)


def _contents(line: bytes) -> list[dict[str, object]]:
    """The content items of one transcript line's message (none when it has none)."""
    try:
        entry = json.loads(line)
    except ValueError:
        return []
    message = entry.get("message") if isinstance(entry, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    return [c for c in content if isinstance(c, dict)] if isinstance(content, list) else []


def main(argv: list[str] | None = None) -> int:
    """``python -m paw.channel_hook DIR AGENT SPAWN [WAIT_S [claude|qwen|codex|gemini]]``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (3, 4, 5):
        return 0
    flavor = args[4] if len(args) == 5 else "claude"
    if flavor not in FLAVORS:
        return 0
    try:
        wait_s = float(args[3]) if len(args) >= 4 else FLAVORS[flavor][1]
    except ValueError:
        return 0
    return run(Path(args[0]), args[1], args[2], wait_s, flavor)


if __name__ == "__main__":
    raise SystemExit(main())
