"""`paw wave land --pr`: the pull requests added to the landing's outcome."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from paw.cli.result import ERR, OUT

if TYPE_CHECKING:
    import argparse

    from paw.cli.result import Result
    from paw.supervisor.land_pr import PrOutcome

EXIT_NOT_ALL_OPENED = 1


def with_pull_requests(args: argparse.Namespace, result: Result, prs: PrOutcome) -> Result:
    """``result`` with the pull requests: ``pull_requests`` in the JSON object, one line per
    pull request, and each problem once on stderr (``paw: …``); exit 1 when one was not
    opened."""
    code = result.code or (EXIT_NOT_ALL_OPENED if prs.problems else 0)
    if args.json:
        data = dict(result.data or {})
        data["pull_requests"] = {"prs": prs.prs, "problems": prs.problems}
        return replace(result, data=data, code=code)
    lines = [
        *result.lines,
        *((OUT, line) for line in prs.lines),
        *((ERR, f"paw: {problem}") for problem in prs.problems),
    ]
    return replace(result, lines=tuple(lines), code=code)
