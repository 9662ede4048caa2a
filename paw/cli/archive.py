"""`paw archive`: list, restore and prune the archives `paw rm --force` keeps."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from typing import TYPE_CHECKING

from paw.cli import UsageError
from paw.cli.result import Result, json_of, lines_of

if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw.supervisor.archive import Archive
    from paw.supervisor.context import Context

DAY_S = 86400.0

EPILOG = """examples:
  paw archive                         list the archives (oldest first)
  paw archive restore alice-1764540000
  paw archive restore alice-1764540000 --to ../alice-again
  paw archive prune --older-than 30   asks before deleting
  paw archive prune alice-1764540000 --yes

Archives are refs under refs/paw/archive/ made by `paw rm --force`: a commit of the whole
worktree (tracked, untracked and ignored files outside [worktrees] disposable) whose parents
are the worktree's HEAD and the agent branch. A removal with nothing to keep makes none.
Restoring re-creates the worktree and the branch (when free) and puts every file back,
changes unstaged; the archive stays until pruned. `paw spawn NAME --agent KIND --resume`
then starts an agent in the restored worktree (at the agent's own path, not a --to one).
Pruning deletes refs: the commits only they reach become unreachable (git gc removes them
later)."""


def _context(args: argparse.Namespace) -> Context:
    from paw.cli.compose import build_supervisor

    return build_supervisor(args.repo).ctx


def _json(data: Mapping[str, object]) -> Result:
    return json_of(data)


def _row(archive: Archive) -> dict[str, object]:
    return dataclasses.asdict(archive)


def _when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def cmd_archive(args: argparse.Namespace) -> Result:
    """List, restore or prune the archives of removed agents."""
    from paw.supervisor import archive

    ctx = _context(args)
    action = getattr(args, "archive_command", None) or "list"
    if action == "restore":
        done = archive.restore(ctx, args.id, args.to)
        name = done.archive.agent
        resume = (
            f"paw spawn {name} --agent KIND --resume"
            if done.worktree == ctx.worktree_path(name)
            else None  # (--to elsewhere: spawn --resume looks at the agent's own path)
        )
        if args.json:
            return _json({
                "archive": _row(done.archive), "worktree": done.worktree, "branch": done.branch,
                "note": done.detached_because, "resume": resume,
            })  # fmt: skip
        where = f"on branch {done.branch}" if done.branch else "detached at the archived HEAD"
        return lines_of(
            f"restored {done.archive.id} to {done.worktree} ({where})",
            *([f"  note: {done.detached_because}"] if done.detached_because else []),
            *([f"  work on it again: {resume}"] if resume else []),
        )
    if action == "prune":
        return _prune(ctx, args)
    found = archive.list_archives(ctx)
    if args.json:
        return _json({"archives": [_row(a) for a in found]})
    if not found:
        return lines_of("no archives (refs/paw/archive/ is empty)")
    from paw.cli.output import cell

    rows = [("ID", "AGENT", "ARCHIVED", "COMMIT")]
    rows += [(a.id, cell(a.agent), _when(a.time), a.commit[:12]) for a in found]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return lines_of(
        *("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows)
    )


def _prune(ctx: Context, args: argparse.Namespace) -> Result:
    from paw.supervisor import archive

    older = args.older_than * DAY_S if args.older_than is not None else None
    if older is not None and older < 0:
        raise UsageError("--older-than takes a number of days, 0 or more")
    if not (args.ids or args.all or older is not None):
        raise UsageError("say which archives to prune: IDs, --older-than DAYS, or --all")
    chosen = archive.select_for_prune(ctx, args.ids, older_than_s=older, everything=args.all)
    if not chosen:
        return _json({"pruned": []}) if args.json else lines_of("nothing to prune")
    if not args.yes:
        if args.json or not sys.stdin.isatty():
            raise UsageError(f"pruning deletes {len(chosen)} archive(s): confirm with --yes")
        for a in chosen:  # (the question's context: printed before it is asked)
            print(f"  {a.id}  {a.agent}  {_when(a.time)}  {a.commit[:12]}")
        answer = input(f"delete these {len(chosen)} archive(s)? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            return lines_of("nothing deleted", code=1)
    done = archive.prune(ctx, chosen)
    if args.json:
        return _json({"pruned": [_row(a) for a in done]})
    return lines_of(f"pruned {len(done)} archive(s)")


def _common(default: object) -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "-C", dest="repo", metavar="DIR", default=default,
        help="run as if in DIR (any directory of the repository)",
    )  # fmt: skip
    common.add_argument("--json", action="store_true", default=default or False, help="print JSON")
    return common


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `paw archive` and its sub-commands."""
    common = _common(argparse.SUPPRESS)  # in an ACTION: never resets what `archive` was given
    p = sub.add_parser(
        "archive", parents=[_common(None)],
        help="list, restore or prune archives of removed agents",
        description=cmd_archive.__doc__, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    p.set_defaults(func=cmd_archive)
    actions = p.add_subparsers(dest="archive_command", metavar="ACTION")
    raw = argparse.RawDescriptionHelpFormatter
    actions.add_parser(
        "list", parents=[common], help="list the archives (the default)",
        description="List the archives, oldest first.", formatter_class=raw,
        epilog="examples:\n  paw archive list\n  paw archive list --json | jq -r '.archives[].id'",
    )  # fmt: skip
    r = actions.add_parser(
        "restore", parents=[common], help="restore an archive to a worktree",
        description="Restore an archive: worktree, branch (when free) and every file.",
        formatter_class=raw,
        epilog=(
            "examples:\n  paw archive restore alice-1764540000\n"
            "  paw archive restore alice-1764540000 --to ../alice-again --json"
        ),
    )  # fmt: skip
    r.add_argument("id", help="archive id from `paw archive` (or its full ref)")
    r.add_argument("--to", metavar="DIR", help="where (default: the agent's old worktree path)")
    pr = actions.add_parser(
        "prune", parents=[common], help="delete archives (asks first)",
        description="Delete archive refs, after listing them and asking.", formatter_class=raw,
        epilog=(
            "examples:\n  paw archive prune --older-than 30\n"
            "  paw archive prune alice-1764540000 --yes --json\n\n"
            "Without a terminal (or with --json), --yes is required."
        ),
    )  # fmt: skip
    pr.add_argument("ids", nargs="*", metavar="ID", help="archives to delete")
    pr.add_argument("--older-than", type=float, metavar="DAYS", help="archives older than DAYS")
    pr.add_argument("--all", action="store_true", help="every archive")
    pr.add_argument("--yes", action="store_true", help="do not ask")
