"""The posture ('allow is earned'): each posture rule with examples it must match and examples it
must not match, run as a test so a rule cannot silently stop matching (or start over-matching)."""

from __future__ import annotations

import pytest

from paw.core.config import GuardConfig
from paw.core.guard.shell import evaluate_command

# rule id -> (commands that must produce it, commands that must not)
EXAMPLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "shell.unknown-program": (
        (
            "frobnicate src/",
            "acme-sync push",
            "brew install jq",
            "gcloud compute ssh vm",
            "/opt/x/bin/tool",
        ),
        (
            "ls -la",
            "pytest -q",
            "cargo build",
            "gcloud config list",
            "./scripts/check.sh",
            "mytool --help",
        ),
    ),
    "shell.destructive-verb": (
        (
            "heroku apps:destroy --app a",
            "acme cluster wipe staging",
            "bin/rails db:drop",
            "tool --purge x",
        ),
        (
            "grep -rn delete src/",
            "echo remove",
            "docker run --rm app",
            "npm prune",
            "ruby script.rb",
        ),
    ),
    "shell.destructive-sql": (
        (
            "psql -c 'TRUNCATE TABLE sessions'",
            "mongosh --eval 'db.users.drop()'",
            "redis-cli FLUSHALL",
        ),
        ("psql -c 'select 1'", "echo 'DROP TABLE t' > notes.txt", "grep -rn 'DELETE FROM' src/"),
    ),
    "shell.home-read": (
        ("ls ~/other-repo", "find ~ -name '*.pem'", "tar czf /tmp/h.tgz ~/Documents"),
        ("du -sh ~/.cache", "echo ~", "ls src/", "cat /etc/os-release"),
    ),
    "shell.outside-read": (
        ("cat ../other/.env", "grep -rn key ../", "cd src && cat ../../x", "cp ../bob/a.py ."),
        ("cd src && cat ../README.md", "go test ./...", "echo ../x", "cat ./a/../b"),
    ),
    "shell.listen": (
        ("nc -l 9000", "uvicorn app:app --host 0.0.0.0", "ssh -R 9000:localhost:22 h"),
        ("uvicorn app:app --reload", "nc -z localhost 5432", "ssh host uptime"),
    ),
    "shell.settings": (
        (
            "pip config set global.index-url http://x/",
            "defaults write com.x k 1",
            "systemctl --user enable s",
        ),
        ("pip config list", "gcloud config list", "systemctl status nginx"),
    ),
    "shell.private-address": (
        (
            "curl http://192.168.1.1/",
            "wget http://172.20.0.3/x",
            "curl http://metadata.google.internal/",
        ),
        ("curl http://localhost:3000/", "curl http://127.0.0.1:8000/", "cat ./10.0.0.5.txt"),
    ),
}


@pytest.mark.parametrize("rule", sorted(EXAMPLES))
def test_posture_rule_matches_its_examples(rule: str) -> None:
    must, must_not = EXAMPLES[rule]
    for command in must:
        assert rule in evaluate_command(command).rules, command
    for command in must_not:
        assert rule not in evaluate_command(command).rules, command


@pytest.mark.parametrize(
    "command",
    [
        "redis-cli -h prod-cache flushdb",
        "kubectl --context prod delete ns payments",
        "NODE_ENV=production npx sequelize-cli db:drop",
        "acme purge --all-collections",
    ],
)
def test_destruction_of_everything_or_production_blocks(command: str) -> None:
    assert evaluate_command(command).action.value == "block"


def test_unknown_program_reason_names_it() -> None:
    verdict = evaluate_command("frobnicate --fast")
    assert verdict.action.value == "confirm"
    assert any("paw does not know what `frobnicate` does" in f.reason for f in verdict.findings)


def test_a_user_vouches_for_a_program_but_its_verbs_are_still_read() -> None:
    config = GuardConfig(known_programs=("frobnicate",))
    assert evaluate_command("frobnicate build", config=config).action.value == "allow"
    assert evaluate_command("frobnicate drop all", config=config).action.value == "block"


def test_through_wrappers_and_obfuscation() -> None:
    for command in [
        "nohup acme-cli purge --all &",
        "bash -c 'acme-cli purge --all'",
        "env X=1 'acme''-cli' purge --all",
        "echo 'acme-cli purge --all' | sh",
    ]:
        assert evaluate_command(command).action.value == "block", command


def test_a_project_read_inside_the_cwd_is_not_a_home_read() -> None:
    verdict = evaluate_command("cat /home/u/proj/README.md", cwd="/home/u/proj")
    assert "shell.home-read" not in verdict.rules
    verdict = evaluate_command("cat /home/u/other/README.md", cwd="/home/u/proj")
    assert "shell.home-read" in verdict.rules


# An address is judged where a URL names its host, not in its path, query or fragment.
ADDRESS_REACHED = {
    "url-host": ("curl https://10.0.0.1/x", "confirm"),
    "url-userinfo-port": ("curl http://user@192.168.1.5:8080/", "confirm"),
    "url-ipv6": ("curl 'https://[fd00::1]:8080/x'", "confirm"),
    "second-url": ("curl https://example.com/ http://10.0.0.1/", "confirm"),
    "second-url-one-word": ("curl 'https://example.com/x http://10.0.0.1/'", "confirm"),
    "nested-url-in-query": (
        "curl 'https://proxy.example/?u=http://169.254.169.254/latest'",
        "block",
    ),
    "bare-host": ("curl 10.0.0.1/x", "confirm"),
    "ssh-host": ("ssh 10.0.0.7", "confirm"),
    "scp-target": ("scp a.txt user@10.0.0.2:/srv/", "confirm"),
    "url-metadata": ("curl http://169.254.169.254/latest/meta-data/", "block"),
    "code-second-url": (
        (
            "python3 -c \"import urllib.request as u; u.urlopen('http://example.com/');"
            " u.urlopen('http://10.0.0.9/')\""
        ),
        "confirm",
    ),
}

ADDRESS_IN_PATH_ONLY = {
    "path-segment": "curl https://example.com/10.0.0.1",
    "query": "curl 'https://example.com/?ip=10.0.0.1'",
    "fragment": "curl 'https://example.com/#192.168.0.1'",
    "deep-path": "wget https://mirror.example.org/pub/192.168.1.1/file.tar.gz",
    "metadata-in-path": "curl https://example.com/169.254.169.254",
    "schemeless-url": "curl example.com/10.0.0.1",
    "url-with-port": "curl http://example.com:8080/172.16.0.1/x",
}


@pytest.mark.parametrize(("command", "action"), ADDRESS_REACHED.values(), ids=list(ADDRESS_REACHED))
def test_an_address_a_url_reaches_is_judged(command: str, action: str) -> None:
    verdict = evaluate_command(command)
    assert "shell.private-address" in verdict.rules, verdict
    assert verdict.action.value == action, verdict


@pytest.mark.parametrize("command", ADDRESS_IN_PATH_ONLY.values(), ids=list(ADDRESS_IN_PATH_ONLY))
def test_an_address_in_a_urls_path_is_not_the_host(command: str) -> None:
    verdict = evaluate_command(command)
    assert "shell.private-address" not in verdict.rules, verdict


def test_a_fetch_prompt_judges_the_host_too() -> None:
    """The web-fetch prompt's URL (``evaluate_fetch``) is judged by its host the same way."""
    from paw.core.approval import evaluate_fetch

    assert evaluate_fetch("https://example.com/10.0.0.1").action.value == "allow"
    assert evaluate_fetch("https://10.0.0.1/x").action.value == "confirm"
    assert evaluate_fetch("http://169.254.169.254/latest").action.value == "block"
