"""`paw wave`: run a batch of tasks unattended, park every prompt, escalate to a human.

    paw wave check FILE          validate a wave file (file:line: key: problem)
    paw wave run FILE [--detach] run it (foreground progress, or in a tmux window)
    paw wave status [NAME]       where each task is (--json)
    paw wave report [NAME]       the Markdown report (--json)
    paw wave resume [NAME]       continue a wave whose runner ended or was killed
    paw wave stop [NAME]         end the runner after its current sweep (agents keep running)
    paw wave land [NAME]         land the done tasks: rebase, check, fast-forward the base

See docs/waves.md for the wave file.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import sys
import time
import tomllib
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli import UsageError, error_object
from paw.cli.common import add_json_flag, find_repo_root
from paw.cli.result import RAW, JsonLayout, Result, json_of, lines_of
from paw.errors import PawError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from paw.adapters.state import StateStore
    from paw.core.config import PawConfig
    from paw.core.problems import Lines, Loc, Problem
    from paw.core.wave import WaveFile, WaveState

Sub = "argparse._SubParsersAction[argparse.ArgumentParser]"
WAVES_DIR = "waves"
STOP_SUFFIX = ".stop"
EXIT_WAVE_FAILED = 1


# -- the wave file -----------------------------------------------------------------------------


def wave_problems(path: Path) -> tuple[WaveFile | None, list[str], bytes]:
    """Parse ``path``: the wave (None when invalid), every problem as ``file:line: key: msg``.

    One pass: the schema's errors, the checks spanning several keys on what parsed, task files
    (inside the wave's folder, present) and notify URLs (parsed by apprise, nothing sent)."""
    from paw.core.problems import format_problem

    wave, problems, data = _wave_file_problems(path)
    return wave, [format_problem(p) for p in problems], data


def _wave_file_problems(path: Path) -> tuple[WaveFile | None, list[Problem], bytes]:
    from pydantic import ValidationError  # (the wave's models: imported when a wave is read)

    from paw.core.problems import (
        COLLECT,
        Problem,
        covered,
        in_order,
        locate,
        scan_key_lines,
        validation_problems,
    )
    from paw.core.wave import WaveFile, wave_issues

    file = path.name
    try:
        data = path.read_bytes()
    except OSError as err:
        return None, [Problem(str(path), None, None, f"cannot read: {err.strerror}")], b""
    text = data.decode(errors="replace")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        return None, [Problem(file, None, None, f"invalid TOML: {err}")], data
    lines = scan_key_lines(text)
    wave: WaveFile | None = None
    problems: list[Problem] = []
    try:
        wave = WaveFile.model_validate(raw, context={COLLECT: True})
    except ValidationError as err:
        problems = validation_problems(file, err, lines, WaveFile)
    found = [locate(file, loc, message, lines) for loc, message in wave_issues(raw)]
    found += _task_file_problems(path, raw, lines)
    found += _notify_problems(file, raw, lines)
    problems += [p for p in found if not covered(p.loc, problems)]
    return (None if problems else wave), in_order(problems), data


def _task_file_problems(path: Path, raw: dict[str, object], lines: Lines) -> list[Problem]:
    """Each ``task_file`` must be a file inside the wave file's folder (symlinks resolved)."""
    from paw.core.problems import locate

    problems = []
    folder = path.parent.resolve()
    tasks = raw.get("tasks")
    for index, task in enumerate(tasks if isinstance(tasks, list) else []):
        name = task.get("task_file") if isinstance(task, dict) else None
        if not isinstance(name, str) or Path(name).is_absolute() or ".." in Path(name).parts:
            continue  # the schema refuses those
        target = (path.parent / name).resolve()
        loc = ("tasks", index, "task_file")
        if not target.is_relative_to(folder):
            message = f"{name} leads outside the wave file's folder (to {target})"
            problems.append(locate(path.name, loc, message, lines))
        elif not target.is_file():
            problems.append(locate(path.name, loc, f"no such file {name}", lines))
    return problems


def _notify_problems(file: str, raw: dict[str, object], lines: Lines) -> list[Problem]:
    from paw.adapters.notify import url_problems
    from paw.core.problems import locate

    notify = raw.get("notify")
    urls = notify.get("urls") if isinstance(notify, dict) else None
    if not isinstance(urls, list) or not all(isinstance(u, str) for u in urls):
        return []  # the schema reports those
    return [
        locate(file, ("notify", "urls", index), message, lines)
        for index, message in url_problems(urls)
    ]


def load_wave(path: Path) -> tuple[WaveFile, str, dict[str, str]]:
    """The wave, its sha256 and each task's text; UsageError (exit 2) naming the problems."""
    from paw.core.wave import file_digest

    wave, problems, data = wave_problems(path)
    if wave is None:
        more = (
            f" (+{len(problems) - 1} more; run `paw wave check {path}`)"
            if len(problems) > 1
            else ""
        )
        raise UsageError(problems[0] + more)
    texts: dict[str, str] = {}
    for task in wave.tasks:
        if task.task_file is not None:
            texts[task.name] = (path.parent / task.task_file).read_text(encoding="utf-8").strip()
        elif task.task is not None:
            texts[task.name] = task.task
    return wave, file_digest(data), texts


# -- state -------------------------------------------------------------------------------------


def _repo_and_docs(args: argparse.Namespace) -> tuple[str, StateStore]:
    from paw.adapters.state import StateStore
    from paw.cli.compose import STATE_DIR, find_repo_root

    root = find_repo_root(args.repo)
    return root, StateStore(Path(root) / STATE_DIR / WAVES_DIR)


def _wave_name(docs: StateStore, name: str | None) -> str:
    if name is not None:
        if docs.read(name) is None:
            raise UsageError(f"no wave named {name!r} (see `paw wave status`)")
        return name
    files = (
        [p for p in docs.root.glob("*.json") if "." not in p.stem]  # not <wave>.stop/.outbox
        if docs.root.is_dir()
        else []
    )
    if not files:
        raise UsageError("no wave has run in this repository", hint=None)
    return max(files, key=lambda p: p.stat().st_mtime).stem


def _state(docs: StateStore, name: str) -> WaveState:
    from pydantic import ValidationError

    from paw.core.wave import WaveState

    data = docs.read(name)
    if data is None:
        raise UsageError(f"no wave named {name!r}")
    try:
        return WaveState.model_validate(data)
    except ValidationError as err:
        raise PawError(f".paw/waves/{name}.json is corrupt: {err.errors()[0]['msg']}") from err


class RunnerLock:
    """``.paw/waves/<name>.lock``, held by the one runner of a wave (freed even by kill -9)."""

    def __init__(self, docs: StateStore, name: str) -> None:
        """Nothing is locked until :meth:`acquire`."""
        docs.root.mkdir(parents=True, exist_ok=True)
        self.path = docs.root / f"{name}.lock"
        self.fd = -1

    def acquire(self) -> bool:
        """Take the lock without waiting; False when another runner holds it."""
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            self.fd = -1
            return False
        os.ftruncate(self.fd, 0)
        os.write(self.fd, str(os.getpid()).encode())
        return True

    def held_by_other(self) -> bool:
        """True while some runner holds the lock."""
        if self.acquire():
            self.release()
            return False
        return True

    def release(self) -> None:
        """Free the lock."""
        if self.fd >= 0:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = -1


# -- handlers ----------------------------------------------------------------------------------


def cmd_check(args: argparse.Namespace) -> Result:
    """Validate a wave file; list every problem."""
    from paw.core.problems import covered, format_problem, in_order

    path = Path(args.file)
    wave, found, data = _wave_file_problems(path)
    if data:
        found = in_order(
            found + [p for p in _repo_problems(path, data, args.repo) if not covered(p.loc, found)]
        )
    problems = [format_problem(p) for p in found]
    code = 2 if problems else 0
    if args.json:
        out: dict[str, object] = {"file": str(path), "problems": problems}
        if problems:
            out["error"] = error_object(problems[0], hint=f"{len(problems)} problems", code=2)
        return _json(out, code=code)
    if problems:
        return lines_of("\n".join(problems), code=code)
    if wave is not None:
        rules = len(wave.rules)
        return lines_of(
            f"{path.name}: ok — wave {wave.name!r}, {len(wave.tasks)} tasks, {rules} rules"
        )
    return lines_of()


def _repo_problems(path: Path, data: bytes, repo: str | None) -> list[Problem]:
    """What the repository decides (nothing to say outside one): agent kinds paw.toml does not
    know, refs that name no commit, and paw.toml's notify URLs when the wave has none."""
    from paw.adapters import config_store
    from paw.cli.compose import CONFIG_NAME
    from paw.core.problems import Problem, locate, scan_key_lines

    try:
        root = find_repo_root(repo)
        text = data.decode(errors="replace")
        raw = tomllib.loads(text)
    except (PawError, tomllib.TOMLDecodeError):
        return []
    config_path = Path(root) / CONFIG_NAME
    config, bad = config_store.load_config(config_path, missing_ok=True)
    if config is None:
        message = (
            f"{CONFIG_NAME} has {len(bad)} problem(s), so agent kinds and notify URLs are not "
            "checked: run `paw config check`"
        )
        return [Problem(path.name, None, None, message)]
    lines = scan_key_lines(text)
    problems = [locate(path.name, loc, msg, lines) for loc, msg in _kind_issues(raw, config)]
    problems += [locate(path.name, loc, msg, lines) for loc, msg in _ref_issues(raw, root)]
    if "notify" not in raw and config.notify.urls:
        config_text = config_path.read_text(encoding="utf-8")
        problems += config_store.url_problems(config, config_text, CONFIG_NAME)
    return problems


def _written(raw: dict[str, object], key: str) -> list[tuple[Loc, object]]:
    """``key`` of the wave and of each task, where the file sets it."""
    found: list[tuple[Loc, object]] = [((key,), raw[key])] if key in raw else []
    tasks = raw.get("tasks")
    for index, task in enumerate(tasks if isinstance(tasks, list) else []):
        if isinstance(task, dict) and key in task:
            found.append((("tasks", index, key), task[key]))
    return found


def _kind_issues(raw: dict[str, object], config: PawConfig) -> list[tuple[Loc, str]]:
    """Each agent kind paw.toml does not know, once, where it is written."""
    from paw.core.agents import known_kinds

    kinds = known_kinds(config)
    return [
        (loc, f"unknown agent kind {kind!r} (known: {', '.join(kinds)})")
        for loc, kind in _written(raw, "agent")
        if isinstance(kind, str) and kind not in kinds
    ]


def _ref_issues(raw: dict[str, object], root: str) -> list[tuple[Loc, str]]:
    """Each base ref written in the file must name a commit of the repository."""
    from paw.adapters.git.runner import GitCli

    git = GitCli(line_counts=False)
    return [
        (loc, f"{ref!r} names no commit in this repository")
        for loc, ref in _written(raw, "base")
        if isinstance(ref, str)
        and ref.strip()
        and not ref.startswith("-")  # the schema refuses those
        and git.resolve_commit(root, ref) is None
    ]


def cmd_run(args: argparse.Namespace) -> Result:
    """Start a wave from its file (or continue it, if it was started from the same file)."""
    path = Path(args.file).resolve()
    wave, sha, texts = load_wave(path)
    if args.detach:
        return _detach(args, wave.name, [sys.executable, "-m", "paw", "wave", "run", str(path)])
    return _run(args, path, wave, sha, texts)


def cmd_resume(args: argparse.Namespace) -> Result:
    """Continue a wave whose runner stopped or was killed."""
    _root, docs = _repo_and_docs(args)
    name = _wave_name(docs, args.name)
    state = _state(docs, name)
    path = Path(state.file)
    if not path.is_file():
        raise UsageError(f"the wave file {state.file} is gone; restore it to resume")
    wave, sha, texts = load_wave(path)
    if state.status != "running":
        if state.status == "stopped":
            state.status = "running"
            state.ended_at = None
            docs.write(name, state.model_dump(mode="json"))
        elif args.json:
            return _json({"wave": name, "status": state.status})
        else:
            return lines_of(f"wave {name} has ended ({state.status}); `paw wave report {name}`")
    if args.detach:
        return _detach(args, name, [sys.executable, "-m", "paw", "wave", "resume", name])
    return _run(args, path, wave, sha, texts)


def _run(
    args: argparse.Namespace, path: Path, wave: WaveFile, sha: str, texts: dict[str, str]
) -> Result:
    from paw.adapters.checks import run_check
    from paw.adapters.notify import ChannelNotifier, terminal_bell_stream
    from paw.cli.compose import build_supervisor, socket_file
    from paw.supervisor.wave import WaveRunner

    _root, docs = _repo_and_docs(args)
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
    try:
        runner = WaveRunner(
            sup, wave, file=str(path), sha256=sha, texts=texts, store=docs,
            notifier=notifier, run_check=run_check, notify_fallback=sup.ctx.config.notify,
        )  # fmt: skip
        state = runner.run(time.sleep, _progress(args.quiet or args.json))
    finally:
        notifier.close()
        for error in notifier.errors:  # (as they come: the run may also end by raising)
            print(f"paw: notify: {error}", file=sys.stderr)
        sup.close()
        lock.release()
    code = 0 if state.status in ("done", "stopped") else EXIT_WAVE_FAILED
    if args.json:
        result: dict[str, object] = {"wave": wave.name, "status": state.status}
        if code:
            failed = [t.name for t in state.tasks if t.phase.value == "failed"]
            result["error"] = error_object(
                f"wave {wave.name} {state.status}: {', '.join(failed)} failed",
                hint=f"paw wave report {wave.name}",
                code=code,
            )
        return _json(result, code=code)
    return lines_of(f"wave {wave.name}: {state.status} — `paw wave report {wave.name}`", code=code)


def _progress(quiet: bool) -> Callable[[WaveState], None]:
    last: list[str] = [""]

    def show(state: WaveState) -> None:
        line = _summary(state)
        if line != last[0] and not quiet:
            stamp = datetime.now().strftime("%H:%M:%S")  # the user's local time
            print(f"[{stamp}] {line}", flush=True)
            last[0] = line

    return show


def _summary(state: WaveState) -> str:
    parts = []
    for t in state.tasks:
        waiting = [p for p in t.prompts if p.live and p.route == "human"]
        status = "waiting" if waiting and t.phase.value == "running" else t.phase.value
        status = "stuck" if t.stuck and t.phase.value == "running" else status
        hints = [
            f"paw attach {t.agent}"
            if p.kind in ("trust", "question", "other")
            else f"paw approve {p.id}"
            for p in waiting
        ]
        extra = f" ({', '.join(hints)})" if waiting else ""
        parts.append(f"{t.name}: {status}{extra}")
    return f"{state.name}: " + "; ".join(parts)


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
        return _json({"wave": name, "detached": True, "pane": pane.pane_id})
    return lines_of(
        f"wave {name}: runner started in tmux pane {pane.pane_id} (`paw wave status {name}`)"
    )


def cmd_status(args: argparse.Namespace) -> Result:
    """Where each task of a wave is."""
    _root, docs = _repo_and_docs(args)
    name = _wave_name(docs, args.name)
    state = _state(docs, name)
    runner = RunnerLock(docs, name).held_by_other()
    if args.json:
        data = state.model_dump(mode="json")
        data["runner_alive"] = runner
        return _json(data)
    return lines_of(
        f"wave {name}: {state.status}"
        + ("" if runner or state.status != "running" else " (no runner: `paw wave resume`)"),
        *(f"  {line}" for line in _summary(state).split(": ", 1)[1].split("; ")),
    )


def cmd_report(args: argparse.Namespace) -> Result:
    """The wave's report: Markdown, or JSON."""
    from paw.adapters.audit import JsonlAuditLog
    from paw.cli.compose import STATE_DIR
    from paw.cli.cost import task_usage
    from paw.core.cost import add_costs, cost_markdown
    from paw.core.wave_report import report_markdown
    from paw.supervisor.wave import wave_report

    root, docs = _repo_and_docs(args)
    name = _wave_name(docs, args.name)
    state = _state(docs, name)
    audit = JsonlAuditLog(Path(root) / STATE_DIR / "audit.jsonl").read()
    data = wave_report(state, audit, time.time())
    add_costs(data, state, task_usage(root, state), time.time())
    landing = _landing(docs, name)
    if landing is not None:
        data["landing"] = landing
    if args.json:
        return _json(data)
    text = report_markdown(data) + "\n" + cost_markdown(data)
    if landing is not None:
        from paw.core.land import landing_markdown

        text += "\n" + landing_markdown(landing)
    return Result(lines=((RAW, text),))


def _landing(docs: StateStore, name: str) -> dict[str, object] | None:
    """The landing of the wave (``paw wave land``), for the report; None before any."""
    from paw.cli.land import latest_landing
    from paw.core.land import landing_data

    land = latest_landing(docs, name)
    if land is None:
        return None
    try:
        wave: WaveFile | None = load_wave(Path(_state(docs, name).file))[0]
    except PawError:  # the file is gone or broken: blocked tasks are not told apart
        wave = None
    return landing_data(land, wave, time.time())


def cmd_stop(args: argparse.Namespace) -> Result:
    """Ask the runner to end after its current sweep; the agents keep running."""
    _root, docs = _repo_and_docs(args)
    name = _wave_name(docs, args.name)
    docs.write(f"{name}{STOP_SUFFIX}", {"stop": True})
    if RunnerLock(docs, name).held_by_other():
        if args.json:
            return _json({"wave": name, "runner_alive": True, "status": "stopping"})
        return lines_of(
            f"wave {name}: the runner stops after its current sweep (agents keep running)"
        )
    state = _state(docs, name)
    if state.status == "running":
        state.status, state.ended_at = "stopped", time.time()
        docs.write(name, state.model_dump(mode="json"))
    if args.json:
        return _json({"wave": name, "runner_alive": False, "status": state.status})
    return lines_of(f"wave {name}: {state.status} (no runner was running; agents keep running)")


def _json(data: Mapping[str, object], *, code: int = 0) -> Result:
    """A wave command's JSON object (indented, non-ASCII escaped: the layout its readers
    were given)."""
    return json_of(data, code=code, layout=JsonLayout.ASCII)


# -- parser ------------------------------------------------------------------------------------


EXAMPLES = {
    "check": "example:\n  paw wave check night.toml\n  paw wave check night.toml --json",
    "run": """examples:
  paw wave run night.toml            (foreground: a progress line per change)
  paw wave run night.toml --detach   (the runner in a window of paw's tmux session)

Exit codes: 0 every task done (or stopped), 1 a task failed, 2 a bad wave file.""",
    "resume": "examples:\n  paw wave resume\n  paw wave resume night --detach",
    "status": "examples:\n  paw wave status\n  paw wave status night --json",
    "report": "examples:\n  paw wave report > night.md\n  paw wave report night --json",
    "stop": "example:\n  paw wave stop night   (agents keep running; `paw wave resume` goes on)",
}


def _verb(
    verbs: argparse._SubParsersAction[argparse.ArgumentParser], name: str, text: str
) -> argparse.ArgumentParser:
    p = verbs.add_parser(
        name, help=text, description=text, epilog=EXAMPLES[name],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    p.add_argument(
        "-C", dest="repo", metavar="DIR", help="run as if in DIR (any directory of the repository)"
    )
    add_json_flag(p)
    return p


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``paw wave`` and its sub-commands."""
    wave = sub.add_parser(
        "wave",
        help="run a batch of tasks unattended, escalating prompts to a human",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verbs = wave.add_subparsers(dest="wave_command", metavar="VERB", required=True)

    p = _verb(verbs, "check", "validate a wave file")
    p.add_argument("file", help="the wave file (TOML)")
    p.set_defaults(func=cmd_check)

    p = _verb(verbs, "run", "run a wave (foreground, or --detach into a tmux window)")
    p.add_argument("file", help="the wave file (TOML)")
    p.add_argument(
        "--detach", action="store_true", help="run the runner in a tmux window of paw's session"
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_run)

    p = _verb(verbs, "resume", "continue a wave (after its runner stopped or was killed)")
    p.add_argument("name", nargs="?", help="the wave (default: the latest)")
    p.add_argument("--detach", action="store_true", help="run the runner in a tmux window")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_resume)

    for verb, func, text in (
        ("status", cmd_status, "where each task of a wave is"),
        ("report", cmd_report, "the wave's report (Markdown; --json for scripts)"),
        ("stop", cmd_stop, "end the runner after its current sweep (agents keep running)"),
    ):
        p = _verb(verbs, verb, text)
        p.add_argument("name", nargs="?", help="the wave (default: the latest)")
        p.set_defaults(func=func)

    from paw.cli.land import register as register_land

    register_land(verbs)
