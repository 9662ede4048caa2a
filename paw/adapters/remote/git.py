"""git in a clone on a host: :class:`RemoteGit` is
:class:`~paw.adapters.git.runner.GitCli` with every git call run there over ssh.
"""

from __future__ import annotations

import contextlib
import posixpath
from collections.abc import Iterator, Mapping, Sequence

from paw.adapters import proc
from paw.adapters.git.runner import GitCli
from paw.adapters.proc import last_line
from paw.adapters.remote.ssh import SshTransport
from paw.adapters.remote.terminal import RemoteError, call
from paw.core.disposable import is_disposable
from paw.errors import GitError

_GIT_TIMEOUT = 60.0


class RemoteGit(GitCli):
    """git in a clone on the host."""

    def __init__(self, transport: SshTransport) -> None:
        """Run git on the host of ``transport``."""
        super().__init__()
        self.transport = transport

    def current_branch(self, repo: str) -> str:
        """The branch checked out in ``repo`` (the commit id when HEAD is detached)."""
        done = self._git(repo, "symbolic-ref", "--quiet", "--short", "HEAD", check=False)
        if done.ok and done.stdout.strip():
            return done.stdout.strip()
        return self._git(repo, "rev-parse", "--verify", "HEAD").stdout.strip()

    def remove_worktree(self, repo: str, path: str, *, force: bool = False) -> None:
        """``git worktree remove`` when git still lists ``path``, then prune."""
        if path in self.worktree_paths(repo):
            self._git(repo, "worktree", "remove", *(["--force"] if force else []), path)
        self._git(repo, "worktree", "prune")

    def status_mark(self, worktree: str, base: str) -> tuple[object, ...]:
        """Not read on a host (it would cost a round trip): counts refresh on output and age."""
        raise OSError("no status mark over ssh")

    def head_commit(self, worktree: str) -> str | None:
        """The worktree's HEAD commit; None when it is gone or unborn."""
        return self._head(worktree)

    def ignored_paths(self, worktree: str, disposable: Sequence[str]) -> list[str]:
        """Ignored paths that are not ``disposable`` (a directory is kept whole: its files are
        not walked over ssh, so it is never dropped as disposable-only)."""
        out = self._git(
            worktree, "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
            "--directory",
        ).stdout  # fmt: skip
        return [p for p in out.split("\0") if p and not is_disposable(p, disposable)]

    def worktree_path_problem(self, repo: str, path: str) -> str | None:
        """Why a new worktree cannot go to ``path`` on the host; None when it can."""
        common = self._git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
        git_dir = posixpath.normpath(common.stdout.strip())
        target = posixpath.normpath(path)
        if target == git_dir or target.startswith(git_dir + "/"):
            return f"{path} is inside the repository's git directory {git_dir}"
        script = 'if [ -e "$1" ]; then [ -d "$1" ] && [ -z "$(ls -A "$1")" ] || echo exists; fi'
        done = self._sh(script, target)
        if "exists" in done.stdout:
            return f"{path} already exists"
        return None

    @contextlib.contextmanager
    def _temp_index(self, worktree: str) -> Iterator[dict[str, str]]:
        """A private copy of the worktree's index on the host, deleted afterwards."""
        source = self._git(worktree, "rev-parse", "--path-format=absolute", "--git-path", "index")
        made = self._sh('d=$(mktemp -d) && { cp -p "$1" "$d/index" 2>/dev/null; echo "$d"; }',
                        source.stdout.strip())  # fmt: skip
        tmp = made.stdout.strip()
        if not tmp.startswith("/"):
            raise GitError(f"cannot copy the index of {worktree} on {self.transport.target.host}")
        env = {"GIT_INDEX_FILE": posixpath.join(tmp, "index")}
        try:
            if not self._sh('test -f "$1"', env["GIT_INDEX_FILE"]).ok:
                self._git(worktree, "read-tree", "--empty", env=env)
            yield env
        finally:
            self._sh('rm -rf -- "$1"', tmp)

    def _sh(self, script: str, *args: str) -> proc.Completed:
        argv = ["sh", "-c", script, "sh", *args]
        return _git_call(self.transport, argv, label="sh", input=None)

    def _git(
        self,
        cwd: str,
        *args: str,
        env: Mapping[str, str] | None = None,
        check: bool = True,
        input: str | None = None,  # noqa: A002 - mirrors subprocess.run's keyword
    ) -> proc.Completed:
        assigned = [f"{key}={value}" for key, value in (env or {}).items()]
        argv = ["env", *assigned, "git", "-C", cwd, *args]
        label = f"git {args[0]}" if args else "git"
        done = _git_call(self.transport, argv, label=label, input=input)
        if check and not done.ok:
            raise GitError(f"{label}: {last_line(done.stderr)}")
        return done


def _git_call(
    transport: SshTransport,
    argv: Sequence[str],
    *,
    label: str,
    input: str | None,  # noqa: A002 - mirrors subprocess.run's keyword
) -> proc.Completed:
    """:func:`call` for git: every failure is a GitError (the host's too)."""
    try:
        return call(transport, argv, GitError, label=label, timeout=_GIT_TIMEOUT, input=input)
    except RemoteError as err:
        raise GitError(err.message) from err
