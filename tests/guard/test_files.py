"""File rules beyond the corpus: other secret and agent-config families, tricks, configuration."""

from __future__ import annotations

import time
from typing import NamedTuple

import pytest

from paw.core.config import GuardConfig, PatternSet
from paw.core.guard.files import (
    PathClass,
    classify_path,
    detect_agent_instruction_files,
    detect_sensitive_files,
    normalize_path,
)
from paw.core.guard.presets import presets
from paw.errors import ConfigError

S, INS, ORD = PathClass.SENSITIVE, PathClass.INSTRUCTION, PathClass.ORDINARY


class FileCase(NamedTuple):
    test_id: str
    path: str
    expect: PathClass


FAMILIES = [
    # keystores, key containers, VPN and remote-desktop profiles
    FileCase("jks", "android/app/upload-keystore.jks", S),
    FileCase("keystore", "debug.keystore", S),
    FileCase("keystore-props", "keystore.properties", S),
    FileCase("ppk", "putty.ppk", S),
    FileCase("ovpn", "vpn/office.ovpn", S),
    FileCase("p8", "AuthKey_ABC123.p8", S),
    FileCase("p12", "certs/client.p12", S),
    FileCase("keytab", "krb/app.keytab", S),
    FileCase("key-backup", "server.key.bak", S),
    FileCase("example-pem-stays", "demo.example.pem", S),
    FileCase("mkcert-root-key", "rootCA-key.pem", S),
    FileCase("server-pem", "deploy/server.pem", S),
    FileCase("le-privkey", "live/example.org/privkey.pem", S),
    # home-directory credential files
    FileCase("netrc", ".netrc", S),
    FileCase("pgpass", "home/.pgpass", S),
    FileCase("git-credentials", ".git-credentials", S),
    FileCase("dockercfg", ".dockercfg", S),
    FileCase("docker-config", ".docker/config.json", S),
    FileCase("pypirc", ".pypirc", S),
    FileCase("cargo", ".cargo/credentials.toml", S),
    FileCase("gh-hosts", ".config/gh/hosts.yml", S),
    FileCase("vault-token", ".vault-token", S),
    FileCase("htpasswd", "deploy/.htpasswd", S),
    FileCase("htpasswd-bare", "htpasswd", S),
    # cloud, infrastructure
    FileCase("tfvars", "infra/terraform.tfvars", S),
    FileCase("tfvars-json", "prod.tfvars.json", S),
    FileCase("tfstate", "infra/terraform.tfstate", S),
    FileCase("kubeconfig", "kubeconfig", S),
    FileCase("kubeconfig-yaml", "clusters/kubeconfig-prod.yaml", S),
    FileCase("kube-dir", ".kube/config", S),
    FileCase("gcloud-adc", ".config/gcloud/application_default_credentials.json", S),
    FileCase("firebase-admin", "firebase-adminsdk-ab12c-0123456789.json", S),
    FileCase("client-secret", "client_secret_123.apps.googleusercontent.com.json", S),
    FileCase("azure-functions", "local.settings.json", S),
    FileCase("k8s-secret", "k8s/secret.yaml", S),
    FileCase("creds", "oauth_creds.json", S),
    FileCase("codex-auth", ".codex/auth.json", S),
    FileCase("password-file", "db_password.txt", S),
    FileCase("age-key", "sops/age/keys.txt", S),
    # histories
    FileCase("bash-history", ".bash_history", S),
    FileCase("psql-history", "home/.psql_history", S),
    FileCase("node-history", ".node_repl_history", S),
    # dotenv variants and keys by SSH naming
    FileCase("env-ci", ".env.ci", S),
    FileCase("env-dash", ".env-local", S),
    FileCase("envrc", ".envrc", S),
    FileCase("prod-env", "deploy/prod.env", S),
    FileCase("id-rsa-suffix", "id_rsa_github", S),
    FileCase("deploy-rsa", "keys/deploy_rsa", S),
    FileCase("ssh-private", ".ssh/id_ed25519", S),
    FileCase("secrets-dir-file", "secrets/prod.yaml", S),
    FileCase("collapsed-aws", ".aws/", S),
    FileCase("collapsed-gnupg", ".gnupg/", S),
    FileCase("firebase-service-account", "serviceAccountKey.json", S),
    FileCase("aws-root-key", "rootkey.csv", S),
    FileCase("cookies", "cookies.txt", S),
    FileCase("rclone", ".config/rclone/rclone.conf", S),
    FileCase("env-sh", "scripts/.env.sh", S),
    FileCase("kube-config-dash", "kube-config.yaml", S),
    FileCase("claude-workflow", ".github/workflows/claude.yml", INS),
    FileCase("claude-json", ".claude.json", INS),
    # agent configuration families
    FileCase("nested-claude", "services/web/CLAUDE.md", INS),
    FileCase("claude-local", "CLAUDE.local.md", INS),
    FileCase("agents-override", "AGENTS.override.md", INS),
    FileCase("agent-md", "AGENT.md", INS),
    FileCase("qwen-md", "QWEN.md", INS),
    FileCase("claude-commands", ".claude/commands/review.md", INS),
    FileCase("claude-hooks", ".claude/hooks/pre.sh", INS),
    FileCase("claude-skills", ".claude/skills/x/SKILL.md", INS),
    FileCase("gemini-dir", ".gemini/settings.json", INS),
    FileCase("codex-dir", ".codex/config.toml", INS),
    FileCase("qwen-dir", ".qwen/settings.json", INS),
    FileCase("aider-conf", ".aider.conf.yml", INS),
    FileCase("continue", ".continue/config.yaml", INS),
    FileCase("kiro", ".kiro/steering/product.md", INS),
    FileCase("opencode", "opencode.json", INS),
    FileCase("opencode-dir", ".opencode/agent/review.md", INS),
    FileCase("clinerules-dir", ".clinerules/01-style.md", INS),
    FileCase("chatmode", ".github/chatmodes/plan.chatmode.md", INS),
    FileCase("vscode-mcp", ".vscode/mcp.json", INS),
    FileCase("copilot-setup", ".github/workflows/copilot-setup-steps.yml", INS),
    FileCase("goosehints", ".goosehints", INS),
    FileCase("paw-toml", "paw.toml", INS),
    FileCase("collapsed-cursor", ".cursor/", INS),
    # ordinary look-alikes
    FileCase("pub-key", "id_rsa.pub", ORD),
    FileCase("ssh-pub", ".ssh/id_ed25519.pub", ORD),
    FileCase("known-hosts", ".ssh/known_hosts", ORD),
    FileCase("design-tokens", "design-tokens.json", ORD),
    FileCase("tokens-json", "tokens.json", ORD),
    FileCase("tokenizer", "tokenizer.json", ORD),
    FileCase("crt", "certs/ca.crt", ORD),
    FileCase("env-sample", ".env.sample", ORD),
    FileCase("env-template", ".env.template", ORD),
    FileCase("secrets-example", "config/secrets.example.yml", ORD),
    FileCase("rails-encrypted", "config/credentials.yml.enc", ORD),
    FileCase("tfvars-example", "terraform.tfvars.example", ORD),
    FileCase("source-password", "src/components/PasswordInput.tsx", ORD),
    FileCase("source-token", "src/auth/token_service.ts", ORD),
    FileCase("source-credentials", "pkg/credentials/provider.go", ORD),
    FileCase("doc-secrets", "docs/secrets.md", ORD),
    FileCase("google-services", "android/app/google-services.json", ORD),
    FileCase("env-module", "src/env.ts", ORD),
    FileCase("envoy", ".envoy.yaml", ORD),
    FileCase("agents-source", "src/agents/planner.py", ORD),
    FileCase("cursor-source", "src/cursor.py", ORD),
    FileCase("claude-doc", "docs/claude-integration.md", ORD),
    FileCase("vscode-settings", ".vscode/settings.json", ORD),
    FileCase("dist-dir", "dist/", ORD),
    FileCase("kubeconfig-doc", "docs/kubeconfig.md", ORD),
    FileCase("le-fullchain", "certs/fullchain.pem", S),
    FileCase("ca-bundle", "ssl/ca-bundle.pem", S),
    FileCase("mkcert-root", "rootCA.pem", S),
    FileCase("public-key-pem", "jwt/public_key.pem", S),
    FileCase("id-rsa-test-source", "ssh/id_rsa_test.go", ORD),
    FileCase("env-doc", "docs/.env.md", ORD),
    FileCase("ci-workflow", ".github/workflows/ci.yml", ORD),
    FileCase("detect-secrets-baseline", ".secrets.baseline", ORD),
    FileCase("public-armour", "KEYS.asc", ORD),
]


@pytest.mark.parametrize("case", FAMILIES, ids=lambda c: c.test_id)
def test_classify_path_generalises_to_families(case: FileCase) -> None:
    assert classify_path(case.path) is case.expect


class TrickCase(NamedTuple):
    test_id: str
    path: str
    expect: PathClass


TRICKS = [
    TrickCase("zero-width-joiner", ".env\u200d", S),
    TrickCase("soft-hyphen", ".e\u00adnv", S),
    TrickCase("fullwidth", "\uff0e\uff45\uff4e\uff56", S),
    TrickCase("cyrillic-e", ".\u0435nv", S),
    TrickCase("combining-accent", ".e\u0301nv", S),
    TrickCase("upper", "SECRETS.YAML", S),
    TrickCase("trailing-dot", ".env.", S),
    TrickCase("trailing-space", ".env ", S),
    TrickCase("backslashes", "config\\.env", S),
    TrickCase("dot-slash", "./.env", S),
    TrickCase("absolute", "/home/user/.ssh/id_rsa", S),
    TrickCase("cyrillic-dir", "ключи/id_ed25519", S),
    TrickCase("instruction-fullwidth", "ＡＧＥＮＴＳ.md", INS),
    TrickCase("hangul-filler", ".env\u3164", S),
    TrickCase("bidi-override", ".env\u202e", S),
    TrickCase("variation-selector", ".env\ufe0f", S),
    TrickCase("tag-character", ".env\U000e0041", S),
    TrickCase("cyrillic-i", "\u0456d_rsa", S),
]


@pytest.mark.parametrize("case", TRICKS, ids=lambda c: c.test_id)
def test_classify_path_sees_through_unicode_and_spelling_tricks(case: TrickCase) -> None:
    assert classify_path(case.path) is case.expect


def test_normalize_path_keeps_directory_slash_and_folds() -> None:
    assert normalize_path("./Secrets//") == "secrets/"
    assert normalize_path("a/./b/../C") == "a/b/../c"


def test_detect_sensitive_files_checks_both_rename_sides() -> None:
    status = "R  .env -> .env.example\nR  notes.txt -> config/.env\n M src/app.py\n"
    assert detect_sensitive_files(status) == [".env", "config/.env"]


def test_detect_sensitive_files_deletions_are_optional() -> None:
    status = "D  id_rsa\n?? .env.local\n"
    assert detect_sensitive_files(status) == ["id_rsa", ".env.local"]
    assert detect_sensitive_files(status, include_deletions=False) == [".env.local"]


def test_detect_sensitive_files_skips_ignored_and_reports_collapsed_secret_dirs() -> None:
    status = "!! .env\n?? secrets/\n?? build/\n"
    assert detect_sensitive_files(status) == ["secrets/"]


def test_detect_agent_instruction_files_includes_deletions_and_renames() -> None:
    status = "D  .cursorrules\nR  AGENTS.md -> docs/guide.md\n M src/app.py\n"
    assert detect_agent_instruction_files(status) == [".cursorrules", "AGENTS.md"]


def test_detect_functions_accept_z_output() -> None:
    status = "R  docs/notes.md\0CLAUDE.md\0?? my dir/.env\0"
    assert detect_sensitive_files(status) == ["my dir/.env"]
    assert detect_agent_instruction_files(status) == ["CLAUDE.md"]


def test_config_extend_adds_patterns() -> None:
    config = GuardConfig(sensitive_files=PatternSet(extend=(r"(?:^|/)vault\.txt$",)))
    assert classify_path("ops/vault.txt", config) is S
    assert classify_path(".env", config) is S


def test_config_replace_drops_presets() -> None:
    config = GuardConfig(
        sensitive_files=PatternSet(replace=(r"\.secret$",)),
        agent_instruction_files=PatternSet(replace=()),
    )
    assert classify_path(".env", config) is ORD
    assert classify_path("a.secret", config) is S
    assert classify_path("AGENTS.md", config) is ORD


def test_config_invalid_pattern_is_a_config_error() -> None:
    config = GuardConfig(sensitive_files=PatternSet(extend=("(unclosed",)))
    with pytest.raises(ConfigError, match="unclosed"):
        classify_path("x", config)


def test_presets_namespace_exposes_the_lists() -> None:
    assert len(presets.agent_instruction_file_patterns) >= 12
    assert any("sudo" in p for p in presets.blocked_shell_patterns)
    assert presets.sensitive_file_patterns


def test_classify_path_is_fast_on_the_hot_path() -> None:
    paths = [c.path for c in FAMILIES] * 20
    start = time.perf_counter()
    for path in paths:
        classify_path(path)
    per_call = (time.perf_counter() - start) / len(paths)
    assert per_call < 0.0005, f"{per_call * 1e6:.0f} µs per path"
