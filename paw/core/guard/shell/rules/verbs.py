"""Tools with subcommands: global options before the verb, and ``python -m TOOL``.

``kubectl -n prod delete ns default`` is ``kubectl delete ns default -n prod``: the rules of a
tool read its verb as the first operand, so global options (and the values some of them take)
placed before the verb are moved after it before the rules run. The table names, per tool, the
global options that take a separate value; any other option before the verb is a flag. This is
the treatment git's own parser gives ``git -C dir -c k=v push`` (rules/git.py), for every tool
with per-verb rules. ``python -m TOOL args`` runs TOOL, so it is also judged as ``TOOL args``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.commands import SimpleCommand
from paw.core.guard.shell.rules import escapes
from paw.core.guard.shell.words import Word

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context

_DOCKER = frozenset(
    {"-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert",
     "--tlscert", "--tlskey", "--connection", "--url", "--root", "--runroot", "--identity",
     "--storage-driver", "--cgroup-manager", "--runtime", "--namespace", "-n", "--address",
     "-a", "--cni-path", "--snapshotter"}
)  # fmt: skip
_KUBE = frozenset(
    {"-n", "--namespace", "--context", "--cluster", "--user", "-s", "--server", "--kubeconfig",
     "--token", "--as", "--as-group", "--as-uid", "--request-timeout", "--certificate-authority",
     "--client-certificate", "--client-key", "-v", "--v", "--tls-server-name", "--cache-dir",
     "--username", "--password", "--profile", "--log-file", "--vmodule"}
)  # fmt: skip
_HELM = frozenset(
    {"-n", "--namespace", "--kube-context", "--kubeconfig", "--kube-token", "--kube-apiserver",
     "--kube-as-user", "--kube-as-group", "--kube-ca-file", "--registry-config",
     "--repository-cache", "--repository-config", "--burst-limit", "--qps"}
)  # fmt: skip
_NODE_PM = frozenset(
    {"--prefix", "-C", "--dir", "-w", "--workspace", "--registry", "--userconfig", "--cache",
     "--loglevel", "--cwd", "--filter", "-F", "--globalconfig", "--otp"}
)  # fmt: skip
_CARGO = frozenset({"-Z", "--config", "-C", "--color", "--manifest-path"})
_PY_PM = frozenset(
    {"-C", "--directory", "-P", "--project", "--python", "-p", "--color", "--config-file",
     "--cache-dir", "--index-url", "--log", "--proxy", "--cert", "--client-cert", "--timeout",
     "--retries", "-e", "--env"}
)  # fmt: skip
_IAC = frozenset({"-chdir", "--cwd", "-C", "--stack", "-s", "--working-dir"})
_SYSTEMCTL = frozenset({"-H", "--host", "-M", "--machine", "--root", "-t", "--type", "-p"})

GLOBAL_OPTIONS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("docker", "podman", "nerdctl", "finch"), _DOCKER),
    **dict.fromkeys(("kubectl", "oc"), _KUBE),
    "helm": _HELM,
    **dict.fromkeys(("npm", "pnpm", "yarn"), _NODE_PM),
    "cargo": _CARGO,
    **dict.fromkeys(("poetry", "uv", "hatch", "pip", "pip3", "pipx", "twine", "pdm"), _PY_PM),
    **dict.fromkeys(("terraform", "tofu", "pulumi", "terragrunt"), _IAC),
    "systemctl": _SYSTEMCTL,
}


def verb_first(cmd: SimpleCommand) -> SimpleCommand:
    """``cmd`` with the global options before its verb moved after it (unchanged when the
    first argument is already the verb). ``+toolchain`` (cargo, rustup) is a global flag."""
    args = cmd.args
    if not args or not args[0].startswith(("-", "+")):
        return cmd
    with_value = GLOBAL_OPTIONS.get(cmd.name, frozenset())
    i = 0
    while i < len(args) and args[i].startswith(("-", "+")) and args[i] != "--":
        i += 2 if args[i] in with_value else 1
    if i >= len(args):
        return cmd
    if args[i] == "--":
        i += 1
    words = cmd.argv[1:]
    moved = [cmd.argv[0], *words[i:], *words[:i]]
    tail = len(words) - i  # argv index j >= 1: the verb and after move up, the globals last
    subs = {(j if j < 1 else j - i if j - 1 >= i else j + tail): c for j, c in cmd.subs.items()}
    return SimpleCommand(moved, cmd.redirects, cmd.stdin_text, cmd.upstream, subs, cmd.wrappers)


_PY_VALUE = frozenset({"-W", "-X", "-Q"})


def module_command(cmd: SimpleCommand) -> SimpleCommand | None:
    """``python [options] -m TOOL args`` as ``TOOL args`` (None when no module runs)."""
    args = cmd.args
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-m" and i + 1 < len(args):
            module = cmd.argv[i + 2]
            rest = cmd.argv[i + 3 :]
            break
        if arg.startswith("-m") and len(arg) > 2:
            module = Word(arg[2:])
            rest = cmd.argv[i + 2 :]
            break
        if not arg.startswith("-") or arg in {"-c", "-"}:
            return None
        i += 2 if arg in _PY_VALUE else 1
    else:
        return None
    if not module.is_static:
        return None
    name = module.text.split(".", 1)[0] if module.text.endswith(".__main__") else module.text
    return cmd.with_argv([Word(name), *rest], f"{cmd.name} -m")  # a suffix: subs shift


def check_module(cmd: SimpleCommand, ctx: Context) -> None:
    """``python -m twine upload``, ``python -m pip …``: judged as the tool they run."""
    inner = module_command(cmd)
    if inner is None or inner.name == "paw":
        return
    if inner.name in {"http.server", "SimpleHTTPServer"}:
        escapes.check_http_server(inner.args, ctx, f"{cmd.name} -m {inner.name}")
    else:
        ctx.run_command(inner)
