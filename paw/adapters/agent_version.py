"""Read an agent CLI's version: run its program with ``--version`` (the one place paw asks).

`paw doctor` and `paw spawn` ask the program `paw spawn` runs (the ``command`` of paw.toml's
``[agents.KIND]`` table, else the built-in one): an interpreter (``node``, ``python``) that runs
the agent's script is asked through that script.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from paw.core.verified import parse_version

VERSION_TIMEOUT_S = 30.0


def version_argv(argv: Sequence[str], interpreters: Sequence[str] = ()) -> list[str]:
    """The argv that asks ``argv``'s program for its version (its script, under an
    interpreter named in ``interpreters``)."""
    name = Path(argv[0]).name if argv else ""
    interpreted = len(argv) > 1 and any(name.startswith(i) for i in interpreters)
    return [*(argv[:2] if interpreted else argv[:1]), "--version"]


def read_version(argv: Sequence[str], interpreters: Sequence[str] = ()) -> str | None:
    """The version ``argv``'s program prints for ``--version``; None when it cannot be run or
    prints none (a hanging or crashing CLI is an unknown version, never an error)."""
    from paw.adapters.proc import run

    if not argv:
        return None
    try:
        done = run(version_argv(argv, interpreters), timeout=VERSION_TIMEOUT_S, check=False)
    except Exception:  # noqa: BLE001 - any failure is an unknown version
        return None
    return parse_version(done.stdout + " " + done.stderr)
