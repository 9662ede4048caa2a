"""`paw wave check`: every problem of a wave file, the repository's view included."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli import error_object
from paw.cli.common import find_repo_root
from paw.cli.result import Result, lines_of
from paw.cli.wave.files import wave_file_problems
from paw.cli.wave.show import wave_json
from paw.errors import PawError

if TYPE_CHECKING:
    from paw.core.config import PawConfig
    from paw.core.problems import Loc, Problem


def cmd_check(args: argparse.Namespace) -> Result:
    """Validate a wave file; list every problem."""
    from paw.core.problems import covered, format_problem, in_order

    path = Path(args.file)
    wave, found, data = wave_file_problems(path)
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
        return wave_json(out, code=code)
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
