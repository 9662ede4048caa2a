"""Where a write lands: instruction, agent or paw configuration, start-up, system and device
paths, outside the project; the checks every writer shares (rules/writers.py holds the writers).
"""

from __future__ import annotations

import fnmatch
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from paw.core.guard.files import PathClass, _classify_memo, classify_path
from paw.core.guard.shell.rules.targets import USER_DATA, in_cwd
from paw.core.guard.shell.rules.targets import _normalise as normalise
from paw.core.guard.shell.rules.terminals import check_terminal_target
from paw.core.guard.shell.rules.worktrees import check_path
from paw.core.guard.shell.words import SUBST, UNKNOWN

if TYPE_CHECKING:
    from paw.core.config import GuardConfig
    from paw.core.guard.shell.evaluation import Context


_DEVICE_RE = re.compile(r"^/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mapper/|md|dm-|loop|sr)")
_HARMLESS_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/zero"})
_SSH_RE = re.compile(r"(^~|^/root|^/home/[^/]+|^/Users/[^/]+)/\.ssh(/|$)")
_PERSIST_RE = re.compile(
    r"(^/etc/cron|^/var/spool/cron|^/etc/systemd|^/etc/init\.d|^/etc/rc\.local|^/etc/profile"
    r"|^/etc/sudoers|/\.config/autostart/|/Library/LaunchAgents/|/Library/LaunchDaemons/"
    r"|/\.config/systemd/)"
)
_SYSTEM_RE = re.compile(
    r"^/(etc|usr|bin|sbin|lib|lib32|lib64|boot|sys|proc|System|Library|root|opt)(/|$)"
)
_RC_RE = re.compile(
    r"(^~|^/home/[^/]+|^/Users/[^/]+|^/root)/(\.bashrc|\.bash_profile|\.bash_login|\.profile"
    r"|\.zshrc|\.zprofile|\.zshenv|\.zlogin|\.config/fish/config\.fish|\.inputrc)$"
)
_PAW_CONFIG_RE = re.compile(
    r"(^|/)(paw\.toml|\.paw(/.*)?|\.config/paw(/.*)?|guardrails\.toml)/?$", re.IGNORECASE
)
_PAW_NAMES = (".paw", "paw.toml", "guardrails.toml")
_AGENT_CONFIG_RE = re.compile(
    r"(^|/)(\.aider\.conf\.ya?ml|\.claude/settings(\.local)?\.json|\.claude\.json"
    r"|\.codex/config\.toml|\.gemini/settings\.json|\.qwen/settings\.json|opencode\.jsonc?"
    r"|\.cursor/cli(-config)?\.json|\.continue/config\.(json|ya?ml|ts)|\.vscode/settings\.json"
    r"|\.claude/hooks/.*|\.windsurf/.*\.json|\.kiro/settings/.*|\.amazonq/.*\.json|\.mcp\.json)$"
)
_BYPASS_RE = re.compile(
    r"yes[-_]always|bypass_?permissions|dangerously|approval_policy\W*never|approval.?mode\W*yolo"
    r"|\byolo\b|auto[-_]?approve|Bash\(\*\)|disableAllHooks|danger-full-access|skip.?permissions"
    r"|PAW_GUARD|\"defaultMode\"|trust_?all|allow_?all",
    re.IGNORECASE,
)
_GUARD_FILES_RE = re.compile(
    r"(^|/)(\.claude/settings(\.local)?\.json|\.claude/hooks(/.*)?|\.gemini/settings\.json"
    r"|\.qwen/settings\.json|\.codex/config\.toml|\.cursor/hooks\.json|\.claude)/?$"
)
_GUARD_EDIT_RE = re.compile(r"hook|deny|permission|sandbox|approval|allow", re.IGNORECASE)
_SOCKET_RE = re.compile(r"^/dev/(tcp|udp)/")
_ENV_FILE_RE = re.compile(r"(^|/)(\.env[\w.-]*|\.envrc|\.\w*rc|\.profile|\.zshenv)$")
_GUARD_OFF_TEXT_RE = re.compile(
    r"PAW_GUARD\w*\s*=\s*['\"]?(off|0|false|no|disabled?)\b|DCG_BYPASS\s*=\s*['\"]?1", re.IGNORECASE
)
_BLOCKED_PLACES = (
    (_SOCKET_RE, "shell.reverse-shell", "a network socket opened as a file"),
    (_DEVICE_RE, "shell.disk-write", "a raw disk device"),
    (_SSH_RE, "files.ssh", "SSH keys and logins"),
    (_PERSIST_RE, "files.persistence", "runs at boot, login or on a timer"),
    (_PAW_CONFIG_RE, "agents.guard-tamper", "paw's own guard configuration"),
    (_SYSTEM_RE, "files.system-write", "a system path"),
)
# Any path one of the patterns above could flag: rules out the common, ordinary path. One big
# alternation costs ~0.4 µs per character (the regex engine loses its literal-prefix shortcuts),
# so each part is searched alone and only when a literal it needs is in the path. `any_place` is
# exactly `_ANY_PLACE_RE.search(path) is not None` (each part keeps its own case rule: paw's
# config in any case, since a case-insensitive filesystem reaches it as PAW.TOML);
# tests/core/guard/test_guard_fast.py checks it on corpus and generated paths.
_GIT_HOOKS_RE = re.compile(r"\.git/hooks/")
_ANY_PLACE_RE = re.compile(
    "|".join(
        f"(?{'i' if p.flags & re.IGNORECASE else ''}:{p.pattern})"
        for p in (
            _GUARD_FILES_RE,
            *(place[0] for place in _BLOCKED_PLACES),
            _ENV_FILE_RE,
            _RC_RE,
            _AGENT_CONFIG_RE,
            _GIT_HOOKS_RE,
        )
    )
)


def _names_paw_config(path: str) -> bool:
    low = path.lower()
    return "paw.toml" in low or ".paw" in low or ".config/paw" in low or "guardrails.toml" in low


@lru_cache(maxsize=4096)  # a path's place depends on its text alone; the same paths recur
def any_place(path: str) -> bool:
    """True when one of the special-place patterns matches ``path`` (see above)."""
    head = path[:1]
    rooted = head in ("/", "~")  # "" is in neither: an empty path matches no part
    dotted = head == "." or "/." in path
    return (
        (dotted and _ENV_FILE_RE.search(path) is not None)
        or (
            (dotted or "opencode.json" in path) and _AGENT_CONFIG_RE.search(path) is not None
        )
        or (
            (".claude" in path or ".gemini/" in path or ".qwen/" in path
             or ".codex/" in path or ".cursor/" in path)
            and _GUARD_FILES_RE.search(path) is not None
        )
        or (rooted and _RC_RE.search(path) is not None)
        or (".ssh" in path and _SSH_RE.search(path) is not None)
        or (head == "/" and _SYSTEM_RE.search(path) is not None)
        or (
            path.startswith("/dev/")
            and (_SOCKET_RE.search(path) is not None or _DEVICE_RE.search(path) is not None)
        )
        or (
            (head == "/" or "/.config/" in path or "/Library/Launch" in path)
            and _PERSIST_RE.search(path) is not None
        )
        or (
            # any case: on a case-insensitive filesystem (macOS) PAW.TOML is paw.toml
            _names_paw_config(path) and _PAW_CONFIG_RE.search(path) is not None
        )
        or (".git/hooks/" in path and _GIT_HOOKS_RE.search(path) is not None)
    )  # fmt: skip


def _expand_home(path: str) -> str:
    return path


def ignored(path: str) -> bool:
    """True for a path paw does not judge (unknown, a substitution, a harmless device)."""
    return not path or path.startswith((UNKNOWN, SUBST, "/dev/fd")) or path in _HARMLESS_DEVICES


def _check_agent_file(path: str, ctx: Context, verb: str, content: str | None) -> bool:
    """Agent configuration and instruction files; True when the path was one."""
    config = _AGENT_CONFIG_RE.search(path) is not None
    if not config and _classify(path, ctx) is not PathClass.INSTRUCTION:
        return False
    if content is not None and _BYPASS_RE.search(content):
        ctx.block("agents.config-bypass", f"`{verb}` writes an auto-approve setting to `{path}`")
    elif config and content is not None and verb.endswith(" -i") and _GUARD_EDIT_RE.search(content):
        ctx.block("agents.config-bypass", f"`{verb}` edits hooks or permissions in `{path}`")
    elif config:
        ctx.confirm("files.agent-config", f"`{verb}` changes the agent configuration `{path}`")
    else:
        ctx.confirm("files.instruction-write", f"`{verb}` changes the agent instructions `{path}`")
    return True


def check_write_target(
    path: str,
    ctx: Context,
    verb: str,
    content: str | None,
    *,
    delete: bool = False,
) -> None:
    """Judge one file a command writes, creates or deletes."""
    if ctx.others and check_path(path, ctx, verb):  # another agent's worktree
        return
    if _judged_apart(path, ctx, verb):
        return
    found = _project_path(path, ctx, verb, content)
    if found is None:
        return
    path = found
    if _matches_paw_glob(path):
        ctx.block("agents.guard-tamper", f"`{verb}` can reach paw's own state or config `{path}`")
        return
    if not any_place(path):
        _check_plain(path, ctx, verb, content, delete=delete)
        return
    if delete and _GUARD_FILES_RE.search(path):
        ctx.block(
            "agents.guard-tamper", f"`{verb}` removes the agent's hooks or permissions `{path}`"
        )
        return
    for pattern, rule, why in _BLOCKED_PLACES:
        if pattern.search(path):
            ctx.block(rule, f"`{verb}` changes `{path}` ({why})")
            return
    if content and _ENV_FILE_RE.search(path) and _GUARD_OFF_TEXT_RE.search(content):
        ctx.block("agents.guard-off", f"`{verb}` writes a guard-off setting into `{path}`")
        return
    before = len(ctx.findings)
    _check_run_later(path, ctx, verb, content)
    if len(ctx.findings) == before and not delete:
        check_contained(path, ctx, verb)


_PATH_DIRS_RE = re.compile(
    r"(^~|^/home/[^/]+|^/Users/[^/]+|^/root)/(\.local/bin|bin|\.cargo/bin|go/bin|\.npm-global/bin"
    r"|\.deno/bin|\.bun/bin|\.pyenv/shims|\.volta/bin)(/|$)|^/usr/local/s?bin(/|$)"
)


_SCRATCH = ("/tmp/", "/var/tmp/", "/private/tmp/", "/dev/shm/")  # noqa: S108 - paths to judge
_SCRATCH_DIRS = frozenset(p.rstrip("/") for p in _SCRATCH)
_SCRATCH_OR_DEVICES = (*_SCRATCH, "/dev/")


def check_contained(path: str, ctx: Context, verb: str) -> None:
    """A write outside the project: the home folder's dotfiles and directories on PATH are
    block (what lands there runs or configures every later shell), elsewhere confirm; the
    system's scratch space (``/tmp``) and devices (judged by their own rules) are left alone."""
    if not path.startswith(("/", "~")) and not path.startswith(".."):
        return
    if "/.." in path or path.startswith(".."):
        path = normalise(path)
        if not path.startswith(("/", "~", "..")):
            return
    if ctx.cwd_path and (path == ctx.cwd_path or path.startswith(ctx.cwd_path + "/")):
        return
    if path.startswith(_SCRATCH_OR_DEVICES) or path in _SCRATCH_DIRS:
        return  # the system's scratch space: shared, but nothing there runs or configures later
    home = home_segments(path)
    if (home and home[0].startswith(".") and len(home) == 1) or _PATH_DIRS_RE.search(path):
        ctx.block(
            "files.outside-write", f"`{verb}` writes `{path}` (a start-up file or a PATH folder)"
        )
        return
    ctx.confirm("files.outside-project", f"`{verb}` writes `{path}` outside the project")


def _project_path(path: str, ctx: Context, verb: str, content: str | None) -> str | None:
    """``path`` as seen from the project (after ``cd``, inside ``cwd``, through a symlink), or
    None once it was judged where a link leads."""
    if ctx.cwd_prefix:
        path = in_cwd(path, ctx)
    if ctx.cwd_path and path.startswith(ctx.cwd_path + "/") and "/.." not in path:
        path = path[len(ctx.cwd_path) + 1 :]  # inside the project: judged as a project path
    if ctx.resolve is not None and not path.startswith(("/", "~", "..")):
        return _follow_link(path, ctx, verb, content)
    return path


def _follow_link(path: str, ctx: Context, verb: str, content: str | None) -> str | None:
    """A project path that is a symlink (repository content is untrusted): the path it leads
    to inside the project, or None once judged where it lands outside it (or unresolved)."""
    if any(c in path for c in "*?[" + UNKNOWN + SUBST) or ctx.resolve is None or not ctx.cwd_path:
        return path
    real = ctx.resolve(f"{ctx.cwd_path}/{path}")
    root = ctx.resolve(ctx.cwd_path)
    if real is None or root is None:
        ctx.confirm("files.link-unresolved", f"paw cannot tell where `{path}` leads (`{verb}`)")
        return None
    if real == root or real.startswith(root.rstrip("/") + "/"):
        return real[len(root.rstrip("/")) + 1 :] or "."
    before = len(ctx.findings)
    saved, ctx.resolve = ctx.resolve, None  # `real` is fully resolved already
    try:
        check_write_target(real, ctx, f"{verb} through the link {path}", content)
    finally:
        ctx.resolve = saved
    if len(ctx.findings) == before:
        ctx.confirm("files.outside-project", f"`{verb}` writes `{path}`, a link to `{real}`")
    return None


def _check_plain(path: str, ctx: Context, verb: str, content: str | None, *, delete: bool) -> None:
    """A path no dangerous-place pattern names: an instruction file, or judged by where it lands."""
    if _classify(path, ctx) is PathClass.INSTRUCTION:
        _check_agent_file(path, ctx, verb, content)
    elif not delete and path.startswith(("/", "~", "..")):
        check_contained(path, ctx, verb)


def _judged_apart(path: str, ctx: Context, verb: str) -> bool:
    """Terminals, the process's own streams and computed paths; True when nothing is left."""
    if check_terminal_target(path, ctx, verb):
        return True
    if ignored(path):
        if path[:1] in (UNKNOWN, SUBST):
            _check_computed_prefix(path, ctx, verb)
        return True
    return False


def _check_computed_prefix(path: str, ctx: Context, verb: str) -> None:
    """``"$(pwd)/paw.toml"``, ``"$DIR/AGENTS.md"``: the name is known though the folder is not."""
    tail = path.lstrip(UNKNOWN + SUBST)
    if not tail.startswith("/"):
        return
    if _PAW_CONFIG_RE.search(tail):
        ctx.block("agents.guard-tamper", f"`{verb}` can reach paw's own state or config `…{tail}`")
    elif _classify(tail.lstrip("/"), ctx) is PathClass.INSTRUCTION:
        ctx.confirm("files.instruction-write", f"`{verb}` changes the agent instructions `…{tail}`")


def _check_run_later(path: str, ctx: Context, verb: str, content: str | None) -> None:
    """Start-up files and git hooks (their text runs later), then agent files."""
    if _RC_RE.search(path):
        # every new shell runs it, outside any project: not the agent's to change (issue 34)
        ctx.block("files.shell-rc", f"`{verb}` changes the shell start-up file `{path}`")
        _judge_payload(content, ctx, path)
    elif _check_agent_file(path, ctx, verb, content):
        return
    elif path.startswith(".git/hooks/") or "/.git/hooks/" in path:
        ctx.confirm("files.git-hook", f"`{verb}` changes the git hook `{path}` (runs on commit)")
        _judge_payload(content, ctx, path)


def _matches_paw_glob(path: str) -> bool:
    """A glob such as ``.p*`` or ``*.toml`` that can name ``.paw`` or ``paw.toml``."""
    if ("*" not in path and "?" not in path and "[" not in path) or (
        path.endswith(("/*", "/")) and path.count("/") > 1
    ):
        return False
    head, _, last = path.rstrip("/").rpartition("/")
    if head not in {"", ".", "~"} and not head.startswith("/"):
        return False
    if not any(c in last for c in "*?[") or last.strip("*") == "":
        return False
    return any(fnmatch.fnmatchcase(name, last) for name in _PAW_NAMES)


def check_paw_state(path: str, ctx: Context, verb: str) -> None:
    """``chmod``/``chown`` of paw's own state or config (``.paw``, ``paw.toml``)."""
    if ignored(path):
        return
    path = in_cwd(path, ctx)
    if _PAW_CONFIG_RE.search(path) or _matches_paw_glob(path):
        ctx.block("agents.guard-tamper", f"`{verb}` changes paw's own state or config `{path}`")


def home_segments(path: str) -> list[str] | None:
    """The segments of ``path`` below a home directory, or None when it is not in one."""
    segs = [s for s in path.split("/") if s not in {"", "."}]
    if path == "~" or path.startswith("~/"):
        return segs[1:]
    if path.startswith("/root") and segs[:1] == ["root"]:
        return segs[1:]
    if len(segs) >= 2 and segs[0] in {"home", "Users"}:
        return segs[2:]
    return None


def check_outside_write(path: str, ctx: Context, verb: str, *, dotfiles_only: bool = False) -> None:
    """Copying or extracting into the home folder itself, its top level or a user folder, or
    into the filesystem root: a write outside the project that nobody asked for."""
    if ignored(path) or (not ctx.cwd_prefix and not path.startswith(("~", "/"))):
        return
    path = in_cwd(path, ctx)
    if ctx.cwd_path and (path == ctx.cwd_path or path.startswith(ctx.cwd_path + "/")):
        return
    if "/.." in path or path.startswith(".."):
        path = normalise(path)
    home = home_segments(path)
    if home is not None:
        if dotfiles_only:
            if len(home) == 1 and home[0].startswith(".") and not _RC_RE.search(path):
                ctx.block("files.outside-write", f"`{verb}` writes the dotfile `{path}` in home")
            return
        if not home or len(home) == 1 or (len(home) == 2 and home[0].lower() in USER_DATA):
            ctx.block("files.outside-write", f"`{verb}` writes into the home folder (`{path}`)")
        return
    if dotfiles_only or not path.startswith("/"):
        return
    segs = [s for s in path.split("/") if s]
    if len(segs) <= 1 and (not segs or segs[0] not in {"tmp", "dev"}):
        ctx.block("files.outside-write", f"`{verb}` writes into the filesystem root (`{path}`)")


def _judge_payload(content: str | None, ctx: Context, path: str) -> None:
    """Text written into a file the shell will run later is judged as shell now."""
    if content and "\ue000" not in content and "\ue002" not in content:
        ctx.run_script(content, f"text written to {path}")


_CLASS_CACHE: dict[tuple[str, GuardConfig | None], PathClass] = {}
_CLASS_CACHE_MAX = 4096


def classify_cached(path: str, config: GuardConfig | None) -> PathClass:
    """``classify_path`` memoised per (path, config): both are immutable values."""
    clean = path.removeprefix("./")
    key = (clean, config)
    found = _CLASS_CACHE.get(key)
    if found is None:
        if len(_CLASS_CACHE) >= _CLASS_CACHE_MAX:
            _CLASS_CACHE.clear()
        found = _CLASS_CACHE[key] = classify_path(clean, config)
    return found


def clear_class_cache() -> None:
    """Forget every memoised path class (here and in ``classify_path``) and special place."""
    _CLASS_CACHE.clear()
    _classify_memo.cache_clear()
    any_place.cache_clear()


def _classify(path: str, ctx: Context) -> PathClass:
    return classify_cached(path, ctx.config)
