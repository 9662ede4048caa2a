"""The human actions of the main screen, each ending in one supervisor call on a thread worker.

Every key that reaches an agent goes through ``supervisor.approve``/``deny``/``send``: the
supervisor re-verifies the prompt, records the decision, and only then sends.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import work
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from paw.core.models import Action
from paw.core.printable import printable
from paw.errors import PawError
from paw.supervisor.model import Outcome
from paw.tui.messages import ActionFailed, DecisionMade, DecisionRequest
from paw.tui.screens.block import BlockDialog
from paw.tui.screens.confirm import ConfirmDialog, warning_starts, without_reply_line
from paw.tui.screens.forms import MessageDialog, SpawnDialog, SpawnRequest

if TYPE_CHECKING:
    from collections.abc import Callable

    from paw.supervisor.model import Decision, LivePrompt
    from paw.tui.app_api import AppApi


class AgentActions(Screen[None]):
    """Actions on prompts and agents; the main screen supplies the selection."""

    @property
    def paw(self) -> AppApi:
        """The app, typed by what screens ask of it."""
        return cast("AppApi", self.app)

    @property
    def selected_agent(self) -> str | None:
        """The agent under the cursor (the main screen overrides this)."""
        return None

    @property
    def selected_prompt(self) -> LivePrompt | None:
        """The prompt the human is looking at (the main screen overrides this)."""
        return None

    def find_prompt(self, prompt_id: str | None) -> LivePrompt | None:
        """The live prompt with this id (the main screen overrides this)."""
        return None

    def make_request(self, *, deny: bool = False, always: bool = False) -> DecisionRequest | None:
        """A request for the selected prompt (the main screen overrides this)."""
        raise NotImplementedError

    # -- prompt decisions ---------------------------------------------------------------------

    def action_approve(self) -> None:
        """Approve once; a blocked prompt opens the override dialog instead."""
        self._approve(always=False)

    def action_always(self) -> None:
        """Approve and don't ask again (offered only for allowed prompts)."""
        self._approve(always=True)

    def action_deny(self) -> None:
        """Deny the selected prompt."""
        request = self.make_request(deny=True)
        if request is not None:
            self.decide(request)

    def _approve(self, *, always: bool) -> None:
        request = self.make_request(always=always)
        prompt = self.selected_prompt
        if request is None or prompt is None:
            return
        if prompt.verdict.action is Action.BLOCK:
            self._ask_override(request, prompt)
        else:
            self.decide(request)

    @work(thread=True, name="decide", group="decide", exit_on_error=False)
    def decide(self, request: DecisionRequest) -> None:
        """Ask the supervisor (off the UI thread) and post its answer."""
        supervisor = self.paw.supervisor
        try:
            with self.paw.action_lock:
                if request.deny:
                    decision = supervisor.deny(request.prompt_id)
                else:
                    decision = supervisor.approve(
                        request.prompt_id,
                        always=request.always,
                        confirmed=request.confirmed,
                        override=request.override,
                    )
        except PawError as err:
            self.post_message(ActionFailed("deny" if request.deny else "approve", err.message))
            return
        self.post_message(DecisionMade(request, decision))

    def follow_up(self, request: DecisionRequest, decision: Decision) -> None:
        """Open the dialog the supervisor asks for, or report what happened."""
        outcome = decision.outcome
        if outcome is Outcome.NEEDS_CONFIRMATION and not request.confirmed:
            self._ask_confirmation(request, decision)
        elif outcome is Outcome.NEEDS_OVERRIDE and request.override is None:
            prompt = self.find_prompt(request.prompt_id)
            if prompt is not None:
                self._ask_override(request, prompt, decision)
            else:
                self.notify("The prompt is gone.", severity="warning")
        else:
            self._report(request, decision)

    def _ask_confirmation(self, request: DecisionRequest, decision: Decision) -> None:
        details = without_reply_line(decision.confirmation or decision.reason)
        body = Text()
        reasons = decision.verdict.reasons if decision.verdict is not None else ()
        missing = [r for r in reasons if r not in details]  # the details may list them already
        for reason in missing:
            body.append(f"• {printable(reason)}\n", style="yellow")
        if missing:
            body.append("\n")
        warnings = warning_starts()  # paw's own warnings start a line; quoted text is indented
        for line in details.splitlines(keepends=True):
            body.append(printable(line), style="bold red" if line.startswith(warnings) else "")
        what = "and not asking again" if request.always else "once"
        title = f"Confirm before approving {request.agent}'s prompt {what}"
        dialog = ConfirmDialog(title, body, yes_label="Approve")

        def answered(yes: bool | None) -> None:
            if yes:
                self.decide(replace(request, confirmed=True))

        self.app.push_screen(dialog, answered)

    def _ask_override(
        self, request: DecisionRequest, prompt: LivePrompt, decision: Decision | None = None
    ) -> None:
        verdict = decision.verdict if decision and decision.verdict else prompt.verdict
        subject = prompt.prompt.subject or prompt.prompt.question
        dialog = BlockDialog(prompt.agent, subject, verdict)

        def answered(reason: str | None) -> None:
            if reason:
                self.decide(replace(request, override=reason, always=False))

        self.app.push_screen(dialog, answered)

    def _report(self, request: DecisionRequest, decision: Decision) -> None:
        verb = "denied" if request.deny else "approved"
        keys = " ".join(decision.keys)
        if decision.outcome in (Outcome.SENT, Outcome.SENT_UNCONFIRMED):
            self.paw.request_poll()  # show the agent's answer without waiting for the timer
        if decision.outcome is Outcome.SENT:
            self.notify(f"{request.agent}: {verb} (sent {keys})", title="Sent")
        elif decision.outcome is Outcome.SENT_UNCONFIRMED:
            self.notify(
                f"{request.agent}: {verb} (sent {keys}), but the prompt is still shown",
                severity="warning",
            )
        elif decision.outcome is Outcome.DELIVERY_UNKNOWN:
            self.notify(
                f"{request.agent}: {keys} may have reached it: {decision.reason}",
                title="Delivery unknown",
                severity="error",
                timeout=12,
            )
        else:
            self.notify(
                f"{request.agent}: nothing sent: {decision.reason}",
                title="Refused",
                severity="error",
                timeout=8,
            )

    # -- agents -------------------------------------------------------------------------------

    def action_attach(self) -> None:
        """Suspend paw and attach to the agent's pane."""
        if self.selected_agent is not None:
            self.paw.attach(self.selected_agent)

    def action_message(self) -> None:
        """Type a message into the selected agent's input."""
        agent = self.selected_agent
        if agent is None:
            return

        def answered(text: str | None) -> None:
            if text:
                supervisor = self.paw.supervisor
                self.operate("send", partial(supervisor.send, agent, text), f"sent to {agent}")

        self.app.push_screen(MessageDialog(agent), answered)

    def action_spawn(self) -> None:
        """Open the spawn form."""

        def answered(request: SpawnRequest | None) -> None:
            if request is not None:
                call = partial(self.paw.supervisor.spawn, request.name, request.kind, request.task)
                self.operate("spawn", call, f"spawned {request.name}")

        self.app.push_screen(SpawnDialog(self.paw.kinds), answered)

    def action_stop(self) -> None:
        """Stop the selected agent after a confirmation."""
        agent = self.selected_agent
        if agent is None:
            return
        body = f"End {agent} and close its pane. Its worktree and branch are kept."
        self._confirm_then(f"Stop {agent}?", body, "stop", partial(self.paw.supervisor.stop, agent))

    def action_remove(self) -> None:
        """Remove the selected agent's worktree and branch (paw refuses unsaved work)."""
        agent = self.selected_agent
        if agent is None:
            return
        body = (
            f"Remove {agent}'s worktree and branch. paw refuses if there is unsaved or "
            "unmerged work; use `paw rm --force` to snapshot it to a ref and remove anyway."
        )
        call = partial(self.paw.supervisor.remove, agent)
        self._confirm_then(f"Remove {agent}?", body, "remove", call)

    def _confirm_then(self, title: str, body: str, what: str, call: Callable[[], object]) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.operate(what, call, title.rstrip("?").lower() + ": done")

        self.app.push_screen(ConfirmDialog(title, body, yes_label=what.capitalize()), answered)

    def operate(self, what: str, call: Callable[[], object], done: str) -> None:
        """Run one supervisor operation on a thread worker; report refusals."""
        self.run_worker(
            partial(self._operate, what, call, done),
            thread=True,
            name=what,
            group="operate",
            exit_on_error=False,
        )

    def _operate(self, what: str, call: Callable[[], object], done: str) -> None:
        try:
            with self.paw.action_lock:
                result = call()
        except PawError as err:
            self.post_message(ActionFailed(what, err.message))
            return
        message = result if isinstance(result, str) and result else done
        self.app.call_from_thread(self.notify, message, title=what)
        self.app.call_from_thread(self.paw.request_poll)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Unexpected worker errors become (coalesced) error toasts."""
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            self.paw.report_error(event.worker.name, event.worker.error)
