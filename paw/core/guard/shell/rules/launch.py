"""Programs that run other programs: through a script language (awk, sed), an escape (pagers,
editors), an option naming a command (tar, zip, rsync, ssh, man), a launcher (screen, tmux,
hyperfine, fd …). The inner command is judged with the same rules; what paw cannot see is
``confirm`` (rule ``shell.program-option``). Each family has its own module; this one gathers
their table, in the order the families were always checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paw.core.guard.shell.rules import awk, editors, runners, sed, sessions, signals, transfers
from paw.core.guard.shell.rules.inner import RULE, run_argv, run_inner
from paw.core.guard.shell.rules.transfers import ssh_options, tar_programs

if TYPE_CHECKING:
    from paw.core.guard.shell.rules import Check

__all__ = ["RULE", "RULES", "run_argv", "run_inner", "ssh_options", "tar_programs"]

RULES: dict[str, tuple[Check, ...]] = {
    **awk.RULES,
    **sed.RULES,
    **editors.RULES,
    **transfers.RULES,
    **sessions.RULES,
    **signals.RULES,
    **runners.RULES,
}
