"""Judging a path operand of a destructive command: root, home, system, escapes, variables."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from paw.core.guard.shell.evaluation import CwdKind
from paw.core.guard.shell.words import GUARDED, SENTINELS, SUBST, UNKNOWN
from paw.core.models import Action

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context

SYSTEM_TOP = frozenset(
    {
        "etc", "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "boot", "dev", "proc",
        "sys", "var", "opt", "srv", "root", "home", "users", "system", "library", "applications",
        "snap", "mnt", "media", "run", "private", "nix", "volumes", "cores", "efi", "tmp",
    }
)  # fmt: skip
DEEP_SYSTEM = frozenset(
    {"etc", "usr", "bin", "sbin", "lib", "lib32", "lib64", "boot", "dev", "proc", "sys", "system",
     "library", "root", "snap", "nix", "efi", "var"}
)  # fmt: skip
TEMP_ROOTS = (("tmp",), ("var", "tmp"), ("private", "tmp"), ("var", "folders"), ("dev", "shm"))
HOME_ROOTS = frozenset({"home", "users"})
HOME_PRECIOUS = frozenset(
    {
        "documents", "desktop", "downloads", "pictures", "music", "videos", "movies", "library",
        ".ssh", ".gnupg", ".aws", ".config", ".local", ".kube", ".docker", ".azure", ".gcloud",
        "src", "code", "projects", "work", "workspace", "dev", "git", "repos", "go", ".cargo",
        ".rustup", ".npm", ".password-store", ".mozilla", "dropbox", "onedrive", "icloud drive",
    }
)  # fmt: skip
USER_DATA = frozenset(
    {"documents", "desktop", "downloads", "pictures", "music", "videos", "movies", "dropbox",
     "onedrive", "icloud drive"}
)  # fmt: skip
HOME_SECRET_DIRS = frozenset({".ssh", ".gnupg", ".aws", ".password-store", ".kube", ".azure"})
GLOB_CHARS = frozenset("*?[")
_GIT_CORE = frozenset({"objects", "refs", "HEAD", "packed-refs", "index", "logs"})


class Danger(NamedTuple):
    """Why a target is dangerous: rule id, action and a short description."""

    rule: str
    action: Action
    what: str


def _segments(path: str) -> list[str]:
    return [s for s in path.split("/") if s not in {"", "."}]


def _is_glob(segment: str) -> bool:
    return "*" in segment or "?" in segment or "[" in segment  # GLOB_CHARS


def _is_bare_glob(segment: str) -> bool:
    """``*``, ``.*``, ``*.*``: matches (nearly) everything, unlike ``*.log``."""
    return _is_glob(segment) and not segment.strip("*?.[]!")


def _home_danger(segs: list[str]) -> Danger | None:
    if not segs or (all(_is_glob(s) for s in segs[:1]) and len(segs) == 1):
        return Danger("shell.rm-home", Action.BLOCK, "the home directory")
    top = segs[0].lower()
    if len(segs) == 1:
        if top in HOME_PRECIOUS or _is_glob(top):
            return Danger("shell.rm-home", Action.BLOCK, f"`~/{segs[0]}` in the home directory")
        return Danger("shell.rm-outside", Action.CONFIRM, f"`~/{segs[0]}` outside the project")
    if top in HOME_SECRET_DIRS:
        return Danger("shell.rm-home", Action.BLOCK, f"`~/{'/'.join(segs)}` (credentials)")
    if top in USER_DATA:
        shown = f"`~/{'/'.join(segs)}`"
        if any(_is_glob(s) for s in segs):
            return Danger("shell.rm-home", Action.BLOCK, f"{shown} (the user's own files)")
        return Danger("shell.rm-outside", Action.CONFIRM, f"{shown} (the user's own files)")
    return None


def _absolute_danger(segs: list[str], ctx: Context, path: str) -> Danger | None:
    if ctx.cwd_path and "/.." not in path and path.startswith(ctx.cwd_path + "/"):
        inside = _segments(path[len(ctx.cwd_path) :])
        return _relative_danger(inside, ctx, path) if inside else None
    if not segs or _is_glob(segs[0]):
        return Danger("shell.rm-root", Action.BLOCK, "the filesystem root")
    low = [s.lower() for s in segs]
    for temp in TEMP_ROOTS:
        if tuple(low[: len(temp)]) == temp:
            if len(low) == len(temp) or (
                len(low) == len(temp) + 1 and _is_bare_glob(low[len(temp)])
            ):
                return Danger("shell.rm-system", Action.BLOCK, f"the system temp dir `{path}`")
            return None
    if low[0] in HOME_ROOTS:
        if len(low) <= 2 or (len(low) == 3 and _is_glob(low[2])):
            return Danger("shell.rm-home", Action.BLOCK, f"a home directory `{path}`")
        return _home_danger(segs[2:])
    if low[0] in DEEP_SYSTEM or (low[0] in SYSTEM_TOP and len(low) <= 2):
        return Danger("shell.rm-system", Action.BLOCK, f"the system path `{path}`")
    if len(low) == 1:
        return Danger("shell.rm-root", Action.BLOCK, f"the top-level directory `{path}`")
    return Danger("shell.rm-outside", Action.CONFIRM, f"`{path}` outside the project")


def _relative_danger(segs: list[str], ctx: Context, path: str) -> Danger | None:
    if not segs or (len(segs) == 1 and segs[0] in {"*", ".*", "*/", ".[!.]*"}):
        what = "everything in the current directory"
        if ctx.cwd is CwdKind.DANGEROUS:
            return Danger("shell.rm-bare-glob", Action.BLOCK, f"{what} (root, home or system)")
        if ctx.cwd is CwdKind.SUBDIR and segs:
            return None
        return Danger("shell.rm-cwd", Action.CONFIRM, what)
    if segs[0] == "..":
        if len(segs) == 1 or all(s == ".." or _is_glob(s) for s in segs):
            return Danger("shell.rm-escape", Action.BLOCK, f"`{path}` above the project")
        return Danger("shell.rm-outside", Action.CONFIRM, f"`{path}` outside the project")
    if segs[0] == ".git" and (
        len(segs) == 1 or (len(segs) == 2 and (_is_bare_glob(segs[1]) or segs[1] in _GIT_CORE))
    ):
        return Danger("shell.rm-git-dir", Action.BLOCK, "the repository's history (.git)")
    if ctx.cwd is CwdKind.DANGEROUS and len(segs) == 1 and _is_glob(segs[0]):
        return Danger("shell.rm-bare-glob", Action.BLOCK, f"`{path}` in a root, home or system dir")
    return None


def _normalise(text: str) -> str:
    """Collapse ``..`` the way the kernel would (``/tmp/../etc`` is ``/etc``)."""
    head = "~" if text.startswith("~/") else ""
    body = text[1:] if head else text
    absolute = body.startswith("/")
    out: list[str] = []
    for segment in body.split("/"):
        if segment in {"", "."}:
            continue
        if segment == ".." and out and out[-1] != "..":
            out.pop()
        elif segment == ".." and absolute and not head:
            continue  # `/..` is `/`
        else:
            out.append(segment)
    joined = "/".join(out)
    if head:
        return "~/" + joined if joined else "~"
    if absolute:
        return "/" + joined
    return joined or "."


def in_cwd(text: str, ctx: Context) -> str:
    """``text`` seen from where the command started: ``cd build && rm -rf *`` deletes
    ``build/*`` (same effect, same verdict as the one-path spelling)."""
    prefix = ctx.cwd_prefix
    if not prefix or not text or text.startswith(("/", "~")) or text[0] in SENTINELS:
        return text
    if text in {".", "./"}:
        return prefix
    return ("" if prefix == "/" else prefix.rstrip("/")) + "/" + text.removeprefix("./")


def judge_path(text: str, ctx: Context) -> Danger | None:
    """Judge one operand of a destructive command (``rm``, ``find -delete``, ``shutil.rmtree``)."""
    if not ctx.cwd_prefix:
        return _judge(text, ctx)
    joined = in_cwd(text, ctx)
    if joined != text and ctx.cwd is CwdKind.DANGEROUS:
        danger = _judge(text, ctx)
        if danger is not None:
            return danger
    return _judge(joined, ctx)


# A path that cannot be dangerous below (the common `node_modules`, `dist/app.js`): it starts with
# none of `/`, `~`, `.` (no root, home, `..` or `.git`), holds no glob and no sentinel, and has no
# `/..` (nothing to normalise): `_relative_danger` finds nothing for it in any directory kind.
_PLAIN_RELATIVE_RE = re.compile(r"[^/~.*?\[\ue000-\ue002][^*?\[\ue000-\ue002]*")


def _judge(text: str, ctx: Context) -> Danger | None:
    if "/.." not in text and _PLAIN_RELATIVE_RE.fullmatch(text) is not None:
        return None
    if GUARDED in text:
        text = text.replace(GUARDED, "guarded")
    if text.startswith(SUBST):
        return Danger(
            "shell.rm-unresolved",
            Action.CONFIRM,
            f"`{text.replace(SUBST, '$(…)')}` depends on a command's output",
        )
    if SUBST in text:
        text = text.replace(SUBST, "computed")
    if UNKNOWN in text:
        return _judge_unknown(text, ctx)
    if text.startswith("//"):
        return Danger("shell.rm-root", Action.BLOCK, f"`{text}` (resolves to the root)")
    if "/.." in text or text.startswith(".."):
        text = _normalise(text)
    if text == "~" or text.startswith("~/"):
        if _segments(text[1:])[:1] == [".."]:
            return Danger("shell.rm-home", Action.BLOCK, f"`{text}` (above the home directory)")
        return _home_danger(_segments(text[1:]))
    if text.startswith("~"):
        return Danger("shell.rm-home", Action.BLOCK, f"another user's home `{text}`")
    if text.startswith("/"):
        return _absolute_danger(_segments(text), ctx, text)
    return _relative_danger(_segments(text), ctx, text)


def _judge_unknown(text: str, ctx: Context) -> Danger | None:
    empty = text.replace(UNKNOWN, "")
    if empty.strip() and empty != text:
        danger = _judge(empty, ctx)
        shown = text.replace(UNKNOWN, "$VAR")
        if danger is not None and danger.action is Action.BLOCK:
            return Danger(
                "shell.rm-unguarded-var",
                Action.BLOCK,
                f"`{shown}` becomes {danger.what} if the variable is empty",
            )
        if danger is not None:
            return Danger(
                "shell.rm-unresolved",
                Action.CONFIRM,
                f"`{shown}` becomes {danger.what} if the variable is empty",
            )
    if text.startswith(UNKNOWN):
        return Danger(
            "shell.rm-unresolved",
            Action.CONFIRM,
            f"`{text.replace(UNKNOWN, '$VAR')}` depends on a value paw cannot see",
        )
    return None


def is_dangerous_dir(text: str, ctx: Context) -> bool:
    """True when ``text`` is root, a home directory, or a system directory (not ``/srv/app``)."""
    if text in {"/", "~", "~/"} or text.startswith("//"):
        return True
    if text.startswith("~"):
        return not _segments(text[1:])
    if not text.startswith("/"):
        return False
    low = [s.lower() for s in _segments(text)]
    if len(low) <= 1:
        return True
    if low[0] in HOME_ROOTS:
        return len(low) <= 2
    if low[0] == "root":  # root's home: its top-level entries are precious, a project below is not
        return len(low) == 2 and (low[1].startswith(".") or low[1] in HOME_PRECIOUS)
    return low[0] in DEEP_SYSTEM and tuple(low[:2]) not in TEMP_ROOTS
