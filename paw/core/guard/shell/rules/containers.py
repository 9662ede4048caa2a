"""Containers that hand out the host: privileged runs, host-root or home mounts, the socket."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.targets import is_dangerous_dir

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_RUNS = frozenset({"run", "create", "exec"})
_ESCAPE_FLAGS = frozenset(
    {"--privileged", "--pid=host", "--userns=host", "--cap-add=ALL", "--cap-add=SYS_ADMIN",
     "--security-opt=apparmor=unconfined", "--ipc=host", "--uts=host"}
)  # fmt: skip


def _mount_sources(args: list[str]) -> list[str]:
    sources: list[str] = []
    for i, arg in enumerate(args):
        value = None
        if arg in {"-v", "--volume", "--mount"} and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith(("--volume=", "--mount=")):
            value = arg.split("=", 1)[1]
        elif arg.startswith("-v") and len(arg) > 2:
            value = arg[2:]
        if value is None:
            continue
        if "source=" in value or "src=" in value:
            for part in value.split(","):
                key, _, path = part.partition("=")
                if key in {"source", "src"}:
                    sources.append(path)
        else:
            sources.append(value.split(":", 1)[0])
    return sources


def _check_container(cmd: SimpleCommand, ctx: Context) -> None:
    args = cmd.args
    sub = next((a for a in args if not a.startswith("-")), "")
    if sub not in _RUNS and not (sub == "compose" and "run" in args):
        return
    if any(a in _ESCAPE_FLAGS or a.startswith("--privileged=true") for a in args):
        ctx.block("shell.container-escape", f"`{cmd.name} {sub}` with host privileges is root")
        return
    for source in _mount_sources(args):
        if "docker.sock" in source or is_dangerous_dir(source.rstrip("/") or "/", ctx):
            ctx.block(
                "shell.container-escape",
                f"`{cmd.name} {sub}` mounts `{source}` (root, home or the container socket)",
            )
            return


RULES: dict[str, tuple[Check, ...]] = dict.fromkeys(
    ("docker", "podman", "nerdctl", "finch"), (_check_container,)
)
