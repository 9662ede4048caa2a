"""`paw wave run` and `paw wave resume`: the runner in the foreground, or detached into a pane
of paw's tmux session."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli import UsageError, error_object
from paw.cli.result import ERR, Result, lines_of, write_live
from paw.cli.wave.files import load_wave
from paw.cli.wave.land_beside import LanderBeside
from paw.cli.wave.show import progress, wave_json
from paw.cli.wave.store import STOP_SUFFIX, RunnerLock, repo_and_docs, started_wave
from paw.errors import PawError

if TYPE_CHECKING:
    from paw.adapters.state import StateStore
    from paw.core.wave import WaveFile, WaveState

EXIT_WAVE_FAILED = 1


def cmd_run(args: argparse.Namespace) -> Result:
    """Start a wave from its file (or continue it, if it was started from the same file)."""
    path = Path(args.file).resolve()
    wave, sha, texts = load_wave(path)
    if args.detach:
        return _detach(args, wave.name, [sys.executable, "-m", "paw", "wave", "run", str(path)])
    return _run(args, path, wave, sha, texts)


def cmd_resume(args: argparse.Namespace) -> Result:
    """Continue a wave whose runner stopped or was killed."""
    docs, name, state, path = started_wave(args, "resume")
    wave, sha, texts = load_wave(path)
    if state.status != "running":
        if state.status == "stopped":
            state.status = "running"
            state.ended_at = None
            docs.write(name, state.model_dump(mode="json"))
        elif args.json:
            return wave_json({"wave": name, "status": state.status})
        else:
            return lines_of(f"wave {name} has ended ({state.status}); `paw wave report {name}`")
    if args.detach:
        return _detach(args, name, [sys.executable, "-m", "paw", "wave", "resume", name])
    return _run(args, path, wave, sha, texts)


def _run(
    args: argparse.Namespace, path: Path, wave: WaveFile, sha: str, texts: dict[str, str]
) -> Result:
    from paw.adapters.checks import end_checks, run_check
    from paw.adapters.notify import ChannelNotifier, terminal_bell_stream
    from paw.cli.compose import build_supervisor, socket_file
    from paw.supervisor.channels import WakeableSleep
    from paw.supervisor.wave import WaveRunner

    root, docs = repo_and_docs(args)
    lock = RunnerLock(docs, wave.name)
    if not lock.acquire():
        raise PawError(
            f"wave {wave.name!r} already has a runner",
            hint=f"`paw wave status {wave.name}`; `paw wave stop {wave.name}` ends it",
        )
    sup = build_supervisor(args.repo, control=True)
    docs.write(f"{wave.name}{STOP_SUFFIX}", {"stop": False})
    settings = wave.notify or sup.ctx.config.notify
    try:
        notifier = ChannelNotifier(
            settings,
            tmux_socket=socket_file(sup),
            tmux_session=sup.session,
            bell_stream=terminal_bell_stream(),
        )
    except PawError as err:  # a URL apprise cannot parse: one line, exit 2, nothing started
        sup.close()
        lock.release()
        source = path.name if wave.notify else "paw.toml"
        raise UsageError(f"{source}: {err.message}", hint=err.hint) from err
    from paw.cli.cost import task_spend

    beside = (
        LanderBeside(docs, wave.name, root, quiet=args.quiet, json=args.json)
        if wave.land.as_tasks_finish
        else None
    )
    landing: int | None = None
    try:
        runner = WaveRunner(
            sup, wave, file=str(path), sha256=sha, texts=texts, store=docs,
            notifier=notifier, run_check=run_check, notify_fallback=sup.ctx.config.notify,
            usage_of=task_spend(sup.ctx.repo_root, sup.ctx.config), end_checks=end_checks,
        )  # fmt: skip
        # a hook channel's request (a poke) ends the sleep between ticks: listed, and judged
        # by the wave's rules, at once rather than at the next poll
        sleep = WakeableSleep()
        sup.listen_counts(sleep.wake)
        tell = progress(args.quiet or args.json)

        def on_tick(now: WaveState) -> None:
            tell(now)
            if beside is not None:  # [land] as_tasks_finish: each done task lands as it is
                beside.ensure()

        state = runner.run(sleep, on_tick, wake=sleep.wake)
        if beside is not None:
            landing = beside.finish(stop=state.status == "stopped", poll_s=max(wave.poll_s, 1.0))
    finally:
        if beside is not None:
            beside.close()
        notifier.close()
        for error in notifier.errors:  # (as they come: the run may also end by raising)
            write_live(f"paw: notify: {error}", ERR)
        sup.close()
        lock.release()
    code = 0 if state.status in ("done", "stopped") else EXIT_WAVE_FAILED
    if landing and state.status == "done":
        code = EXIT_WAVE_FAILED  # done, but not every task landed: `paw wave report`
    if args.json:
        result: dict[str, object] = {"wave": wave.name, "status": state.status}
        if landing is not None:
            result["landing"] = _landing(docs, wave)
        if code:
            failed = [t.name for t in state.tasks if t.phase.value == "failed"]
            what = f"{', '.join(failed)} failed" if failed else "not every task landed"
            result["error"] = error_object(
                f"wave {wave.name} {state.status}: {what}",
                hint=f"paw wave report {wave.name}",
                code=code,
            )
        return wave_json(result, code=code)
    return lines_of(f"wave {wave.name}: {state.status} — `paw wave report {wave.name}`", code=code)


def _landing(docs: StateStore, wave: WaveFile) -> dict[str, object] | None:
    """The landing as ``paw wave land --json`` says it (None: nothing was landed)."""
    import time

    from paw.cli.wave.land import latest_landing
    from paw.core.land import landing_data

    land = latest_landing(docs, wave.name)
    return None if land is None else landing_data(land, wave, time.time())


def _detach(args: argparse.Namespace, name: str, argv: list[str]) -> Result:
    from paw.cli.compose import SOCKET_ENV, build_supervisor, socket_file

    sup = build_supervisor(args.repo)
    # The runner's pane is started like an agent's, with a TMUX_TMPDIR of its own: a socket
    # *name* would then lead it to another server (its agents invisible to `paw ls`, and left
    # running there). It gets the path of the very socket this command talks to.
    path = socket_file(sup)
    env = {SOCKET_ENV: path} if path else {}
    pane = sup.open_pane(argv, env)
    if args.json:
        return wave_json({"wave": name, "detached": True, "pane": pane.pane_id})
    return lines_of(
        f"wave {name}: runner started in tmux pane {pane.pane_id} (`paw wave status {name}`)"
    )
