"""Per-program options that carry a secret (``curl -u``, ``mysql -pPW``, ``docker login -p`` …)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Mapping


Mode = Literal["both", "separate", "attached"]
"""How an option takes its secret: ``-pX``/``--opt=X`` (attached), ``-p X`` (separate), either."""


@dataclass(frozen=True, slots=True)
class ProgramRule:
    """Options of one program (after ``sub``, its sub-command words) that carry a secret.

    ``settings``: the program sets a named value (``aws configure set NAME VALUE``): VALUE is
    masked when NAME looks like a secret. ``operand``: the operand at that index is the secret
    (``vault login TOKEN``), only when the short option ``when`` is given if it is set
    (``htpasswd -b FILE USER PASSWORD``)."""

    sub: tuple[str, ...] = ()
    options: Mapping[str, Mode] | None = None
    settings: bool = False
    operand: int | None = None
    when: str | None = None


def _same(options: Mapping[str, Mode], *names: str) -> dict[str, tuple[ProgramRule, ...]]:
    return dict.fromkeys(names, (ProgramRule(options=options),))


_MYSQL: Mapping[str, Mode] = {"-p": "attached", "--password": "attached"}
_LOGIN: Mapping[str, Mode] = {"-p": "both", "--password": "both"}
_MONGO: Mapping[str, Mode] = {"-p": "both", "--password": "both"}
_LDAP: Mapping[str, Mode] = {"-w": "both"}

PROGRAM_RULES: Mapping[str, tuple[ProgramRule, ...]] = {
    "curl": (
        ProgramRule(
            options={
                "-u": "both",
                "--user": "both",
                "-U": "both",
                "--proxy-user": "both",
                "--oauth2-bearer": "both",
                "--pass": "both",
                "--proxy-pass": "both",
                "--tlspassword": "both",
                "--proxy-tlspassword": "both",
            }
        ),
    ),
    "wget": (
        ProgramRule(
            options={
                "--password": "both",
                "--http-password": "both",
                "--ftp-password": "both",
                "--proxy-password": "both",
            }
        ),
    ),
    **_same(
        _MYSQL,
        "mysql",
        "mysqldump",
        "mysqladmin",
        "mysqlimport",
        "mysqlcheck",
        "mysqlshow",
        "mysqlsh",
        "mariadb",
        "mariadb-dump",
        "mariadb-admin",
    ),
    **dict.fromkeys(
        ("docker", "podman", "nerdctl", "buildah", "skopeo", "finch", "oras", "crane"),
        (ProgramRule(sub=("login",), options=_LOGIN),),
    ),
    "helm": (
        ProgramRule(sub=("registry", "login"), options=_LOGIN),
        ProgramRule(sub=("repo", "add"), options={"--password": "both"}),
    ),
    "az": (ProgramRule(sub=("login",), options=_LOGIN),),
    "redis-cli": (ProgramRule(options={"-a": "both", "--pass": "both"}),),
    "sshpass": (ProgramRule(options={"-p": "both"}),),
    "openssl": (
        ProgramRule(
            options={
                "-k": "separate",
                "-K": "separate",
                "-pass": "separate",
                "-passin": "separate",
                "-passout": "separate",
            }
        ),
    ),
    **_same(_LDAP, "ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd"),
    **_same({"-P": "both"}, "sqlcmd", "bcp", "unzip"),
    **_same(_MONGO, "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport"),
    "smbclient": (ProgramRule(options={"-U": "both", "--user": "both"}),),
    "zip": (ProgramRule(options={"-P": "both", "--password": "both"}),),
    "7z": (ProgramRule(options={"-p": "attached"}),),
    "gpg": (ProgramRule(options={"--passphrase": "both"}),),
    "gh": (ProgramRule(sub=("secret", "set"), options={"-b": "both", "--body": "both"}),),
    "aws": (ProgramRule(sub=("configure", "set"), settings=True),),
    **dict.fromkeys(("npm", "pnpm", "yarn"), (ProgramRule(sub=("config", "set"), settings=True),)),
    "git": (ProgramRule(sub=("config",), settings=True),),
    "vault": (ProgramRule(sub=("login",), operand=0),),
    "htpasswd": (ProgramRule(operand=-1, when="b"),),
}
"""Programs whose options take a secret, by command name (basename)."""
