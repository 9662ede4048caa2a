"""A SupervisorApi built from the screen corpus, for TUI tests and snapshots.

Its approvals and denials are decided by the supervisor's own pure rules
(:func:`paw.core.approval.plan_approval`, :func:`~paw.core.approval.plan_denial`) on a capture
that still shows the prompt, and every sent key is recorded. It serves the pilot tests of what
the screens do with a picture (layout, redraws, key routing, pacing); the snapshots are drawn
over the real supervisor on real tmux (tests/tui/snapshot_world.py), and so are the flows whose
outcome the approval rules decide (tests/tui/test_flows_real.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

from paw.core.approval import Facts, Step, plan_approval, plan_denial
from paw.core.models import (
    Action,
    Detection,
    DetectionState,
    Finding,
    Prompt,
    PromptKind,
    Verdict,
)
from paw.errors import PawError, TmuxError
from paw.supervisor.model import (
    AgentStatus,
    AgentView,
    Decision,
    LivePrompt,
    Outcome,
    Snapshot,
    WorktreeStat,
)

_OUTCOMES = {
    Step.REFUSE: Outcome.REFUSED,
    Step.NEEDS_CONFIRMATION: Outcome.NEEDS_CONFIRMATION,
    Step.NEEDS_OVERRIDE: Outcome.NEEDS_OVERRIDE,
}


def _shown(live: LivePrompt) -> Facts:
    """What the supervisor would find before sending: the same prompt, live in its pane."""
    fresh = Detection(DetectionState.PROMPT, live.kind, live.prompt)
    return Facts(live.prompt.fingerprint, pane_exists=True, agent_alive=True, fresh=fresh)


CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
T0 = 1_800_000_000.0  # a fixed clock: every age on screen is measured against it

ALLOW = Verdict(action=Action.ALLOW)
CONFIRM = Verdict.from_findings(
    [Finding("git.push", Action.CONFIRM, "`git push` publishes commits to a remote")]
)
BLOCK = Verdict.from_findings(
    [
        Finding("shell.sudo", Action.BLOCK, "`sudo` runs the command as root"),
        Finding("shell.rm-recursive", Action.CONFIRM, "`rm -rf` deletes a tree recursively"),
    ]
)

SAMPLE_DIFF = """diff --git a/app.py b/app.py
index 1111111..2222222 100644
--- a/app.py
+++ b/app.py
@@ -1,3 +1,4 @@
 import sys
-print("hello")
+print("hello, paw")
+sys.exit(0)
"""


@dataclass(frozen=True, slots=True)
class FakeAgent:
    """One agent of a scenario: its view, and the corpus case its pane shows."""

    name: str
    kind: str  # corpus folder: claude-code, codex, gemini-cli, …
    case: str  # corpus case folder
    status: AgentStatus
    verdict: Verdict | None = None  # set for agents that show a prompt
    age: float = 30.0  # seconds in the status (and age of the prompt)
    stat: WorktreeStat = field(default_factory=WorktreeStat)


def load_prompt(kind: str, case: str) -> Prompt:
    """The prompt a corpus case shows, from its meta.json."""
    meta = json.loads((CORPUS / kind / case / "meta.json").read_text())
    always = meta.get("always_keys")
    return Prompt(
        kind=PromptKind(meta.get("prompt_kind") or "other"),
        subject=meta.get("subject"),
        question="Do you want to proceed?",
        approve_keys=tuple(meta["approve_keys"]),
        deny_keys=tuple(meta["deny_keys"]),
        fingerprint=f"fp-{kind}-{case}",
        always_keys=tuple(always) if always else None,
    )


class FakeSupervisor:
    """SupervisorApi over fixture data; records what would have reached each pane."""

    def __init__(self, agents: list[FakeAgent], *, now: float = T0) -> None:
        self.now = now
        self.agents = {a.name: a for a in agents}
        self.panes = {a.name: f"%{i}" for i, a in enumerate(agents, start=1)}
        self.prompts: dict[str, LivePrompt] = {}
        for agent in agents:
            if agent.verdict is not None:
                live = self._live_prompt(agent)
                self.prompts[live.id] = live
        self.sent_keys: list[tuple[str, tuple[str, ...]]] = []  # (pane id, keys)
        self.sent_text: list[tuple[str, str]] = []
        self.calls: list[tuple[str, object]] = []
        self.audit: list[dict[str, object]] = []
        self.tmux_gone = False
        self.raise_on_poll = False

    def _live_prompt(self, agent: FakeAgent) -> LivePrompt:
        assert agent.verdict is not None
        prompt = load_prompt(agent.kind, agent.case)
        pane = self.panes[agent.name]
        return LivePrompt(
            id=f"{pane[1:]}-{agent.case[:6]}",
            agent=agent.name,
            kind=agent.kind,
            pane_id=pane,
            prompt=prompt,
            verdict=agent.verdict,
            first_seen=self.now - agent.age,
        )

    # -- SupervisorApi ------------------------------------------------------------------------

    def poll_once(self) -> Snapshot:
        if self.raise_on_poll:
            raise TmuxError("no server running on /tmp/tmux-1000/paw-test")
        if self.tmux_gone:
            return Snapshot(
                taken_at=self.now,
                agents=(),
                prompts=(),
                tmux_ok=False,
                error="tmux server on socket paw-test is gone",
            )
        return Snapshot(
            taken_at=self.now,
            agents=tuple(self._view(a) for a in self.agents.values()),
            prompts=tuple(self.prompts.values()),
        )

    def _view(self, agent: FakeAgent) -> AgentView:
        waiting = any(p.agent == agent.name for p in self.prompts.values())
        status = AgentStatus.PROMPT if waiting else agent.status
        if agent.status is AgentStatus.PROMPT and not waiting:
            status = AgentStatus.BUSY
        return AgentView(
            name=agent.name,
            kind=agent.kind,
            pane_id=self.panes[agent.name],
            alive=status is not AgentStatus.EXITED,
            status=status,
            status_since=self.now - agent.age,
            branch=f"paw/{agent.name}",
            worktree=f".paw/worktrees/{agent.name}",
            stat=agent.stat,
        )

    def approve(
        self,
        prompt_id: str,
        *,
        always: bool = False,
        confirmed: bool = False,
        override: str | None = None,
    ) -> Decision:
        self.calls.append(("approve", (prompt_id, always, confirmed, override)))
        live = self.prompts.get(prompt_id)
        if live is None:
            return Decision(Outcome.REFUSED, prompt_id, "the prompt is no longer shown")
        # the supervisor's own rules (paw.core.approval), over a capture that still shows it
        plan = plan_approval(
            _shown(live), live.verdict, always=always, confirmed=confirmed, override=override
        )
        if plan.step is Step.SEND:
            return self._send(live, plan.keys, "approve", override)
        outcome = _OUTCOMES[plan.step]
        confirmation = None
        if plan.step is Step.NEEDS_CONFIRMATION:
            # as the supervisor words a git push: its closing line is meant for a chat reply
            # (the details come from git, which this fixture has none of)
            confirmation = (
                f"{live.prompt.subject}\n\nPending commits:\n  abc1234 fix the login form"
                "\n\nReply YES to confirm."
                if plan.always is None
                else plan.always.explain()
            )
        return Decision(outcome, prompt_id, plan.reason, live.verdict, confirmation=confirmation)

    def deny(self, prompt_id: str) -> Decision:
        self.calls.append(("deny", prompt_id))
        live = self.prompts.get(prompt_id)
        if live is None:
            return Decision(Outcome.REFUSED, prompt_id, "the prompt is no longer shown")
        plan = plan_denial(_shown(live))
        if plan.step is not Step.SEND:
            return Decision(Outcome.REFUSED, prompt_id, plan.reason)
        return self._send(live, plan.keys, "deny", None)

    def _send(
        self, live: LivePrompt, keys: tuple[str, ...], event: str, override: str | None
    ) -> Decision:
        record: dict[str, object] = {
            "event": event,
            "agent": live.agent,
            "subject": live.prompt.subject,
            "verdict": live.verdict.action.value,
            "keys": list(keys),
        }
        if override:
            record["override"] = override
        self.audit.append(record)
        self.sent_keys.append((live.pane_id, keys))
        del self.prompts[live.id]
        return Decision(Outcome.SENT, live.id, "sent", live.verdict, keys=keys)

    def capture_ansi(self, agent: str) -> str:
        fake = self.agents[agent]
        return (CORPUS / fake.kind / fake.case / "screen.ansi").read_text()

    def diff(self, agent: str) -> str:
        return SAMPLE_DIFF if self.agents[agent].stat != WorktreeStat() else ""

    def audit_tail(self, n: int) -> list[dict[str, object]]:
        return self.audit[-n:]

    def spawn(self, name: str, kind: str, task: str | None) -> AgentView:
        self.calls.append(("spawn", (name, kind, task)))
        self.agents[name] = FakeAgent(name, "claude-code", "idle_120x40", AgentStatus.BUSY, age=0)
        self.panes[name] = f"%{len(self.panes) + 1}"
        return self._view(self.agents[name])

    def send(self, agent: str, text: str) -> None:
        self.calls.append(("send", (agent, text)))
        self.sent_text.append((self.panes[agent], text))

    def stop(self, agent: str) -> None:
        self.calls.append(("stop", agent))
        self.agents[agent] = replace(self.agents[agent], status=AgentStatus.EXITED)

    def remove(self, agent: str, *, force: bool = False) -> str:
        self.calls.append(("remove", (agent, force)))
        if self.agents[agent].stat != WorktreeStat() and not force:
            raise PawError(f"{agent} has uncommitted work; refusing to remove it")
        del self.agents[agent]
        return f"removed {agent}"


def scenario(name: str) -> FakeSupervisor:
    """Named fixture worlds for tests and snapshots."""
    dirty = WorktreeStat(uncommitted=2, insertions=12, deletions=3, ahead=1)
    agents = {
        "empty": [],
        "agents": [
            FakeAgent("api", "claude-code", "busy_thinking_120x40", AgentStatus.BUSY, age=95),
            FakeAgent("docs", "gemini-cli", "idle_120x40", AgentStatus.IDLE, age=600, stat=dirty),
            FakeAgent("old", "codex", "done_120x40", AgentStatus.EXITED, age=7300),
        ],
        "allow": [
            FakeAgent(
                "touch",
                "codex",
                "shell_always_option_120x40",
                AgentStatus.PROMPT,
                ALLOW,
                age=42,
                stat=dirty,
            ),
            FakeAgent("api", "claude-code", "busy_thinking_120x40", AgentStatus.BUSY, age=95),
        ],
        "confirm": [
            FakeAgent(
                "pusher",
                "claude-code",
                "git_push_120x40",
                AgentStatus.PROMPT,
                CONFIRM,
                age=12,
                stat=dirty,
            ),
            FakeAgent("api", "claude-code", "busy_thinking_120x40", AgentStatus.BUSY, age=95),
        ],
        "block": [
            FakeAgent("rmsudo", "codex", "shell_rm_sudo_120x40", AgentStatus.PROMPT, BLOCK, age=5),
            FakeAgent("api", "claude-code", "busy_thinking_120x40", AgentStatus.BUSY, age=95),
        ],
    }
    if name == "mixed":
        return FakeSupervisor(
            [*agents["allow"], *agents["confirm"][:1], *agents["block"][:1], *agents["agents"][1:]]
        )
    if name == "tmux_gone":
        fake = FakeSupervisor(agents["agents"])
        fake.tmux_gone = True
        return fake
    return FakeSupervisor(agents[name])
