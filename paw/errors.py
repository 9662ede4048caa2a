"""paw's exceptions. Imports nothing from paw."""

from __future__ import annotations


class PawError(Exception):
    """Base of every error paw reports to a user (the CLI prints ``paw: <message>``)."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class ConfigError(PawError):
    """paw.toml (or a config value) is invalid."""


class GitError(PawError):
    """A git command failed or a repository is in an unexpected state."""


class TmuxError(PawError):
    """tmux is missing, its server is gone, or a tmux command failed."""


class GuardError(PawError):
    """The guard refused an action (e.g. a commit that stages sensitive files)."""


class SensitiveFilesError(GuardError):
    """A commit would include sensitive files; raised before any confirmation."""

    def __init__(self, files: list[str]) -> None:
        listed = ", ".join(files)
        super().__init__(
            f"commit aborted: sensitive files are staged or present: {listed}",
            hint="unstage them (git restore --staged FILE) or add them to .gitignore",
        )
        self.files = files


class DeliveryUnknown(PawError):  # noqa: N818 - an outcome users read, not a bug
    """Keys or text were handed to the link to a host (ssh) and no answer came back: the
    connection dropped, ssh failed mid-command or time ran out. They may have reached the
    agent; never report this as "nothing sent", and never send them again on that ground."""


class TypingRefused(PawError):  # noqa: N818 - a refusal is an outcome users read, not a bug
    """paw refused to type text into an agent, or to press Enter after it.

    ``reason`` is a stable code a caller can act on (a wave waits and announces on it):
    ``no-pane``, ``not-running``, ``not-idle`` (a prompt, a dialog, an unreadable screen),
    ``input-unreadable``, ``input-not-empty``, ``control-character``, ``echo-missing``,
    ``changed-before-enter``. ``typed`` is True when the text went into the input but no
    Enter followed (the text stays there, unsubmitted)."""

    def __init__(
        self, message: str, *, reason: str, hint: str | None = None, typed: bool = False
    ) -> None:
        super().__init__(message, hint=hint)
        self.reason = reason
        self.typed = typed


class ChannelRefused(PawError):  # noqa: N818 - a refusal is an outcome users read, not a bug
    """paw refused to answer through an agent's structured channel; nothing was sent.

    ``reason`` is a stable code: ``channel-down``, ``not-pending`` (the agent does not hold
    that request open: a wrong, stale or forged id), ``already-answered``,
    ``conflicting-claims``, ``unsupported-answer``."""

    def __init__(self, message: str, *, reason: str, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.reason = reason
