"""The `waiting` state, live: real agent CLIs started by `paw spawn` with a fresh HOME that has
not trusted the folder yet show their folder-trust dialog. paw says so (`spawn` exits 5,
"waiting for you", when the dialog comes before the input), `paw ls` shows the agent as
`waiting` with the dialog, `paw prompts` lists it as waiting, and `paw approve` refuses it —
with or without `--yes` — and sends nothing: the dialog is still there, the same occurrence.

Needs the CLIs from ``scripts/install-agents``; fails (never skips) without them.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import pytest

from tests.e2e import diagnose, paw_run
from tests.e2e.pane import POLL
from tests.support.budget import budget

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.e2e import agents

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(int(budget(900)))]

DIALOG_TIMEOUT = budget(240.0)


def _json(path: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _untrust_claude(ws: agents.Workspace) -> None:
    path = ws.home / ".claude.json"
    config = _json(path)
    for project in config.get("projects", {}).values():
        project["hasTrustDialogAccepted"] = False
    path.write_text(json.dumps(config), encoding="utf-8")


def _folder_trust_on(settings_dir: str) -> Callable[[agents.Workspace], None]:
    def untrust(ws: agents.Workspace) -> None:
        path = ws.home / settings_dir / "settings.json"
        settings = _json(path)
        settings["security"]["folderTrust"] = {"enabled": True}
        path.write_text(json.dumps(settings), encoding="utf-8")

    return untrust


UNTRUST: dict[str, Callable[[agents.Workspace], None]] = {
    "claude-code": _untrust_claude,
    "gemini-cli": _folder_trust_on(".gemini"),
    "qwen-code": _folder_trust_on(".qwen"),
}


def _until(check: Callable[[], Any], timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(POLL)


def _dialog(run: paw_run.PawRun, agent: str) -> dict[str, Any]:
    """The dialog as paw's detector reads the pane now (kind, question, keys, fingerprint)."""
    saved = run.ws.root / "dialog.txt"
    saved.write_text(run.pane.capture(), encoding="utf-8")
    found: dict[str, Any] = json.loads(
        paw_run.paw(run, "detect", "--json", "--agent", agent, str(saved)).stdout
    )
    return {"state": found["state"], "prompt": found["prompt"]}


def _audit(run: paw_run.PawRun) -> list[dict[str, Any]]:
    done = paw_run.paw(run, "log", "--json", "-n", "1000")
    assert done.returncode == 0, done.stderr
    records: list[dict[str, Any]] = json.loads(done.stdout)["records"]
    return records


def _sends(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Audit records of keys or text paw sent (or was about to send) to a pane."""
    return [
        r
        for r in records
        if r.get("event") == "send" or r.get("decision") == "send" or r.get("keys")
    ]


@pytest.mark.parametrize("agent", sorted(UNTRUST))
def test_a_start_up_trust_dialog_is_waiting_and_never_approved(
    agent: str, request: pytest.FixtureRequest
) -> None:
    run = paw_run.start(agent, 120, 40)
    try:
        with diagnose.on_failure(run, request.node.nodeid, paw_run.AGENT_NAME):
            _waiting_and_refused(run, agent)
    finally:
        paw_run.stop(run)


def _waiting_and_refused(run: paw_run.PawRun, agent: str) -> None:
    UNTRUST[agent](run.ws)
    done = paw_run.paw(run, "spawn", paw_run.AGENT_NAME, "--agent", agent, "--task",
                       "say hello", "--json")  # fmt: skip
    # claude asks before it starts (spawn: 5, "waiting for you"); gemini takes the task
    # first and asks afterwards (spawn: 0, then the dialog)
    assert done.returncode in (0, 5), f"{done.stdout}{done.stderr}\n{run.pane.capture()}"
    if done.returncode == 5:
        assert json.loads(done.stdout)["startup"]["state"] == "waiting", done.stdout

    def waiting() -> dict[str, Any] | None:
        listed = json.loads(paw_run.paw(run, "ls", "--json").stdout)["agents"]
        return next((a for a in listed if a["status"] == "waiting"), None)

    agent_view = _until(waiting, DIALOG_TIMEOUT)
    assert agent_view, "paw never listed the agent as waiting (diagnostics below)"
    assert "dialog" in agent_view["note"], agent_view
    # the dialog may still be drawing (qwen reads its folder from the banner for a moment):
    # decide on the occurrence once two listings a second apart agree
    seen: list[list[dict[str, Any]]] = [paw_run.prompts(run)]

    def settled() -> bool:
        time.sleep(1.0)
        seen.append(paw_run.prompts(run))
        return [p["id"] for p in seen[-1]] == [p["id"] for p in seen[-2]]

    assert _until(settled, DIALOG_TIMEOUT), seen
    listed = seen[-1]
    assert [p["waiting"] for p in listed] == [True], listed
    prompt_id = listed[0]["id"]
    dialog = _dialog(run, agent)
    assert dialog["prompt"] is not None, dialog
    for extra in ((), ("--yes",)):
        refused = paw_run.paw(run, "approve", prompt_id, *extra, "--json")
        assert refused.returncode == 1, refused.stdout
        answer = json.loads(refused.stdout)
        assert answer["outcome"] == "refused", answer
        # refused as a dialog, or (an app repainting between the listing and the proof) as a
        # prompt that changed: either way nothing is sent, which the audit below proves
        assert any(
            why in answer["reason"] for why in ("not a tool permission", "prompt changed")
        ), answer
    # Nothing was sent. Not "the pane is byte-equal": an app may repaint with nothing sent
    # (qwen-code redrew its banner, a border and a scrollbar column gone, under load). The
    # promise is that no key reached the agent: the audit has no send and both approvals are
    # recorded as refused; the dialog is the one paw read before (its question, keys and
    # fingerprint: a key would have moved or closed it); the same occurrence is still listed.
    records = _audit(run)
    shown = next(i for i, r in enumerate(records) if r.get("prompt_id") == prompt_id)
    assert _sends(records[shown:]) == [], records[shown:]  # since paw first saw the dialog
    refusals = [r for r in records if r.get("event") == "approve"]
    assert [(r.get("decision"), r.get("prompt_id")) for r in refusals] == [
        ("refuse", prompt_id)
    ] * 2, refusals
    assert _dialog(run, agent) == dialog
    assert [p["id"] for p in paw_run.prompts(run)] == [prompt_id]
