"""``git push``: refspecs, force and delete forms, protected and implicit targets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.pushargs import IMPLICIT, PushPlan, parse_push

if TYPE_CHECKING:
    from collections.abc import Collection

    from paw.core.guard.shell.evaluation import Context


def _shown(dest: str) -> str:
    """How a push destination reads in a reason."""
    if dest == IMPLICIT:
        return "whatever branch is checked out (no refspec names the target)"
    return f"`{dest}`"


def is_protected_branch(branch: str, protected: Collection[str]) -> bool:
    """True when a push to ``branch`` goes to a protected branch: its last path segment is one
    of ``protected`` (``main``, ``refs/heads/main``, ``release/main``), it is the implicit
    target, or it holds an expansion paw cannot read. The one rule: the guard's verdicts and
    the lander's pushes (``paw wave land --push``, ``--pr``) both ask it."""
    return (
        branch == IMPLICIT
        or branch.rsplit("/", 1)[-1] in protected
        or "\ue000" in branch
        or "\ue002" in branch
    )


def _protected(branch: str, ctx: Context) -> bool:
    return is_protected_branch(branch, ctx.protected)


def check_push(
    args: list[str], ctx: Context, *, subtree: bool = False, plan: PushPlan | None = None
) -> None:
    """Block force or delete to a protected or implicit branch; confirm every other push
    (``plan``: ``args`` parsed already, when the caller has them)."""
    if plan is None:
        plan = parse_push(args, subtree=subtree)
    flags = plan.flags  # the plan's flag properties, read from the set once
    if "--dry-run" in flags:
        return
    if "--mirror" in flags:
        ctx.block("git.push-mirror", "`git push --mirror` overwrites and deletes every remote ref")
        return
    if "--prune" in flags:
        ctx.block("git.push-delete", "`git push --prune` deletes remote branches missing locally")
        return
    targets = plan.targets or [(IMPLICIT, False, "--delete" in flags)]
    force = "--force" in flags
    lease = "--force-with-lease" in flags or "--force-if-includes" in flags
    any_force = force or lease
    for dest, plus, deleted in targets:
        forced = plus or any_force
        if deleted and _protected(dest, ctx):
            ctx.block("git.push-delete", f"`git push` deletes the protected branch `{dest}`")
            return
        if forced and (_protected(dest, ctx) or plan.wide):
            how = "--force-with-lease" if lease and not (force or plus) else "a force push"
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
