"""Everyday tools' options that write, delete, load code or send data elsewhere (issue 34, item 4).

The rule cases (tests/core/guard/rule_cases.py, ``tool-*``) prove each option is caught; these
prove the ordinary spellings stay ``allow`` and that a standing rule cannot approve the caught
ones.
"""

from __future__ import annotations

import pytest

from paw.core.guard.shell import evaluate_command
from paw.core.models import Action
from paw.core.wave import SeenPrompt, WaveRule, route

ORDINARY = (
    "python -m pytest -q",
    "python3 -m pytest -x tests/ -p no:cacheprovider",
    "pytest --junitxml=reports/junit.xml --basetemp=.pytest-tmp",
    "pytest --cov=paw --cov-report=term-missing --cov-report=xml:coverage.xml",
    "pytest --log-file=build/test.log -o log_cli=true",
    "pip install -r requirements.txt",
    "python -m pip install -e '.[dev]'",
    "python3 -m pip install --user x",
    "npm ci",
    "npm ls -g",
    "npm install --save-dev typescript",
    "ruff check --fix .",
    "ruff format src tests",
    "black --check /srv/elsewhere",
    "black .",
    "isort src",
    "eslint --fix src --cache-location .cache/eslint",
    "prettier --write 'src/**/*.ts'",
    "mypy --html-report build/mypy src",
    "go build -o bin/server ./cmd/server",
    "go test -coverprofile=cover.out ./...",
    "make -C docs html",
    "cargo build --target-dir target/ci",
    "tsc --outDir dist -p tsconfig.json",
    "coverage html -d htmlcov",
    "pytest --junitxml=/dev/null",
    "ln -s ../lib/x.so build/x.so",
    "ln -sf /usr/local/bin/python3 bin/python",
    "ln -s target link",
)


@pytest.mark.parametrize("command", ORDINARY)
def test_ordinary_tool_options_stay_allowed(command: str) -> None:
    verdict = evaluate_command(command)
    assert verdict.action is Action.ALLOW, verdict


def test_an_absolute_path_inside_the_given_project_is_inside() -> None:
    command = "pytest --junitxml=/srv/app/reports/junit.xml --basetemp=/srv/app/.tmp"
    assert evaluate_command(command, cwd="/srv/app").action is Action.ALLOW
    assert evaluate_command(command).action is Action.CONFIRM


@pytest.mark.parametrize(
    "command",
    [
        "python -m pytest --basetemp=~",
        "python -m pytest --junitxml=~/.bashrc",
        "python -m pytest -p evil_plugin",
        "python -m pytest --pastebin=all",
        "python -m pytest --log-file=/tmp/x.log",
    ],
)
def test_the_docs_example_rule_does_not_approve_a_dangerous_option(command: str) -> None:
    """`shell "python -m pytest*"` approved `python -m pytest --basetemp=~` with no human."""
    verdict = evaluate_command(command)
    assert verdict.action is not Action.ALLOW, verdict
    seen = SeenPrompt("p1", "shell", command, "Run?", verdict.action, ("why",), True, 100.0)
    rules = (WaveRule(kind="shell", subject="python -m pytest*"),)
    assert route(seen, rules, "/srv/app")[0] == "human"
