"""``python -m paw.cli.install_plan``: the pinned agent CLIs, one line each, for
``scripts/install-agents`` (the pins live in each agent's ``SPEC`` only).

Each line: ``KIND VIA PACKAGE VERSION BINARY BIN_DIR PYTHON``; VIA is ``npm`` or ``pypi``, BIN_DIR
the folder under the install cache that holds BINARY, PYTHON the oldest Python a PyPI package
needs (``-`` for any). Needs only the standard library, so any Python 3 with paw's source on
``PYTHONPATH`` can print it.
"""

from __future__ import annotations

import sys

from paw.core.agentspec import install_plan
from paw.core.detect.registry import all_specs


def main(argv: list[str]) -> int:
    """Print the install plan; ``--help`` prints this module's description."""
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv:
        print(f"install_plan: unknown argument: {argv[0]}", file=sys.stderr)
        return 2
    for line in install_plan(all_specs()):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
