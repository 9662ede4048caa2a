"""The guard's pure decision logic: shell commands, git, file paths."""

from __future__ import annotations
