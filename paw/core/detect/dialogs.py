"""Which live prompts are dialogs only a human can answer, not tool permissions (pure).

Detectors give folder-trust, sign-in, theme and onboarding dialogs the kind ``other`` (the
corpus's own label) and often approve keys (the dialog's default choice). paw must still tell
them from a tool permission of kind ``other`` (leaving plan mode, adding a command's output to
the chat): an agent on such a dialog is ``waiting``, and a generic approve is never sent to it.

The question names what the dialog is about. A false match only makes a prompt answerable in
the pane alone (the safe side); the corpus tests pin both directions for every agent.
"""

from __future__ import annotations

import dataclasses
import re

from paw.core.detect.options import Option
from paw.core.models import Prompt, PromptKind

_DIALOG_RE = re.compile(
    r"\btrust(?:ed)?\b"  # folder trust
    r"|\bapi[ -]?key\b|\bsign[ -]?in\b|\blog[ -]?in\b|\bauthenticat|\baccount\b"
    r"|\bconnect an? (?:provider|account)\b|\bgateway\b"
    r"|\btheme\b|\btext style\b|\bcolou?r scheme\b"
    r"|\banalytics\b|\btelemetry\b|\bwelcome\b|\bonboarding\b"
    r"|^install\b|^no git repo found\b"
    r"|\bfull access\b|\bapproval mode\b|\bdefault permission mode\b|\bauto mode\b",
    re.IGNORECASE,
)


def is_dialog(prompt: Prompt) -> bool:
    """True when ``prompt`` (kind ``other``) is a dialog rather than a tool permission: its
    question names a dialog's subject, or it is a picker (options, none of them a yes, an
    allow or a proceed: an editor, a model, a setting), whatever its words."""
    if prompt.kind is not PromptKind.OTHER:
        return False
    if _DIALOG_RE.search(prompt.question) is not None:
        return True
    return bool(prompt.options) and not any(_is_yes(label) for label in prompt.options)


def _is_yes(label: str) -> bool:
    return Option(label=label, number=None, selected=False, line=0).is_positive


def mark_dialog(prompt: Prompt) -> Prompt:
    """``prompt``, marked as a dialog when it is one (see :func:`is_dialog`)."""
    if prompt.dialog or not is_dialog(prompt):
        return prompt
    return dataclasses.replace(prompt, dialog=True)
