"""Credential files: what the secret rules, the network rules, git staging and inline code all
call a secret path (one module below them all)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from paw.core.guard.files import PathClass
from paw.core.guard.shell.rules.files import classify_cached
from paw.core.guard.shell.rules.targets import in_cwd
from paw.core.guard.shell.words import has_unknown

if TYPE_CHECKING:
    from paw.core.guard.shell.evaluation import Context

_SECRET_RE = re.compile(
    r"(^|/)(\.ssh|\.gnupg|\.aws|\.aws/credentials|\.aws/config|\.ssh/id_[^/]*|\.ssh/.*key|\.netrc|\.npmrc|\.pypirc"
    r"|\.git-credentials|\.docker/config\.json|\.kube/config|\.config/gh/hosts\.yml|\.gnupg/.*"
    r"|\.env(\.[\w.-]+)?|shadow|gshadow|\.pgpass|credentials\.json|\.vault-token|\.boto"
    r"|\.azure/.*|\.config/gcloud/.*|id_rsa|id_ed25519|id_ecdsa|.*\.pem|.*\.key|.*\.p12|.*\.pfx"
    r"|\.\w*_history|\.lesshst|\.local/share/fish/fish_history|\.viminfo|environ"
    r"|\.password-store/.*|\.config/op/.*|\.terraform\.d/credentials\.tfrc\.json"
    r"|\.config/hub|\.config/glab-cli/.*|\.cargo/credentials(\.toml)?|\.gem/credentials"
    r"|\.m2/settings\.xml|\.config/rclone/rclone\.conf|\.s3cfg|\.config/doctl/config\.yaml"
    r"|Library/Keychains/.*|\.local/share/keyrings/.*|\.mozilla/.*/(logins\.json|key4\.db)"
    r"|\.config/(google-chrome|chromium)/.*/Login Data)$"
)
_TEMPLATE_RE = re.compile(r"\.(example|sample|template|dist|pub)$")
_HOME_RE = re.compile(r"^(~|/root|/home/[^/]+|/Users/[^/]+)(/|$)|^/proc/[^/]+/environ$|^/etc/")


def is_secret_path(path: str, ctx: Context) -> bool:
    """True for credential files (``~/.aws/credentials``, ``.env``, ``id_rsa`` …)."""
    path = path.rstrip("/")
    if not path or has_unknown(path) or _TEMPLATE_RE.search(path) or path.endswith(".env.vault"):
        return False
    if _SECRET_RE.search(path):
        return True
    return classify_cached(path, ctx.config) is PathClass.SENSITIVE


def home_secret(path: str, ctx: Context) -> bool:
    """A credential file outside the project (``~/.aws/credentials``, ``/proc/1/environ``)."""
    full = in_cwd(path, ctx)
    return _HOME_RE.search(full) is not None and is_secret_path(full, ctx)
