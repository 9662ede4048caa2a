"""Make a directory read-only for the test's user, root included (``chattr +i``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` (a directory) refuses new files while the context is open.

    chmod is enough for an ordinary user; root ignores modes, so there the directory is made
    immutable with ``chattr +i`` (and made mutable again afterwards)."""
    path.chmod(0o555)
    immutable = False
    try:
        if os.geteuid() == 0:
            chattr = shutil.which("chattr")
            done = subprocess.run(
                [chattr or "chattr", "+i", str(path)], capture_output=True, check=False
            )
            immutable = done.returncode == 0
            if not immutable:
                pytest.fail(f"running as root and `chattr +i` failed: {done.stderr!r}")
        probe = path / ".probe"
        with contextlib.suppress(OSError):
            probe.touch()
            probe.unlink()
            pytest.fail(f"{path} is still writable")
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], capture_output=True, check=False)
        path.chmod(0o700)
