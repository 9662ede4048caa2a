"""A small git-aware parser: global options, code-running config, and per-subcommand policy."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from paw.core.guard.shell.gitwrites import GIT_WRITES, git_write
from paw.core.guard.shell.pushargs import PushPlan, parse_push
from paw.core.guard.shell.rules.argv import Parsed, split_args
from paw.core.guard.shell.rules.files import check_write_target
from paw.core.guard.shell.rules.gitpush import check_push
from paw.core.guard.shell.rules.secretpaths import is_secret_path
from paw.core.guard.shell.words import has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.commands import SimpleCommand
    from paw.core.guard.shell.evaluation import Context
    from paw.core.guard.shell.rules import Check

_GLOBAL_WITH_VALUE = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env",
     "--super-prefix", "--list-cmds", "--attr-source"}
)  # fmt: skip
_EXEC_KEY_RE = re.compile(
    r"^(core\.(pager|fsmonitor|sshcommand|editor|hookspath|askpass|gitproxy)|sequence\.editor"
    r"|diff\.external|.*\.textconv|.*\.command|pager\..*|gpg\.(.*\.)?program|credential\.helper"
    r"|uploadpack\.packobjectshook|filter\..*\.(clean|smudge|process)|merge\..*\.driver"
    r"|include\.path|includeif\..*|alias\..*|web\.browser|browser\..*\.cmd|protocol\.ext\.allow"
    r"|remote\..*\.(uploadpack|receivepack)|core\.alternaterefscommand|init\.templatedir"
    r"|core\.execpath)$"
)
_READ_ONLY = frozenset(
    {
        "status", "log", "diff", "show", "fetch", "blame", "grep", "ls-files", "ls-tree",
        "ls-remote", "rev-parse", "rev-list", "describe", "shortlog", "cat-file", "show-ref",
        "for-each-ref", "help", "version", "whatchanged", "name-rev", "merge-base",
        "count-objects", "fsck", "check-ignore", "check-attr", "archive", "format-patch",
        "init", "clone", "add", "mv", "rm", "switch", "diff-tree", "diff-index", "diff-files",
        "range-diff", "cherry", "var", "verify-commit", "verify-tag", "bisect", "sparse-checkout",
        "notes", "apply", "bundle", "maintenance", "gc", "prune-packed", "instaweb", "annotate",
        "show-branch", "difftool", "mergetool", "citool", "gui", "request-pull", "lfs", "restore",
        "checkout", "branch", "tag", "stash", "reset", "clean", "config", "remote", "worktree",
        "submodule", "reflog", "update-index", "hash-object", "mktree", "write-tree", "read-tree",
        "column", "stripspace", "check-ref-format", "interpret-trailers", "credential",
    }
)  # fmt: skip
_WRITES = frozenset(
    {"commit", "merge", "rebase", "am", "cherry-pick", "revert", "pull", "send-email",
     "commit-tree", "replace", "update-ref", "svn", "p4", "subtree"}
)  # fmt: skip
_HISTORY_REWRITE = frozenset({"filter-branch", "filter-repo"})


class GitCall(NamedTuple):
    """A git invocation after global options: the subcommand and its arguments."""

    sub: str
    args: list[str]
    config: list[str]


def parse_git(args: list[str]) -> GitCall:
    """Skip git's global options to find the subcommand; collect ``-c key=value`` pairs."""
    config: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in _GLOBAL_WITH_VALUE:
            if arg == "-c" and i + 1 < len(args):
                config.append(args[i + 1])
            i += 2
        elif arg.startswith("-"):
            if arg.startswith("--config-env="):
                config.append(arg.split("=", 1)[1])
            elif arg.startswith("--exec-path="):
                config.append("core.execpath=" + arg.split("=", 1)[1])
            i += 1
        else:
            return _new_call(GitCall, (arg, args[i + 1 :], config))
    return _new_call(GitCall, ("", [], config))


_new_call = tuple.__new__  # `GitCall(...)` without its generated `__new__` frame


_BENIGN_PROGRAMS = frozenset(
    {"true", "false", ":", "cat", "less", "more", "most", "vi", "vim", "nvim", "nano", "emacs",
     "ssh", "code", "subl", "delta", "diff-so-fancy", "osxkeychain", "store", "cache", "manager",
     "manager-core", "libsecret", "gh", "git-credential-manager"}
)  # fmt: skip
_SHELL_META_RE = re.compile(r"[;|&$`<>()\n!]")


def is_exec_key(key: str, value: str) -> bool:
    """True for config keys whose value git runs as a program (beyond a plain pager or editor)."""
    key = key.strip().lower()
    if key.startswith("alias."):
        return value.lstrip().startswith("!")
    if not _EXEC_KEY_RE.match(key):
        return False
    words = value.split()
    benign = bool(words) and words[0].rsplit("/", 1)[-1] in _BENIGN_PROGRAMS
    return not (benign and _SHELL_META_RE.search(value) is None) or key == "core.hookspath"


def _check_config_pairs(call: GitCall, ctx: Context) -> None:
    for pair in call.config:
        key, _, value = pair.partition("=")
        if is_exec_key(key, value):
            ctx.block(
                "git.config-exec", f"`git -c {key}=…` runs a program chosen on the command line"
            )


def _check_config_cmd(args: list[str], ctx: Context) -> None:
    parsed = split_args(args, ("--file", "-f", "--blob", "--type"))
    reading = any(o.startswith(("--get", "--list", "-l")) for o in parsed.options)
    if reading or len(parsed.operands) < 2:
        return
    key, value = parsed.operands[0], parsed.operands[1]
    if is_exec_key(key, value):
        ctx.confirm("git.config-program", f"`git config {key}` sets a program git will run later")


def _check_discard(sub: str, args: list[str], ctx: Context) -> None:
    parsed = split_args(args, ("-s", "--source", "-b", "-B", "--orphan"))
    if (
        sub == "restore"
        and any(o in {"--staged", "-S"} for o in parsed.options)
        and not any(o in {"--worktree", "-W"} for o in parsed.options)
    ):
        return
    whole = {".", ":/", "*", ":/*", "./"}
    forced = sub == "checkout" and (parsed.letters & {"f"} or "--force" in parsed.options)
    paths = parsed.operands if sub == "restore" or "--" in args else []
    if sub == "checkout" and not paths:
        paths = [p for p in parsed.operands if p in whole]
    if forced or any(p in whole for p in paths):
        ctx.block("git.discard", f"`git {sub}` discards uncommitted work in the whole tree")
    elif paths:
        ctx.confirm("git.discard-file", f"`git {sub}` discards uncommitted changes in {paths[0]}")


def _check_branch(parsed: Parsed, ctx: Context) -> None:
    force_delete = "D" in parsed.letters or (
        ("d" in parsed.letters or "--delete" in parsed.options)
        and ("f" in parsed.letters or "--force" in parsed.options)
    )
    deleting = force_delete or "d" in parsed.letters or "--delete" in parsed.options
    if not deleting:
        return
    for name in parsed.operands:
        if name.split("/")[-1] in ctx.protected:
            ctx.block("git.branch-delete", f"`git branch` deletes the protected branch `{name}`")
            return
    if force_delete:
        ctx.confirm("git.branch-delete", "`git branch -D` deletes unmerged commits")


def _check_maintenance(sub: str, args: list[str], parsed: Parsed, ctx: Context) -> None:
    if sub == "stash" and args[:1] == ["clear"]:
        ctx.block("git.stash-clear", "`git stash clear` deletes every stash")
    elif sub == "stash" and args[:1] == ["drop"]:
        ctx.confirm("git.stash-drop", "`git stash drop` deletes a stash")
    elif sub == "config":
        _check_config_cmd(args, ctx)
    elif sub in {"reflog", "gc"} and any(
        "expire" in a or "prune=now" in a or a == "delete" for a in args
    ):
        ctx.block("git.history-rewrite", f"`git {sub}` expires the reflog (no way back)")
    elif sub in {"worktree", "submodule"} and args[:1] in (["remove"], ["prune"], ["deinit"]):
        ctx.confirm("git.worktree-remove", f"`git {sub} {args[0]}` may remove unsaved work")
    elif sub == "tag" and ("d" in parsed.letters or "--delete" in parsed.options):
        ctx.confirm("git.write", "`git tag -d` deletes a tag")


def _check_local(call: GitCall, parsed: Parsed, ctx: Context) -> None:
    sub, args = call.sub, call.args
    if sub == "reset" and "--hard" in args:
        ctx.block("git.reset-hard", "`git reset --hard` throws away uncommitted work")
    elif sub == "reset" and any(a in {"--merge", "--keep"} for a in args):
        ctx.confirm("git.write", f"`git reset {' '.join(args)}` moves the branch")
    elif sub == "clean" and ("f" in parsed.letters or "--force" in parsed.options):
        if not ("n" in parsed.letters or "--dry-run" in parsed.options):
            ctx.block("git.clean", "`git clean -f` deletes untracked files for good")
    elif sub in {"checkout", "restore"}:
        _check_discard(sub, args, ctx)
    elif sub == "switch" and ("--discard-changes" in args or "f" in parsed.letters):
        ctx.block("git.discard", "`git switch --discard-changes` throws away uncommitted work")
    elif sub == "branch":
        _check_branch(parsed, ctx)
    elif sub in {"mv", "rm"}:
        forced = "f" in parsed.letters or "--force" in parsed.options
        if (
            sub == "rm"
            and forced
            and "--cached" not in args
            and {".", ":/", "*"} & set(parsed.operands)
        ):
            ctx.block("git.discard", "`git rm -f .` deletes every tracked file with its changes")
        for operand in parsed.operands:
            check_write_target(operand, ctx, f"git {sub}", None)
    else:
        _check_maintenance(sub, args, parsed, ctx)


_PROGRAM_OPTIONS = ("--upload-pack", "--receive-pack", "--exec", "--extcmd", "--tool-cmd")


_PROGRAM_PREFIXES = tuple(o + "=" for o in _PROGRAM_OPTIONS)
_SHORT_PROGRAM_OPTIONS = {"clone": ("-u",), "difftool": ("-x",), "rebase": ("-x",)}
_EXT_SUBS = frozenset({"clone", "fetch", "pull", "push", "ls-remote", "remote", "submodule"})


def _run(ctx: Context, text: str, origin: str) -> None:
    if has_unknown(text):
        ctx.confirm("shell.program-option", f"`{origin}` runs a command paw cannot see")
    ctx.run_script(text, origin)


def _check_programs(call: GitCall, ctx: Context) -> None:
    """Subcommands and options that run a command: bisect run, submodule foreach, -x, …"""
    sub, args = call.sub, call.args
    if sub == "bisect" and args[:1] == ["run"] and len(args) > 1:
        _run(ctx, " ".join(_quote(a) for a in args[1:]), "git bisect run")
    elif sub == "submodule" and "foreach" in args:
        rest = [a for a in args[args.index("foreach") + 1 :] if a not in {"--recursive", "-q"}]
        if rest:
            _run(ctx, " ".join(rest), "git submodule foreach")
    for i, arg in enumerate(args):
        if not arg.startswith("-") and "ext::" not in arg:
            continue
        following = args[i + 1] if i + 1 < len(args) else ""
        if arg.startswith(_PROGRAM_PREFIXES):
            _run(ctx, arg.split("=", 1)[1], f"git {sub} {arg.split('=', 1)[0]}")
        elif arg in _PROGRAM_OPTIONS or arg in _SHORT_PROGRAM_OPTIONS.get(sub, ()):
            _run(ctx, following, f"git {sub} {arg}")
        elif "ext::" in arg and sub in _EXT_SUBS:
            inner = arg.split("ext::", 1)[1].replace("% ", " ").replace("%S", "git-upload-pack")
            ctx.confirm("shell.program-option", f"`git {sub} ext::` runs a local command as remote")
            _run(ctx, inner, f"git {sub} ext::")
            body = re.search(r"(?:^|\s)-c\s+(.*)$", inner)
            if body is not None:
                _run(ctx, body.group(1), f"git {sub} ext:: -c")


def _quote(word: str) -> str:
    if word and all(c.isalnum() or c in "-_./=:@%+,~" for c in word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


_REV_RE = re.compile(r"[~^@]|^[0-9a-f]{7,40}$|^(ORIG_HEAD|FETCH_HEAD|MERGE_HEAD)$")


def _check_history(call: GitCall, parsed: Parsed, ctx: Context) -> None:
    """Moving a branch to another commit rewrites what it holds (soft and mixed resets too)."""
    sub, args = call.sub, call.args
    if sub == "reset" and not any(
        a in {"--hard", "--merge", "--keep", "-p", "--patch"} for a in args
    ):
        before = args[: args.index("--")] if "--" in args else args
        revs = [a for a in before if not a.startswith("-")]
        target = revs[0] if revs else ""
        mode = any(a in {"--soft", "--mixed"} for a in args)
        moves = target not in {"", "HEAD", "@"} and (
            _REV_RE.search(target) is not None
            or mode
            or target in ctx.protected
            or ("/" in target and "." not in target.rsplit("/", 1)[-1])
        )
        if moves:
            ctx.confirm(
                "git.history-rewrite",
                f"`git reset {' '.join(args)}` moves the branch to "
                "another commit (commits drop out of it)",
            )
    elif (
        (
            sub == "branch"
            and ("f" in parsed.letters or "--force" in parsed.options)
            and not ({"d", "D"} & parsed.letters)
        )
        or (sub == "checkout" and "-B" in args)
        or (sub == "switch" and ("-C" in args or "--force-create" in args))
        or (sub == "tag" and ("f" in parsed.letters or "--force" in parsed.options))
    ):
        ctx.confirm("git.history-rewrite", f"`git {sub}` moves an existing branch or tag")


def _check_stage(call: GitCall, ctx: Context) -> None:
    """``git add`` of a key or credential file stages a secret for the next commit."""
    parsed = split_args(call.args, ("--chmod", "--pathspec-from-file"))
    for operand in parsed.operands:
        if is_secret_path(operand, ctx):
            ctx.block("shell.secret-stage", f"`git add {operand}` stages a secret for a commit")
            return


def _note_write(call: GitCall, ctx: Context) -> PushPlan | None:
    """Record a commit or push for the confirmation; a push's arguments are read once, here,
    for the confirmation and the verdict."""
    plan = parse_push(call.args) if call.sub == "push" else None
    if call.sub in GIT_WRITES:
        found = git_write(call.sub, call.args, plan)
        if found is not None:
            ctx.git_writes.append(found)
    return plan


def _check_git(cmd: SimpleCommand, ctx: Context) -> None:
    call = parse_git(cmd.args)
    if call.config:
        _check_config_pairs(call, ctx)
    _check_programs(call, ctx)
    plan = _note_write(call, ctx)
    parsed: Parsed | None = None  # the arguments split once, for the checks that need them
    if call.sub in {"reset", "branch", "checkout", "switch", "tag"}:
        parsed = split_args(call.args)
        _check_history(call, parsed, ctx)
    elif call.sub == "add":
        _check_stage(call, ctx)
    elif call.sub == "credential" and call.args[:1] in (["fill"], ["get"]):
        ctx.block("shell.secret-read", "`git credential fill` prints a stored password or token")
    sub = call.sub
    if not sub or "--help" in call.args or sub == "help":
        return
    if "\ue000" in sub or "\ue002" in sub:
        ctx.confirm("shell.unresolved", "the git subcommand comes from a value paw cannot see")
    elif sub == "push" or (sub == "subtree" and call.args[:1] == ["push"]):
        check_push(call.args, ctx, subtree=sub == "subtree", plan=plan)
    elif sub in _HISTORY_REWRITE:
        ctx.block("git.history-rewrite", f"`git {sub}` rewrites the whole history")
    elif sub in _WRITES and "--dry-run" not in call.args:
        ctx.confirm("git.write", f"`git {sub}` writes commits or refs (and runs hooks)")
    elif sub in _READ_ONLY or sub in _WRITES:
        _check_local(call, parsed or split_args(call.args), ctx)
    else:
        ctx.confirm(
            "git.unknown", f"`git {sub}` is not a known git command (an alias can run anything)"
        )


def _check_package_version(cmd: SimpleCommand, ctx: Context) -> None:
    """``npm version patch`` commits and tags through git."""
    args = cmd.args
    if args[:1] == ["version"] and len(args) > 1 and "--no-git-tag-version" not in args:
        ctx.confirm("git.write", f"`{cmd.name} version` creates a git commit and tag")


RULES: dict[str, tuple[Check, ...]] = {
    "git": (_check_git,),
    "npm": (_check_package_version,),
    "yarn": (_check_package_version,),
    "pnpm": (_check_package_version,),
}
