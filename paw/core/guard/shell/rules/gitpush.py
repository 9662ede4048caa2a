"""``git push``: refspecs, force and delete forms, protected and implicit targets."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from paw.core.guard.shell.context import Context

_WITH_VALUE = frozenset(
    {"--repo", "--receive-pack", "--exec", "-o", "--push-option", "--prefix", "-P"}
)
_IMPLICIT = "(the current branch)"


def _shown(dest: str) -> str:
    """How a push destination reads in a reason."""
    if dest == _IMPLICIT:
        return "whatever branch is checked out (no refspec names the target)"
    return f"`{dest}`"


class PushPlan(NamedTuple):
    """What a push does: force/delete flags and destination branches."""

    force: bool
    lease: bool
    delete: bool
    mirror: bool
    dry_run: bool
    prune: bool
    wide: bool
    remote: str | None
    targets: list[tuple[str, bool, bool]]  # (destination, forced, deleted)


def _flags(args: list[str]) -> tuple[set[str], list[str]]:
    flags: set[str] = set()
    positional: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _WITH_VALUE:
            i += 2
            continue
        if arg.startswith("--"):
            flags.add(arg.split("=", 1)[0])
        elif arg.startswith("-") and len(arg) > 1:
            flags.update("-" + letter for letter in arg[1:])
        else:
            positional.append(arg)
        i += 1
    return flags, positional


def _dest(ref: str) -> str:
    for prefix in ("refs/heads/", "refs/remotes/", "heads/"):
        if ref.startswith(prefix):
            return ref[len(prefix) :]
    if ref in {"HEAD", "@", ""}:
        return _IMPLICIT
    return ref


def parse_push(args: list[str], *, subtree: bool = False) -> PushPlan:
    """Parse ``git push`` arguments (after the subcommand)."""
    flags, positional = _flags(args[1:] if subtree else args)
    force = bool(flags & {"--force", "-f"})
    lease = bool(flags & {"--force-with-lease", "--force-if-includes"})
    delete = bool(flags & {"--delete", "-d"})
    remote = positional[0] if positional else None
    targets: list[tuple[str, bool, bool]] = []
    for spec in positional[1:]:
        plus = spec.startswith("+")
        body = spec[1:] if plus else spec
        src, colon, dst = body.partition(":")
        if colon and not src:
            targets.append((_dest(dst), plus, True))
        else:
            targets.append((_dest(dst if colon else src), plus, delete))
    return PushPlan(
        force=force,
        lease=lease,
        delete=delete,
        mirror="--mirror" in flags,
        dry_run=bool(flags & {"--dry-run", "-n"}),
        prune="--prune" in flags,
        wide=bool(flags & {"--all", "--branches", "--tags"}),
        remote=remote,
        targets=targets,
    )


def _protected(branch: str, ctx: Context) -> bool:
    return (
        branch == _IMPLICIT
        or branch.rsplit("/", 1)[-1] in ctx.protected
        or "\ue000" in branch
        or "\ue002" in branch
    )


def check_push(args: list[str], ctx: Context, *, subtree: bool = False) -> None:
    """Block force or delete to a protected or implicit branch; confirm every other push."""
    plan = parse_push(args, subtree=subtree)
    if plan.dry_run:
        return
    if plan.mirror:
        ctx.block("git.push-mirror", "`git push --mirror` overwrites and deletes every remote ref")
        return
    if plan.prune:
        ctx.block("git.push-delete", "`git push --prune` deletes remote branches missing locally")
        return
    targets = plan.targets or [(_IMPLICIT, False, plan.delete)]
    any_force = plan.force or plan.lease
    for dest, plus, deleted in targets:
        forced = plus or any_force
        if deleted and _protected(dest, ctx):
            ctx.block("git.push-delete", f"`git push` deletes the protected branch `{dest}`")
            return
        if forced and (_protected(dest, ctx) or plan.wide):
            how = (
                "--force-with-lease" if plan.lease and not (plan.force or plus) else "a force push"
            )
            ctx.block("git.force-push", f"{how} rewrites the history of {_shown(dest)}")
            return
        if forced:
            ctx.confirm(
                "git.force-push-branch", f"force push rewrites the history of {_shown(dest)}"
            )
            return
        if deleted:
            ctx.confirm("git.push", f"`git push` deletes the remote branch `{dest}`")
            return
    ctx.confirm("git.push", f"`git push` to {plan.remote or 'the default remote'} (remote write)")
