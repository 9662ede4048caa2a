"""``gh``: find an open pull request of a branch, open one (the port
:class:`paw.supervisor.land_pr.PullRequests`)."""

from __future__ import annotations

import shutil
import subprocess

from paw.adapters import proc

_TIMEOUT = 120.0


class GhCli:
    """The GitHub CLI, run in the repository."""

    def found(self) -> bool:
        """True when ``gh`` is on PATH."""
        return shutil.which("gh") is not None

    def _gh(self, repo: str, *args: str) -> proc.Completed | str:
        try:
            return proc.run(["gh", *args], cwd=repo, timeout=_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            return f"gh {args[0]} {args[1]}: no answer within {_TIMEOUT:g}s"
        except OSError as err:
            return f"gh: {err.strerror or err}"

    def existing(self, repo: str, branch: str) -> str | None:
        """The URL of an open pull request from ``branch``, if there is one."""
        done = self._gh(
            repo, "pr", "list", "--head", branch, "--state", "open", "--json", "url",
            "--jq", ".[0].url",
        )  # fmt: skip
        if isinstance(done, str) or not done.ok:
            return None
        url = done.stdout.strip()
        return url or None

    def create(
        self, repo: str, base: str, branch: str, title: str, body: str
    ) -> tuple[str | None, str | None]:
        """Open a pull request of ``branch`` onto ``base``: (its URL, None) or (None, why)."""
        done = self._gh(
            repo, "pr", "create", "--base", base, "--head", branch, "--title", title,
            "--body", body,
        )  # fmt: skip
        if isinstance(done, str):
            return None, done
        if not done.ok:
            return None, f"gh pr create: {proc.last_line(done.stderr or done.stdout)}"
        lines = [ln for ln in done.stdout.splitlines() if ln.strip()]
        return (lines[-1].strip() if lines else "(no URL printed)"), None
