"""`paw init` and `paw config check`: paw.toml written with every setting commented out, and
every problem of it listed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from paw.cli import EXIT_USAGE, error_object
from paw.cli.result import json_of, lines_of

if TYPE_CHECKING:
    import argparse

    from paw.cli.result import Result


def cmd_init(args: argparse.Namespace) -> Result:
    """Write a commented paw.toml at the repository root."""
    from paw.adapters.config_file import write_default_config
    from paw.cli.compose import CONFIG_NAME, find_repo_root

    path = Path(find_repo_root(args.repo)) / CONFIG_NAME
    replaced = path.exists()
    write_default_config(path, overwrite=args.force)
    if args.json:
        return json_of({"file": str(path), "written": True, "replaced": replaced})
    return lines_of(
        f"{'replaced' if replaced else 'wrote'} {path} (every setting commented out)",
        "  check it with: paw config check",
    )


def cmd_config_check(args: argparse.Namespace) -> Result:
    """List every problem of paw.toml."""
    from paw.cli.compose import CONFIG_NAME, config_problems, find_repo_root

    root = find_repo_root(args.repo)
    path = Path(root) / CONFIG_NAME
    if not path.exists():
        if args.json:
            return json_of({"file": str(path), "exists": False, "problems": []})
        return lines_of(f"{path.name}: not found (paw uses its defaults; `paw init` writes one)")
    problems = config_problems(path, root)
    code = EXIT_USAGE if problems else 0
    if args.json:
        data: dict[str, object] = {"file": str(path), "exists": True, "problems": problems}
        if problems:
            data["error"] = error_object(
                f"{len(problems)} problem(s) in {path.name}", code=EXIT_USAGE
            )
        return json_of(data, code=code)
    return lines_of("\n".join(problems) if problems else f"{path.name}: ok", code=code)
