"""Value types of the git actions: parameters, confirmation payloads and results."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import PurePath
from typing import Any

from paw.core.guard.confirm import ConfirmationDetails
from paw.errors import GuardError
from paw.guard.shell_exec import ShellResult

Shell = Callable[[str, str | None, float | None], ShellResult]
"""A shell runner ``(command, cwd, timeout_s) -> ShellResult``; inject a fake one in tests."""


class GitAction(StrEnum):
    """The git actions an agent may ask for."""

    CLONE = "clone"
    PULL = "pull"
    STATUS = "status"
    LOG = "log"
    COMMIT = "commit"
    PUSH = "push"
    PR = "pr"

    @property
    def requires_confirmation(self) -> bool:
        """True for the writes (commit, push, pr): they always go to a human first."""
        return self in (GitAction.COMMIT, GitAction.PUSH, GitAction.PR)


_ALIASES = {"repoPath": "repo_path", "repoUrl": "url", "prTitle": "title", "prBody": "body"}


def _check_name(kind: str, value: str | None) -> None:
    """Refuse names git would read as options or that carry control characters."""
    if value is None:
        return
    if not value or value.startswith("-") or any(ord(c) < 32 for c in value):
        raise GuardError(f"invalid {kind} name {value!r}")


@dataclass(frozen=True, slots=True)
class GitActionParams:
    """What an agent asks for. ``repo_path`` must be absolute (git-guardrails' ``repoPath``).

    ``url`` is the clone source; ``message`` the commit message; ``title``/``body``/``base`` the
    pull request; ``remote``/``branch`` override the push target (default: the branch's upstream
    remote, else ``origin``, and the current branch). A commit stages everything (``add_all``,
    as git-guardrails does), or only ``files``, or, with ``add_all=False`` and no ``files``,
    commits what is already staged.
    """

    action: GitAction
    repo_path: str
    message: str | None = None
    url: str | None = None
    branch: str | None = None
    remote: str | None = None
    title: str | None = None
    body: str | None = None
    base: str | None = None
    files: tuple[str, ...] | None = None
    add_all: bool = True

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "action", GitAction(self.action))
        except ValueError as err:
            choices = ", ".join(a.value for a in GitAction)
            raise GuardError(f"unknown git action {self.action!r} (use one of {choices})") from err
        if not self.repo_path or not PurePath(self.repo_path).is_absolute():
            raise GuardError(f"repo_path must be an absolute path, got {self.repo_path!r}")
        if self.files is not None:
            object.__setattr__(self, "files", tuple(self.files))
        if self.action is GitAction.CLONE and not self.url:
            raise GuardError("url is required for clone")
        for kind in ("branch", "remote", "base"):
            _check_name(kind, getattr(self, kind))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GitActionParams:
        """Build from JSON-like data; git-guardrails' camelCase keys (``repoPath``) work too."""
        known = set(cls.__dataclass_fields__)
        kwargs = {_ALIASES.get(k, k): v for k, v in data.items()}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise GuardError(f"unknown git action parameter(s): {', '.join(unknown)}")
        return cls(**kwargs)


@dataclass(frozen=True, slots=True)
class GitConfirmationPayload:
    """Everything :func:`~paw.guard.git_actions.execute_confirmed_git_action` needs, and no more.

    ``expected_paths`` are the changed paths the human was shown for a commit: if the tree has
    changed since, the confirmed commit refuses to run.
    """

    action: GitAction
    repo_path: str
    message: str | None = None
    remote: str | None = None
    branch: str | None = None
    title: str | None = None
    body: str | None = None
    base: str | None = None
    files: tuple[str, ...] | None = None
    add_all: bool = True
    expected_paths: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        object.__setattr__(self, "action", GitAction(self.action))
        if not PurePath(self.repo_path).is_absolute():
            raise GuardError(f"repo_path must be an absolute path, got {self.repo_path!r}")
        if self.files is not None:
            object.__setattr__(self, "files", tuple(self.files))
        object.__setattr__(self, "expected_paths", tuple(self.expected_paths))
        for kind in ("branch", "remote", "base"):
            _check_name(kind, getattr(self, kind))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping."""
        data = asdict(self)
        data["action"] = self.action.value
        return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GitConfirmationPayload:
        """Inverse of :meth:`to_dict`."""
        return cls(**{_ALIASES.get(k, k): v for k, v in data.items()})


@dataclass(frozen=True, slots=True)
class GitActionResult:
    """The outcome of :func:`~paw.guard.git_actions.execute_git_action`.

    Read actions carry ``output``. Writes carry ``requires_confirmation=True``, the
    ``confirmation_details`` to show and the ``confirmation_payload`` to run after a human OK.
    """

    requires_confirmation: bool
    output: str = ""
    confirmation_details: ConfirmationDetails | None = None
    confirmation_payload: GitConfirmationPayload | None = None
