"""Reading a wave file: every problem at once (``file:line: key: problem``), then the wave, its
digest and its tasks' texts."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli import UsageError

if TYPE_CHECKING:
    from paw.core.problems import Lines, Problem
    from paw.core.wave import WaveFile


def wave_problems(path: Path) -> tuple[WaveFile | None, list[str], bytes]:
    """Parse ``path``: the wave (None when invalid), every problem as ``file:line: key: msg``.

    One pass: the schema's errors, the checks spanning several keys on what parsed, task files
    (inside the wave's folder, present) and notify URLs (parsed by apprise, nothing sent)."""
    from paw.core.problems import format_problem

    wave, problems, data = wave_file_problems(path)
    return wave, [format_problem(p) for p in problems], data


def wave_file_problems(path: Path) -> tuple[WaveFile | None, list[Problem], bytes]:
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
