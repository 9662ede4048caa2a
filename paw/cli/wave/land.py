"""`paw wave land`: the wave's local merge queue (see docs/waves.md#landing-a-wave)."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from paw.cli import UsageError, error_object
from paw.cli.result import ERR, Lines, Result, json_of, write_live
from paw.cli.wave.land_pr import with_pull_requests
from paw.errors import PawError

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.adapters.state import StateStore
    from paw.core.land import LandState
    from paw.supervisor.land import Lander
    from paw.supervisor.land_pr import PrOutcome

EXIT_NOT_ALL_LANDED = 1

DESCRIPTION = """\
Land the wave's done tasks on the base branch, one at a time: in `depends_on` order, then in
the order they finished. For each task paw makes a scratch worktree at the base, brings the
task's branch onto it (`git rebase`, or a merge commit with `[land] strategy = "merge"`), runs
the task's `check` and the wave's `land_check` there, and fast-forwards the base only when they
pass. The base never moves any other way (no force, no rewrite), and the task's own branch is
left as its agent made it.

A conflict or a check that fails on top of the base goes back to the task's agent as a
follow-up (typed only into an idle, empty input, like every text paw types; an agent that is
gone is first started again on the task's branch, in its worktree), up to the task's
`retries`; paw waits for a new commit on its branch and tries again. After that the task is
parked for you, with the conflicting files or the check's last lines (`paw wave report`).
Tasks that do not depend on a parked task keep landing.

Safe to kill at any moment: run `paw wave land` again; no task lands twice, the base moves only
by a whole step, and the scratch worktrees (.paw/land/) are removed."""

EPILOG = """\
examples:
  paw wave land                 (the latest wave; waits for agents sent a follow-up and,
                                 while its runner runs, lands tasks as they finish)
  paw wave land night --no-wait (land what can land now; exit 1 if some did not)
  paw wave land --push          (then push the base: never forced; a protected branch
                                 such as main only with a standing rule of the wave file:
                                 [[rules]] kind = "shell", subject = "git push origin main")
  paw wave land --pr            (then one pull request per landed task: its branch pushed,
                                 `gh pr create`; no gh or no remote is said once)
  paw wave report night         (gains a "Landing" section: per task, the base's commits)

Exit codes: 0 every done task landed (and pushed, with --push; its pull request opened, with
--pr), 1 some task is parked, blocked or sent back (or --push did not push, or a pull request
was not opened),
2 a usage error (no such wave, a bad wave file)."""


def register(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``paw wave land``."""
    from paw.cli.common import add_json_flag

    p = verbs.add_parser(
        "land", help="land the done tasks on the base: rebase, check, fast-forward (a queue)",
        description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    p.add_argument("name", nargs="?", help="the wave (default: the latest)")
    p.add_argument(
        "--no-wait", dest="wait", action="store_false",
        help="do not wait (for agents sent a follow-up, for tasks of a running wave to "
        "finish): land what can land now, then exit",
    )  # fmt: skip
    p.add_argument(
        "--push", action="store_true",
        help="then push the base to its remote (never forced; a protected branch only when a "
        "standing rule of the wave file names the push)",
    )  # fmt: skip
    p.add_argument(
        "--pr", action="store_true",
        help="then push each landed task's branch and open one pull request per task with "
        "`gh pr create` (also `[land] pull_requests = true`); never forced",
    )  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument(
        "-C", dest="repo", metavar="DIR", help="run as if in DIR (any directory of the repository)"
    )
    add_json_flag(p)
    p.set_defaults(func=cmd_land)


def cmd_land(args: argparse.Namespace) -> Result:
    """Land the wave's done tasks (see :data:`DESCRIPTION`)."""
    from paw.adapters.checks import run_check
    from paw.adapters.git.land import LandGitCli
    from paw.adapters.notify import ChannelNotifier
    from paw.cli.compose import build_supervisor
    from paw.cli.wave.files import load_wave
    from paw.cli.wave.store import RunnerLock, read_state, started_wave
    from paw.core.land import Finished, landing_data
    from paw.supervisor.land import Lander

    docs, name, _state, path = started_wave(args, "land the wave")
    wave, _sha, _texts = load_wave(path)
    if wave.name != name:
        raise UsageError(f"{path.name} is now the file of wave {wave.name!r}, not {name!r}")
    lock = RunnerLock(docs, f"{name}.land")
    if not lock.acquire():
        raise PawError(f"wave {name!r} is being landed already", hint="wait for it to end")
    sup = build_supervisor(args.repo)
    notifier = None
    try:
        notifier = ChannelNotifier(wave.notify or sup.ctx.config.notify)
        lander = Lander(
            sup, wave, lambda: read_state(docs, name), store=docs, git=LandGitCli(),
            run_check=run_check, on_change=_reporter(args), notifier=notifier,
        )  # fmt: skip

        def running() -> bool:  # the wave's runner is alive: land its tasks as they finish
            alive = read_state(docs, name).status == "running"
            return alive and RunnerLock(docs, name).held_by_other()

        decision = lander.run(
            time.sleep, wait=args.wait, poll_s=max(wave.poll_s, 1.0),
            follow=running if args.wait else None,
        )  # fmt: skip
        data = landing_data(lander.state, wave, time.time())
        pushed: tuple[bool, str] | None = lander.push() if args.push else None
        prs = _pull_requests(lander) if args.pr or wave.land.pull_requests else None
    finally:
        if notifier is not None:
            notifier.close()
            for error in notifier.errors:
                write_live(f"paw: notify: {error}", ERR)
        sup.close()
        lock.release()
    result = _result(args, name, data, done=isinstance(decision, Finished), pushed=pushed)
    return result if prs is None else with_pull_requests(args, result, prs)


def _result(
    args: argparse.Namespace,
    name: str,
    data: dict[str, object],
    *,
    done: bool,
    pushed: tuple[bool, str] | None,
) -> Result:
    """The outcome (a line, or the JSON object) and the exit code."""
    rows = data["tasks"] if isinstance(data["tasks"], list) else []
    left = [str(r["task"]) for r in rows if r["status"] != "landed"]
    failed_push = pushed is not None and not pushed[0]
    code = EXIT_NOT_ALL_LANDED if left or not done or failed_push else 0
    if args.json:
        out: dict[str, object] = {"wave": name, **data}
        if pushed is not None:
            out["push"] = {"pushed": pushed[0], "detail": pushed[1]}
        if code:
            what = f"not landed: {', '.join(left)}" if left else (pushed or (False, ""))[1]
            out["error"] = error_object(
                f"wave {name}: {what}", hint=f"paw wave report {name}", code=code
            )
        return json_of(out, code=code)
    said = Lines()
    landed = len(rows) - len(left)
    head = f"wave {name}: {landed} of {len(rows)} landed on {data['into']}"
    said.out(head + (f"; not landed: {', '.join(left)}" if left else ""))
    if left:
        said.out(f"  see `paw wave report {name}`")
    if pushed is not None:
        if pushed[0]:
            said.out(pushed[1])
        else:
            said.err(f"paw: {pushed[1]}")
    return said.result(code)


def _pull_requests(lander: Lander) -> PrOutcome:
    from paw.adapters.git.pr import GhCli
    from paw.supervisor.land_pr import open_pull_requests

    return open_pull_requests(lander, GhCli())


def _reporter(args: argparse.Namespace) -> Callable[[LandState, str, str], None]:
    """Print each state change (the lander sends each to the wave's channels)."""

    def tell(land: LandState, task: str, text: str) -> None:
        if not (args.quiet or args.json):
            write_live(f"land {land.wave}: {task}: {text}")

    return tell


def latest_landing(docs: StateStore, name: str) -> LandState | None:
    """The wave's landing journal, if it was ever landed."""
    from pydantic import ValidationError

    from paw.core.land import LAND_SUFFIX, LandState

    data = docs.read(f"{name}{LAND_SUFFIX}")
    if data is None:
        return None
    try:
        return LandState.model_validate(data)
    except ValidationError as err:
        write_live(f"paw: .paw/waves/{name}{LAND_SUFFIX}.json is corrupt: {err}", ERR)
        return None
