"""The page's HTML: server-rendered, readable without JavaScript, no outside resource.

Every text paw did not write (agent names, kinds, subjects, questions, reasons, tasks, hosts,
paths, a decision's reason) goes through :func:`inert`: control, bidi and zero-width characters
shown as escapes (:func:`paw.core.printable.printable`), then HTML-escaped, so a subject
carrying ``<script>``, markup or an OSC sequence is shown as text and never acts.
"""

from __future__ import annotations

import functools
import html
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from paw.core.channels.fuse import Fusion, source_label, source_text
from paw.core.models import Action
from paw.core.printable import printable
from paw.web import parts as page_parts

if TYPE_CHECKING:
    from paw.core.models import PromptSource
    from paw.core.wave_view import WaveTask
    from paw.supervisor.model import AgentView, Decision, LivePrompt
    from paw.web.source import AgentDetails, Board


def inert(text: object) -> str:
    """``text`` (not written by paw) made safe to place in HTML, as text or in an attribute."""
    return html.escape(printable(str(text)), quote=True)


def tilde(text: str, home: str | None) -> str:
    """``text`` (paw's own words: a reason, a note, an error) with the user's home directory
    written ``~``: a phone or a shared screen need not show the machine's directories, and
    ``~/…`` says as much to the user. Subjects and pane text are never changed (shown as drawn)."""
    if not home or home == "/" or home not in text:
        return text
    return re.sub(
        r"(?<![\w./~-])" + re.escape(home.rstrip("/")) + r"(?=/|$|[\s'\"`),:;]|\.(?:\s|$))",
        "~",
        text,
    )


def page(title: str, body: str, *, script: bool = False) -> str:
    """A whole HTML document (its style and script are paw's own files)."""
    js = '<script src="/static/app.js" defer></script>' if script else ""
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<meta name=referrer content=same-origin><title>{html.escape(title)}</title>"
        f'<link rel=stylesheet href="/static/app.css">{js}</head><body>{body}</body></html>'
    )


def render_home(board: Board, csrf: str, name: str, extra: Extra | None = None) -> str:
    """The main page: agents and prompts (and the script that refreshes them). ``name`` is
    the repository's directory name (the title and the heading; never its full path)."""
    return home_page(board_parts(board, csrf, extra), name)


def home_page(parts: tuple[tuple[str, str], ...], name: str) -> str:
    """The main page of the board's ``parts``; it names the parts as it holds them
    (``data-have``: :func:`paw.web.parts.versions`), so its first poll brings only what
    changed since."""
    inner = "".join(page_parts.wrap(n, h) for n, h in parts)
    have = page_parts.versions({n: page_parts.steady(h) for n, h in parts})
    body = f"<h1>paw · {inert(name)}</h1><div id=board data-have='{have}'>{inner}</div>"
    return page(f"paw · {printable(name)}", body, script=True)


@dataclass(frozen=True, slots=True)
class Extra:
    """What the list shows beside agents and prompts: the selected agent, the audit tail."""

    selected: str | None = None
    details: AgentDetails | None = None
    audit: tuple[dict[str, object], ...] = ()
    now: float | None = None  # the ages' clock (None: the picture's time)
    home: str | None = None  # the user's home directory, shown as ``~`` in paw's own words


def render_board(board: Board, csrf: str, extra: Extra | None = None) -> str:
    """The part of the page the script refreshes (a stream's first event carries it whole)."""
    return "".join(page_parts.wrap(name, html) for name, html in board_parts(board, csrf, extra))


def board_parts(board: Board, csrf: str, extra: Extra | None = None) -> tuple[tuple[str, str], ...]:
    """Each part of the board (:data:`paw.web.parts.PARTS`) and its HTML (empty when it has
    nothing)."""
    extra = extra or Extra()
    snap = board.snapshot
    notes: list[str] = []
    if not snap.tmux_ok:
        error = tilde(snap.error or "tmux cannot be reached", extra.home)
        notes.append(f"<p class=note>{inert(error)}; "
                     "the agents' state is unknown</p>")  # fmt: skip
    for host, why in board.unreachable.items():
        why = tilde(why, extra.home)
        notes.append(f"<p class=note>host {inert(host)} unreachable ({inert(why)})</p>")
    tasks = {a.name: a.task for a in snap.agents}
    now = extra.now if extra.now is not None else snap.taken_at  # (a picture may be old)
    prompts = [f"<h2 data-now={int(now)}>Prompts ({len(snap.prompts)})</h2>"]
    if not snap.prompts:
        prompts.append("<p>No live prompt.</p>")
    prompts += [
        _prompt_card(p, now, tasks.get(p.agent), csrf, home=extra.home,
                     wave=board.waves.get(p.agent))
        for p in snap.prompts
    ]  # fmt: skip
    agents = f"<h2>Agents ({len(snap.agents)})</h2>" + (
        _agents_table(snap.agents, extra.home) if snap.agents else "<p>No agent.</p>"
    )
    details = _details(extra.selected, extra.details) if extra.selected is not None else ""
    return (
        ("notes", "".join(notes)),
        ("prompts", "".join(prompts)),
        ("agents", agents),
        ("details", details),
        ("audit", _audit(extra.audit, extra.home)),
    )


def _details(agent: str, details: AgentDetails | None) -> str:
    head = f"<h2 id=details>{inert(agent)}</h2>"
    if details is None:
        return head + "<p class=note>no such agent now (removed, or its host unreachable)</p>"
    rows = [
        f"<tr><td>{inert(f.path)}</td><td>"
        + ("binary" if f.binary else f"+{f.added} -{f.removed}")
        + "</td></tr>"
        for f in details.files
    ]
    stat = (
        f"<div class=wrap><table class=diffstat>{''.join(rows)}</table></div>"
        if rows
        else "<p>No change against its base.</p>"
    )
    return (
        f"{head}<p class=meta>its pane now (text the agent drew: shown inert)</p>"
        f"<pre class=pane>{inert(details.pane)}</pre><h3>Diff stat</h3>{stat}"
    )


AUDIT_FIELDS = ("agent", "prompt_id", "action", "decision", "outcome", "reason", "client")


def _audit(records: tuple[dict[str, object], ...], home: str | None = None) -> str:
    if not records:
        return ""
    rows = []
    for r in reversed(records):
        at = r.get("ts") or r.get("time")
        when = time.strftime("%H:%M:%S", time.localtime(at)) if isinstance(at, (int, float)) else ""
        fields = " ".join(f"{k}={r[k]}" for k in AUDIT_FIELDS if r.get(k) not in (None, ""))
        rows.append(
            f"<tr><td>{when}</td><td>{inert(r.get('event', '?'))}</td>"
            f"<td>{inert(tilde(fields, home))}</td></tr>"
        )
    table = f"<div class=wrap><table class=audit>{''.join(rows)}</table></div>"
    return f"<h2>Audit (last {len(records)})</h2>{table}"


def _agents_table(agents: tuple[AgentView, ...], home: str | None = None) -> str:
    head = (
        "<div class=wrap><table><tr><th>Agent</th><th>Kind</th><th>Status</th>"
        "<th>Branch</th><th title='uncommitted / untracked / ahead / behind'>Counts</th></tr>"
    )
    rows = [head]
    rows += [_agent_row(i, a, home) for i, a in enumerate(agents)]
    rows.append("</table></div>")
    return "".join(rows)


@functools.lru_cache(maxsize=4096)
def _agent_row(i: int, a: AgentView, home: str | None) -> str:
    """Row ``i`` of the agents' table (kept: a sweep redraws few agents, and every open page
    renders the table again on every picture)."""
    s = a.stat
    counts = f"{s.uncommitted} / {s.untracked} / +{s.ahead} / -{s.behind}" if s.counted else "?"
    host = f" <span class=meta>on {inert(a.host)}</span>" if a.host else ""
    note = f"<div class=meta>{inert(tilde(a.note, home))}</div>" if a.note else ""
    link = f"/?agent={quote(a.name, safe='')}#details"
    return (
        f"<tr id=ag-{i}><td><a href='{inert(link)}'>{inert(a.name)}</a>{host}</td>"
        f"<td>{inert(a.kind)}</td>"
        f"<td>{inert(a.status.value)}{note}</td><td>{inert(a.branch or '-')}</td>"
        f"<td>{counts}</td></tr>"
    )


def _age(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s}s" if s < 120 else f"{s // 60}m" if s < 7200 else f"{s // 3600}h"


def _prompt_card(
    p: LivePrompt, now: float, task: str | None, csrf: str, target: str = "/decide",
    *, home: str | None = None, wave: WaveTask | None = None,
) -> str:  # fmt: skip
    action = p.verdict.action
    subject = p.prompt.subject if p.prompt.subject is not None else p.prompt.question
    reasons = "".join(f"<li>{inert(tilde(r, home))}</li>" for r in p.verdict.reasons)
    task_line = _wave_line(wave) + (f"<div class=meta>task: {inert(task)}</div>" if task else "")
    head = (
        f"<div class=card id='p-{inert(p.id)}'><div><span class='v v-{action.value}'>"
        f"{action.value}</span> <b>{inert(p.prompt.kind.value)}</b>{_source_tag(p.source)}"
        f" · {inert(p.agent)} "
        f"<span class=meta>({inert(p.kind)}) · <span class=age data-seen={int(p.first_seen)}>"
        f"{_age(now - p.first_seen)}</span> · id {inert(p.id)}"
        f"</span></div>{task_line}<div class=meta>{inert(p.prompt.question)}</div>"
        f"<pre class=subject>{inert(subject)}</pre>{_source_said(p.source)}"
        + (f"<ul class=reasons>{reasons}</ul>" if reasons else "")
    )
    return head + _actions(p, csrf, target) + "</div>"


def _wave_line(wave: WaveTask | None) -> str:
    """The wave and task of the prompt's agent, when it runs one (``paw wave run``)."""
    if wave is None:
        return ""
    return (
        f"<div class='meta wave'>wave <b>{inert(wave.wave)}</b> · "
        f"task <b>{inert(wave.task)}</b></div>"
    )


def _source_tag(source: PromptSource) -> str:
    """Where the prompt came from, compactly, as `paw prompts` names it (``both``,
    ``channel``, ``screen-only``, ``DISAGREE``); nothing for an agent without a channel."""
    if source.name == "screen":
        return ""
    css = "src src-disagree" if source.name == Fusion.DISAGREE.value else "src"
    return f" <span class='{css}' title='source'>{inert(source_label(source))}</span>"


def _source_said(source: PromptSource) -> str:
    """The source in words (`paw prompts`' line); a disagreement names both subjects, each
    shown whole and inert (both are text paw did not write)."""
    said = source_text(source)
    if not said:
        return ""
    if source.name != Fusion.DISAGREE.value:
        return f"<div class='meta source'>{inert(said)}</div>"
    why = f" ({source.reason})" if source.reason else ""
    rid = f" (request {source.request_id})" if source.request_id else ""
    return (
        f"<div class='source disagree'><b>The agent's channel and its screen disagree{inert(rid)}"
        f"{inert(why)}:</b><div class=meta>the channel asks</div>"
        f"<pre class=channel-subject>{inert(source.channel_subject or '')}</pre>"
        f"<div class=meta>the screen shows</div>"
        f"<pre class=screen-subject>{inert(source.screen_subject or '')}</pre></div>"
    )


def _form(csrf: str, prompt_id: str, action: str, label: str, css: str = "", *,
          confirmed: bool = False, target: str = "/decide") -> str:  # fmt: skip
    extra = "<input type=hidden name=confirmed value=1>" if confirmed else ""
    klass = f" class={css}" if css else ""
    return (
        f"<form method=post action='{inert(target)}'>"
        f"<input type=hidden name=csrf value='{inert(csrf)}'>"
        f"<input type=hidden name=prompt value='{inert(prompt_id)}'>"
        f"<input type=hidden name=action value={action}>{extra}"
        f"<button{klass} name=go value={action}>{label}</button></form>"
    )


def _actions(p: LivePrompt, csrf: str, target: str) -> str:
    if p.only_in_the_pane:
        return (f"<p class=note>A dialog only a human can answer: answer it in the pane "
                f"(<code>paw attach {inert(p.agent)}</code>).</p>")  # fmt: skip
    deny = _form(csrf, p.id, "deny", "Deny", target=target)
    action = p.verdict.action
    if action is Action.ALLOW:
        return _form(csrf, p.id, "approve", "Approve", "go", target=target) + deny
    if action is Action.CONFIRM:
        return _form(csrf, p.id, "approve", "Approve…", "warn", target=target) + deny
    return (
        f"<p class=note>Blocked by the guard: not approvable from the web. Needs the terminal "
        f"(<code>paw approve {inert(p.id)} --override REASON</code>).</p>" + deny
    )


def render_confirm(
    d: Decision, csrf: str, subject: str, target: str = "/decide", home: str | None = None
) -> str:
    """The second step of a ``confirm`` verdict: the warning, then one explicit button."""
    back = "" if target != "/decide" else "<p><a href='/'>Back, decide nothing</a></p>"
    body = (
        f"<h1>Confirm</h1><div class=card><p><b>{inert(tilde(d.reason, home))}</b></p>"
        f"<pre class=subject>{inert(subject)}</pre>"
        f"<pre class=warning>{inert(tilde(d.confirmation or '', home))}</pre>"
        + _form(
            csrf, d.prompt_id, "approve", "Yes, approve it", "warn", confirmed=True, target=target
        )
        + _form(csrf, d.prompt_id, "deny", "Deny", target=target)
        + back
        + "</div>"
    )
    return page("paw: confirm", body)


def render_link(
    p: LivePrompt, now: float, csrf: str, target: str, name: str = "", home: str | None = None,
    wave: WaveTask | None = None,
) -> str:  # fmt: skip
    """The page a one-occurrence link opens: that one prompt as it is now, nothing else
    (``name``: the repository's directory name, as the main page's heading; ``wave``: the
    wave and task of its agent, when it runs one)."""
    where = f" · {inert(name)}" if name else ""
    card = _prompt_card(p, now, None, csrf, target, home=home, wave=wave)
    body = f"<h1>paw{where} · one prompt</h1>{card}"
    return page("paw: prompt", body)


def render_result(title: str, text: str, *, status: str = "", home: bool = True) -> str:
    """A one-message page (a decision's outcome, a refusal)."""
    out = f" <span class=meta>({inert(status)})</span>" if status else ""
    body = f"<h1>{html.escape(title)}</h1><p id=result>{inert(text)}{out}</p>"
    back = "<p><a href='/'>Back to the list</a></p>" if home else ""
    return page(f"paw: {title}", body + back)
