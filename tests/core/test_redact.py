"""The redactor of outgoing text: each secret form, judged on the parsed command (pure)."""

from __future__ import annotations

import pytest

from paw.core.redact import MASK, is_secret_name, redact

GH = "ghp_" + "a1B2c3D4e5" * 4  # the shape of a GitHub token, not one
SLACK_HOOK = "https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/aBcDeFgHiJkLmNoPqRsTuVwX"
PEM = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\nAAAAB3Nza\n"
    "-----END OPENSSH PRIVATE KEY-----"
)

# (form, text, what must stay, the secret that must go)
FORMS = [
    (
        "curl -u",
        "curl -u user:Pw0rd1 https://api.x.io/v1",
        "curl -u [REDACTED] https://api",
        "Pw0rd1",
    ),
    ("curl -u quoted", "curl -su 'bob:my pw9' https://x.io", "curl -su [REDACTED] https", "my pw9"),
    ("curl --user=", "curl --user=bob:Pw0rd2 x.io", "--user=[REDACTED] x.io", "Pw0rd2"),
    ("mysql -pPW", "mysql -uroot -pS3cr3tX shop", "mysql -uroot -p[REDACTED] shop", "S3cr3tX"),
    ("mysql --password=", "mysqldump --password=S3cr3tY shop", "--password=[REDACTED]", "S3cr3tY"),
    (
        "docker login -p",
        "docker login -p Tok3nZ registry.io",
        "login -p [REDACTED] registry.io",
        "Tok3nZ",
    ),
    ("podman login --password", "podman login --password Tok3nW r.io", "[REDACTED] r.io", "Tok3nW"),
    ("redis-cli -a", "redis-cli -h db -a Pw0rd3 ping", "-a [REDACTED] ping", "Pw0rd3"),
    ("sshpass -p", "sshpass -p Pw0rd4 ssh deploy@host", "sshpass -p [REDACTED] ssh", "Pw0rd4"),
    ("openssl -k", "openssl enc -aes-256-cbc -k Pw0rd5 -in a", "-k [REDACTED] -in a", "Pw0rd5"),
    (
        "openssl -pass",
        "openssl rsa -passin pass:Pw0rd6 -in k",
        "-passin [REDACTED] -in k",
        "Pw0rd6",
    ),
    (
        "aws configure set",
        "aws configure set aws_secret_access_key wJalrXUtnFEMIK7MDENGbPxRfiCY",
        "set aws_secret_access_key [REDACTED]",
        "wJalrXUtnFEMI",
    ),
    ("token in a git URL", f"git push https://{GH}@github.com/o/r.git", "github.com/o/r.git", GH),
    (
        "token as URL password",
        "git clone https://x-access-token:Tok3nV@github.com/o/r",
        "https://x-access-token:[REDACTED]@github.com",
        "Tok3nV",
    ),
    (
        "URL user-info",
        "psql postgres://app:Pw0rd7@db:5432/x",
        "postgres://app:[REDACTED]@db",
        "Pw0rd7",
    ),
    (
        "export",
        'export DB_PASS="Pw0rd 8" && ./migrate',
        "export DB_PASS=[REDACTED] && ./migrate",
        "Pw0rd 8",
    ),
    (
        "prefix assignment",
        "PGPASSWORD=Pw0rd9 psql -h db",
        "PGPASSWORD=[REDACTED] psql -h db",
        "Pw0rd9",
    ),
    ("env NAME=", "env GITHUB_TOKEN=Tok3nU make", "env GITHUB_TOKEN=[REDACTED] make", "Tok3nU"),
    (
        "query string",
        "curl 'https://maps.example.com/api?q=x&key=K3yQ&sig=S1gQ'",
        "?q=x&key=[REDACTED]&sig=[REDACTED]'",
        "K3yQ",
    ),
    (
        "--token option",
        "deploy --token Tok3nT --env prod",
        "--token [REDACTED] --env prod",
        "Tok3nT",
    ),
    ("JSON password", '{"user": "bob", "password": "Pw0rdJ"}', '"password": [REDACTED]}', "Pw0rdJ"),
    (
        "JSON in a curl body",
        """curl -d '{"api_token":"Tok3nJ","n":1}' https://x.io""",
        '"api_token":[REDACTED]',
        "Tok3nJ",
    ),
    (
        "Slack webhook",
        f"curl -X POST {SLACK_HOOK} -d x",
        "hooks.slack.com/services/[REDACTED]",
        "aBcDeFg",
    ),
    ("Slack token", "SLACK=xoxb-1234567890-abcdefghijkl post", "SLACK=", "xoxb-12345"),
    ("GitHub token", f"echo {GH}", "echo [REDACTED]", GH),
    ("AWS key id", "use AKIAIOSFODNN7ABCDEFG now", "use [REDACTED] now", "AKIAIOSFODNN7ABCDEFG"),
    ("OpenAI key", "run sk-proj-abcdefghijklmnopqrstuvwx now", "run [REDACTED] now", "sk-proj-abc"),
    (
        "JWT",
        "auth eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
        "auth",
        "eyJhbGciOiJIUzI1NiJ9",
    ),
    ("PEM block", f"cat <<EOF\n{PEM}\nEOF", "cat <<EOF\n[REDACTED]\nEOF", "b3BlbnNzaC1rZXk"),
    (
        "authorization header",
        "curl -H 'Authorization: Bearer abcdefghijklmnop' x.io",
        "Authorization: [REDACTED]' x.io",
        "abcdefghijklmnop",
    ),
    (
        "htpasswd -b",
        "htpasswd -bc .htpasswd bob Pw0rdH",
        "htpasswd -bc .htpasswd bob [REDACTED]",
        "Pw0rdH",
    ),
    (
        "under sudo",
        "sudo -u root mysql -pPw0rdS db",
        "sudo -u root mysql -p[REDACTED] db",
        "Pw0rdS",
    ),
    ("in a pipeline", "cat q.sql | mysql -pPw0rdP db", "| mysql -p[REDACTED] db", "Pw0rdP"),
    (
        "in a message line",
        "subject: curl -u bob:Pw0rdM x.io",
        "subject: curl -u [REDACTED] x.io",
        "Pw0rdM",
    ),
    (
        "unparseable text: words",
        "guard: confirm (network)\nsubject: redis-cli -a Pw0rdU 'ping",
        "redis-cli -a [REDACTED] 'ping",
        "Pw0rdU",
    ),
]


@pytest.mark.parametrize(
    ("text", "kept", "gone"), [f[1:] for f in FORMS], ids=[f[0] for f in FORMS]
)
def test_each_secret_form_is_masked_and_the_rest_kept(text: str, kept: str, gone: str) -> None:
    out, changed = redact(text)
    assert changed
    assert gone not in out
    assert kept in out
    assert MASK in out


@pytest.mark.parametrize(
    "text",
    [
        "pytest -q tests/test_auth.py",
        "git push origin main",
        "git push --force-with-lease origin feature/keys",
        "docker run -p 8080:80 nginx",
        "docker login --password-stdin registry.io",
        "mysql -p shop",
        "aws configure set region eu-west-1",
        "git commit --author 'Ann <ann@example.com>' -m 'fix key rotation'",
        "ls -la ~/.ssh",
        "curl https://example.com/search?q=password+reset",
        "psql postgres://app@db:5432/x",
        "git clone git@github.com:o/r.git",
        "rm -rf build",
        "agent: night-a\ntask: a\nprompt: shell\nguard: confirm (remote write)",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) == (text, False)


def test_an_option_inside_a_quoted_argument_is_not_a_command() -> None:
    assert redact("git commit -m 'curl -u is documented'") == (
        "git commit -m 'curl -u is documented'",
        False,
    )


def test_a_line_continuation_or_non_ascii_text_still_masks_the_value() -> None:
    out, changed = redact("curl \\\n  -u bob:Pw0rdC https://x.io")
    assert changed
    assert "Pw0rdC" not in out
    out, changed = redact("café → curl -u bob:Pw0rdN x.io && echo ✓")
    assert changed
    assert out == "café → curl -u [REDACTED] x.io && echo ✓"


def test_secret_names() -> None:
    for name in ("DB_PASS", "PASSWORD", "apiKey", "api_key", "X-Amz-Signature", "sig", "AUTH"):
        assert is_secret_name(name), name
    for name in ("PATH", "author", "HOME", "user", "q"):
        assert not is_secret_name(name), name


def test_redacting_twice_changes_nothing_more() -> None:
    once, _ = redact("curl -u bob:Pw0rd1 'https://x.io/?token=Tok3n' && mysql -pPw0rd2")
    assert redact(once) == (once, False)
