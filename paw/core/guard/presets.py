"""Preset pattern lists for the guard, as Python regular-expression strings.

Path patterns (``SENSITIVE_FILE_PATTERNS``, ``AGENT_INSTRUCTION_FILE_PATTERNS``) are searched
(``re.search``, case-insensitive) in the *matching form* of a path built by
:func:`paw.core.guard.files.normalize_path`:

- NFKC-folded, zero-width and other format characters removed, accents and common Cyrillic/Greek
  look-alikes folded to ASCII, lower-cased;
- ``/`` separators (``\\`` is read as ``/``), no ``./`` prefix, no empty or ``.`` components,
  surrounding blanks and trailing dots removed from each component;
- a directory (a collapsed untracked ``?? dir/`` entry) keeps one trailing ``/``.

Write ``(?:^|/)`` for "a path component starts here" and ``$`` for "the path ends here", e.g.
``(?:^|/)\\.npmrc$`` for a file named ``.npmrc`` in any directory, or ``(?:^|/)\\.claude(?:/|$)``
for anything under a ``.claude`` directory. Template names (``.example``, ``.sample``,
``.template``, ``.dist``, …) are exempted from the sensitive list by the matcher, not by the
patterns (see :mod:`paw.core.guard.files`).

``BLOCKED_SHELL_PATTERNS`` is git-guardrails' design blocklist, for the naive baseline and for
users who want a raw-text pattern list; paw's own shell guard parses commands instead.
"""

from __future__ import annotations

from types import SimpleNamespace

# ── shell (raw-text regexes, git-guardrails' design list) ──────────────────────────────────────

BLOCKED_SHELL_PATTERNS: tuple[str, ...] = (
    r"\bsudo\b",
    r"\bdoas\b",
    r"\bpkexec\b",
    r"\bsu\s+-?\s*(?:root\b|$)",
    r"\brm\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*\s+|-[a-zA-Z]*[fF][a-zA-Z]*\s+|--\w+\s+)*(?:/|~|\$HOME)(?:\s|$|/\*)",
    r"\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*[fF]|\brm\s+-[a-zA-Z]*[fF][a-zA-Z]*[rR]",
    r"\b(?:curl|wget)\b[^|;&]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b",
    r"\b(?:bash|sh|zsh)\s+<\(\s*(?:curl|wget)\b",
    r"\bchmod\s+(?:-[a-zA-Z]+\s+)*0?777\b",
    r"\bchmod\s+(?:-[a-zA-Z]+\s+)*a\+rwx\b",
    r"\bchown\s+(?:-[a-zA-Z]+\s+)*\S+\s+/(?:\s|$)",
    r"\bmkfs(?:\.\w+)?\b",
    r"\bdd\s+[^|;&]*\bof=/dev/(?:sd|hd|nvme|vd|xvd|disk|mmcblk)",
    r">\s*/dev/(?:sd|hd|nvme|vd|xvd|disk|mmcblk)\w*",
    r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:",
    r"\b(?:shutdown|reboot|halt|poweroff)\b",
    r"\binit\s+[06]\b",
    r"\bkillall\b",
    r"\bkill\s+-9\s+-1\b",
    r"\bgit\s+push\s+[^;&|]*(?:--force\b|-f\b)",
    r"\bgit\s+reset\s+--hard\b",
    r"\bgit\s+clean\s+-[a-zA-Z]*f",
    r">\s*/etc/",
    r"\beval\s+\"?\$\(\s*(?:curl|wget)\b",
    r"\bbase64\s+(?:-d|--decode)\b[^|;&]*\|\s*(?:ba|z)?sh\b",
    r"\bnc\s+[^|;&]*-e\s",
    r"\bhistory\s+-c\b",
    r"\bcrontab\s+-r\b",
)
"""Raw-text shell patterns (git-guardrails' blocklist design: sudo, rm -rf /, curl | bash,
chmod 777, mkfs, dd to a disk, fork bomb, force push, …). Case-sensitive ``re.search``."""

# ── building blocks for path patterns ──────────────────────────────────────────────────────────

_START = r"(?:^|/)"
_BACKUP = r"(?:\.(?:bak|backup|old|orig|save|sav|tmp|copy|swp|\d+)|~)?"
_DATA_EXT = (
    r"(?:json[c5]?|ya?ml|toml|ini|cfg|conf|config|cnf|txt|text|xml|properties|props|env|"
    r"pickle|pkl|dat|db|sqlite3?|csv|plist|tfvars|hcl|asc|der|bak|backup|old|orig|save)"
)
# Keyword stems of credential stores. Whole tokens only (split on . _ -), so ``secretstore``,
# ``tokens.css`` and ``token_utils.rs`` stay ordinary: the keyword rules also require a data
# extension (or none), so source and docs named after secrets (``secret_scanner.py``) pass.
_KEYWORDS = (
    r"(?:secrets?|credentials?|creds|passwords?|passwd|token|apikeys?|"
    r"(?:api|access|secret|private|signing|deploy|master|encryption|auth)[_-]?keys?|"
    r"(?:access|auth|refresh|bearer|oauth|session|vault|github|gitlab|npm|pypi)[_-]?tokens?|"
    r"keystore|keyfile|key|privkey|rootkey|client[_-]?secrets?|service[_-]?accounts?"
    r"(?:[_-]?(?:keys?|creds|credentials))?|vault[_-]?pass(?:word)?|pgpass|cookies?)"
)
_SEP = r"[._-]"
_NOT_CODE = (
    r"(?!(?:md|markdown|rst|adoc|html?|py|go|rs|tsx?|jsx?|java|kt|rb|php|cs|c|h|cpp|swift|"
    r"scala|exs?|tf)$)"
)
"""A lookahead refusing a final source or documentation extension."""
_NO_CODE_END = r"(?![^/]*\." + _NOT_CODE.removeprefix("(?!")
"""At a component start: the file name does not end in a source or documentation extension."""

_KEY_CONTAINER_EXT = (
    r"(?:key|p12|pfx|pkcs12|p8|jks|keystore|bks|jceks|uber|kdbx?|ppk|ovpn|keytab|psafe3|"
    r"agilekeychain|keychain|keychain-db|gpgkey|secret|secrets|token|tfstate|tfvars|tfplan|"
    r"rdp|pgpass|private)"
)
"""Extensions that name a key, keystore, credential container or secret-bearing state."""


TEMPLATE_MARKERS: tuple[str, ...] = (
    "example",
    "examples",
    "sample",
    "samples",
    "template",
    "templates",
    "tpl",
    "tmpl",
    "dist",
    "skel",
    "enc",
    "encrypted",
)
"""File-name tokens (split on ``. _ -``) that mark a template or an encrypted copy meant to be
committed (``.env.example``, ``secrets.sample.yaml``, ``credentials.yml.enc``). Such names are
exempt from the sensitive list, except when ``TEMPLATE_NOT_EXEMPT`` matches."""

TEMPLATE_NOT_EXEMPT: str = (
    r"\.(?:pem|key|p12|pfx|pkcs12|p8|jks|keystore|bks|jceks|kdbx?|ppk|keytab|psafe3|ovpn)"
    + _BACKUP
    + r"$"
)
"""Key and keystore extensions that stay sensitive whatever the name (``demo.example.pem``)."""

SENSITIVE_FILE_PATTERNS: tuple[str, ...] = (
    # dotenv family: .env, .env.local, .env.production.local, .env.keys, .env.bak, docker.env
    _START + _NO_CODE_END + r"\.env(?:" + _SEP + r"[^/]*)?~?$",
    _START + r"[^/]+\.env" + _BACKUP + r"$",
    _START + _NO_CODE_END + r"\.envrc(?:" + _SEP + r"[^/]*)?$",
    _START + r"\.flaskenv\.local$",
    # private keys, keystores, certificate bundles, password databases, VPN profiles (by extension)
    r"\." + _KEY_CONTAINER_EXT + _BACKUP + r"$",
    # PEM, whatever the name: certificate chains travel with their keys (fullchain.pem next to
    # privkey.pem) and a "public" name proves nothing about the content
    r"\.pem" + _BACKUP + r"$",
    # secrets modules and settings files (secrets.py, app_secrets.rb, credentials.ts)
    _START + r"(?:[^/]*[._-])?(?:secrets?|credentials?|passwords?|creds)\.(?:py|pyw|rb|js|mjs|cjs|"
    r"ts|go|php|exs?|java|kt|rs|cs|swift|sh|bash|zsh|ps1|lua|pl|clj|dart|scala)$",
    r"\.tfstate(?:\.[^/]*)?$",
    r"\.tfvars(?:\.json)?" + _BACKUP + r"$",
    # SSH private keys and directories of keys
    _START
    + _NO_CODE_END
    + r"(?![^/]*\.pub$)id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:"
    + _SEP
    + r"[^/]*)?$",
    _START + r"(?![^/]*\.pub$)[^/.]+[_-](?:rsa|dsa|ecdsa|ed25519)" + _BACKUP + r"$",
    _START + r"identity$",
    _START + r"ssh_host_[^/]*_key" + _BACKUP + r"$",
    _START + r"\.ssh/(?!(?:[^/]*/)*(?:[^/]*\.pub|authorized_keys2?|known_hosts(?:\.old)?|config)$)",
    _START + r"\.gnupg(?:/|$)",
    _START + r"secring\.[^/]*$",
    _START + r"\.password-store(?:/|$)",
    # cloud and tool credentials in well-known places
    _START + r"\.aws(?:/|$)",
    _START + r"\.azure/",
    _START + r"\.config/gcloud/",
    _START + r"(?:application_default_credentials|adc)\.json$",
    _START + r"(?:access_tokens|credentials)\.db$",
    _START + r"\.kube(?:/|$)",
    _START + r"(?:[^/]*[._-])?kube[._-]?config(?:[_-][^/.]*)?(?:\." + _NOT_CODE + r"[^/]*)?$",
    _START + r"rclone\.conf$",
    _START + r"\.vscode/sftp\.json$",
    _START + r"\.docker/config\.json$",
    _START + r"\.dockercfg$",
    _START + r"\.(?:netrc|_netrc|pgpass|my\.cnf|mylogin\.cnf|git-credentials|gitcookies|npmrc|"
    r"pypirc|boto|s3cfg|passwd-s3fs|vault-token|htpasswd|tugboat|esmtprc|ftpconfig|"
    r"terraformrc|cargo/credentials(?:\.toml)?|gem/credentials|m2/settings(?:-security)?\.xml)"
    + _BACKUP
    + r"$",
    _START + r"_netrc$",
    _START + r"htpasswd$",
    _START + r"settings-security\.xml$",
    _START + r"(?:etc/)?g?shadow-?" + _BACKUP + r"$",
    _START + r"connectionstrings\.config$",
    _START + r"(?:gh|hub)/hosts\.ya?ml$",
    _START + r"\.config/hub$",
    _START + r"credentials\.tfrc\.json$",
    _START + r"auth\.json" + _BACKUP + r"$",
    _START + r"token\.pickle$",
    _START + r"[^/]*firebase-adminsdk[^/]*\.json$",
    _START + r"client_secret[^/]*\.json$",
    _START + r"wp-config\.php" + _BACKUP + r"$",
    _START + r"local\.settings\.json$",
    _START + r"(?:sftp-config|\.ftpconfig|recentservers|sitemanager|filezilla)\.(?:json|xml)$",
    _START + r"age/keys\.txt$",
    _START + r"wallet\.dat$",
    # shell and REPL histories
    _START + r"\.[^/]*_history$",
    _START + r"\.(?:history|zhistory|histfile|lesshst|viminfo)$",
    _START + r"fish_history$",
    # credential stores named by keyword with a data extension or none
    _START
    + r"(?:[^/]*"
    + _SEP
    + r")?"
    + _KEYWORDS
    + r"(?:"
    + _SEP
    + r"[^/]*)?\."
    + _DATA_EXT
    + _BACKUP
    + r"$",
    _START + r"\.?(?:[^/.]*[_-])?" + _KEYWORDS + r"(?:[_-][^/.]*)?$",
    # directories that hold secrets: the collapsed dir itself, or data files under it
    _START + r"\.?(?:secrets?|credentials|creds|private|private[_-]keys|keys|certs|ssl)/$",
    _START + r"\.?(?:secrets?|credentials|creds)/(?:[^/]*/)*(?:[^/.]+|[^/]*\." + _DATA_EXT + r")$",
)
"""Path patterns whose match aborts a commit (families: dotenv, key and keystore extensions, SSH
keys, cloud/tool credential files, terraform state and vars, histories, keyword-named credential
stores, secret directories)."""

_DIRS = (
    r"claude|claude-plugin|cursor|gemini|codex|qwen|opencode|windsurf|codeium|roo|kilocode|"
    r"clinerules|continue|amazonq|kiro|junie|augment|trae|idx|openhands|factory|goose|crush|"
    r"agent|agents|aider|cody|tabnine|specify|zencoder|amp|sourcegraph|github/instructions|"
    r"github/prompts|github/chatmodes|github/agents|github/copilot|gitlab/duo|devin|jules|"
    r"cline|lingma|qoder|warp|mcp|firebender"
)

AGENT_INSTRUCTION_FILE_PATTERNS: tuple[str, ...] = (
    # git-guardrails' twelve
    _START + r"claude\.md$",
    _START + r"agents\.md$",
    _START + r"gemini\.md$",
    _START + r"\.cursorrules$",
    _START + r"\.cursor/rules/",
    _START + r"\.windsurfrules$",
    _START + r"\.clinerules(?:/|$)",
    _START + r"\.github/copilot-instructions\.md$",
    _START + r"mcp\.json$",
    _START + r"\.mcp\.json$",
    _START + r"\.claude/settings\.json$",
    _START + r"\.claude/settings\.local\.json$",
    # context files of other agents, at any depth, with local/override variants
    _START
    + r"(?:agents?|claude|gemini|qwen|crush|warp|opencode|copilot-instructions|codex|junie|kiro|"
    r"goose|amp|cline|windsurf|cursor)(?:\.[a-z0-9_-]+)?\.md$",
    _START + r"[^/]+\.(?:instructions|prompt|chatmode|agent)\.md$",
    # whole agent configuration directories (settings, commands, agents, hooks, skills, rules, mcp)
    _START + r"\.(?:" + _DIRS + r")(?:/|$)",
    # single-file agent configs and ignore lists that change what an agent sees
    _START + r"\.(?:roorules|roomodes|kilocodemodes|goosehints|rules|aiderignore|cursorignore|"
    r"cursorindexingignore|geminiignore|codeiumignore|clineignore|rooignore|augment-guidelines|"
    r"openhands_instructions|aider\.conf\.ya?ml|aider\.model\.(?:settings\.ya?ml|metadata\.json)|"
    r"crush\.json)$",
    _START + r"\.?mcp(?:[._-][^/]*)?\.jsonc?$",
    _START + r"(?:opencode|crush)\.jsonc?$",
    _START + r"claude_desktop_config\.json$",
    _START + r"\.(?:claude|continuerc)\.json$",
    _START + r"\.github/workflows/(?:claude|gemini|codex|copilot|opencode|qwen|cursor|aider|amp|"
    r"jules|devin)[^/]*\.ya?ml$",
    _START + r"\.vscode/mcp\.json$",
    _START + r"\.github/workflows/copilot-setup-steps\.ya?ml$",
    _START + r"\.idx/airules\.md$",
    # paw's own policy: a change here can switch the guard off
    _START + r"\.?paw\.toml$",
    _START + r"\.paw(?:/|$)",
)
"""Path patterns of files that steer an agent (instructions, rules, settings, permissions, hooks,
MCP servers, commands) or paw itself. A change is flagged for the human, never aborted."""

ANIMA_PRODUCTION_ALLOWED_DIRS: tuple[str, ...] = ("/home/user/repos", "/tmp")  # noqa: S108 - reference data
"""git-guardrails' reference ``allowedDirs`` (``presets.animaProductionAllowedDirs``): example
paths to replace with your own (``GuardConfig(allowed_dirs=...)``), kept for parity."""

presets = SimpleNamespace(
    blocked_shell_patterns=BLOCKED_SHELL_PATTERNS,
    anima_production_allowed_dirs=ANIMA_PRODUCTION_ALLOWED_DIRS,
    sensitive_file_patterns=SENSITIVE_FILE_PATTERNS,
    agent_instruction_file_patterns=AGENT_INSTRUCTION_FILE_PATTERNS,
)
"""git-guardrails-style namespace: ``presets.sensitive_file_patterns`` etc."""
