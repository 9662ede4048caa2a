"""Forge CLIs (gh, glab, hub): reads are allow, remote writes confirm, repository deletion block."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.rules.argv import option_value

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_READS = frozenset(
    {("pr", "list"), ("pr", "view"), ("pr", "diff"), ("pr", "checks"), ("pr", "status"),
     ("pr", "checkout"), ("issue", "list"), ("issue", "view"), ("issue", "status"),
     ("run", "list"), ("run", "view"), ("run", "watch"), ("run", "download"), ("repo", "view"),
     ("repo", "clone"), ("release", "list"), ("release", "view"), ("release", "download"),
     ("workflow", "list"), ("workflow", "view"), ("auth", "status"), ("auth", "token"),
     ("search", "repos"), ("search", "issues"), ("search", "prs"), ("search", "code"),
     ("gist", "view"), ("gist", "list"), ("cache", "list"), ("label", "list"), ("browse", ""),
     ("status", ""), ("codespace", "list"), ("secret", "list"), ("variable", "list"),
     ("ruleset", "list"), ("mr", "list"), ("mr", "view"), ("mr", "diff"), ("mr", "checkout"),
     ("ci", "list"), ("ci", "view"), ("ci", "status"), ("ci", "trace"), ("pipeline", "list"),
     ("pipeline", "status"), ("help", ""), ("version", ""), ("", "")}
)  # fmt: skip
_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_VALUE_OPTIONS = frozenset({"-R", "--repo", "--hostname", "-H", "--header", "-q", "--jq"})
_FIELD_OPTIONS = ("-f", "-F", "--field", "--raw-field", "--input")


def _positionals(args: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _VALUE_OPTIONS:
            skip = True
        elif not arg.startswith("-"):
            out.append(arg)
    return out


def _check_api(cmd: SimpleCommand, ctx: Context) -> None:
    method = (option_value(cmd.args, "-X", "--method") or "").upper()
    fields = any(a.startswith(_FIELD_OPTIONS) for a in cmd.args)
    if method in _WRITE_METHODS or (fields and method != "GET"):
        ctx.confirm("gh.write", f"`{cmd.name} api {method or 'POST'}` writes to the forge")


def _check_forge(cmd: SimpleCommand, ctx: Context) -> None:
    group, action = [*_positionals(cmd.args), "", ""][:2]
    if cmd.name == "hub" and group in {"pull-request", "release", "create", "delete", "fork"}:
        ctx.confirm("gh.write", f"`hub {group}`: a remote GitHub write")
        return
    if cmd.name == "hub":
        return  # hub otherwise wraps git; its git subcommands are judged by the git rules
    if group == "api":
        _check_api(cmd, ctx)
    elif group == "repo" and action in {"delete", "archive"}:
        ctx.block("gh.repo-delete", f"`{cmd.name} repo {action}` deletes or archives a repository")
    elif (group, action) not in _READS and (group, "") not in _READS:
        ctx.confirm("gh.write", f"`{cmd.name} {group} {action}`: a remote forge write")


RULES: dict[str, tuple[Check, ...]] = {
    "gh": (_check_forge,),
    "glab": (_check_forge,),
    "hub": (_check_forge,),
}
