"""Infrastructure teardown and publishing: writes outside the repository that a human must see.

Teardown of whole environments (``terraform destroy``, ``kubectl delete namespace``, ``--all``)
is block, like ``rm -rf`` of a root; narrower deletions of live resources and publishing a
package or image to a registry are confirm: they leave the machine and cannot be taken back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_WIDE_K8S = frozenset({"namespace", "namespaces", "ns", "node", "nodes", "pv", "crd", "crds"})
_ALL_FLAGS = frozenset({"--all", "-A", "--all-namespaces"})


def _first_word(cmd: SimpleCommand) -> str | None:
    words = [a for a in cmd.args if not a.startswith("-")]
    return words[0] if words else None


def _check_iac(cmd: SimpleCommand, ctx: Context) -> None:
    sub = _first_word(cmd)
    if sub == "destroy" or (sub == "apply" and "-destroy" in cmd.args):
        ctx.block("shell.infra-destroy", f"`{cmd.render()}` destroys the managed infrastructure")


def _check_kubectl(cmd: SimpleCommand, ctx: Context) -> None:
    words = [a for a in cmd.args if not a.startswith("-")]
    if not words or words[0] != "delete":
        return
    kinds = {k.lower() for w in words[1:2] for k in w.split(",")}
    if kinds & _WIDE_K8S or _ALL_FLAGS.intersection(cmd.args):
        ctx.block("shell.infra-destroy", f"`{cmd.render()}` deletes a whole cluster scope")
        return
    ctx.confirm("shell.infra-delete", f"`{cmd.render()}` deletes live cluster resources")


def _check_helm(cmd: SimpleCommand, ctx: Context) -> None:
    if _first_word(cmd) in {"uninstall", "delete", "del"}:
        ctx.confirm("shell.infra-delete", f"`{cmd.render()}` removes a deployed release")


def _check_docker(cmd: SimpleCommand, ctx: Context) -> None:
    words = [a for a in cmd.args if not a.startswith("-")]
    if words[:2] == ["system", "prune"] and {"-a", "--all", "--volumes", "-af", "-fa"} & set(
        cmd.args
    ):
        ctx.block("shell.infra-destroy", f"`{cmd.render()}` deletes every image and volume")
    elif words[:2] in (["volume", "prune"], ["volume", "rm"]):
        ctx.confirm("shell.infra-delete", f"`{cmd.render()}` deletes container volumes (data)")
    elif words[:1] == ["push"] or words[:2] == ["image", "push"]:
        ctx.confirm("shell.publish", f"`{cmd.render()}` publishes an image to a registry")


def _check_publish(cmd: SimpleCommand, ctx: Context) -> None:
    sub = _first_word(cmd)
    if sub in {"publish", "upload"} or (cmd.name == "gem" and sub == "push"):
        if "--dry-run" in cmd.args or ("-n" in cmd.args and cmd.name == "cargo"):
            return
        ctx.confirm("shell.publish", f"`{cmd.render()}` publishes a package to a registry")


def _check_twine(cmd: SimpleCommand, ctx: Context) -> None:
    if _first_word(cmd) == "upload":
        ctx.confirm("shell.publish", f"`{cmd.render()}` publishes a package to a registry")


RULES: dict[str, tuple[Check, ...]] = {
    **dict.fromkeys(("terraform", "tofu", "pulumi", "terragrunt"), (_check_iac,)),
    "kubectl": (_check_kubectl,),
    "oc": (_check_kubectl,),
    "helm": (_check_helm,),
    "docker": (_check_docker,),
    "podman": (_check_docker,),
    **dict.fromkeys(
        ("npm", "pnpm", "yarn", "cargo", "poetry", "uv", "hatch", "flit", "gem", "dotnet"),
        (_check_publish,),
    ),
    "twine": (_check_twine,),
}
