"""The main screen's keys: its bindings (the help screen lists them), what the footer drops
first when the terminal is narrow, and which keys the screen greys out without a selection."""

from __future__ import annotations

from textual.binding import Binding, BindingType

MAIN_BINDINGS: list[BindingType] = [
    Binding("a", "approve", "Approve", tooltip="Approve the selected prompt once"),
    Binding("d", "deny", "Deny", tooltip="Deny the selected prompt"),
    Binding(
        "A",
        "always",
        "Always",
        key_display="A",
        tooltip="Approve and don't ask again (if offered and allowed)",
    ),
    Binding("question_mark", "help", "Help", key_display="?", tooltip="List every key"),
    Binding("t", "attach", "Attach", tooltip="Attach to the agent's pane (come back: detach)"),
    Binding("m", "message", "Msg", tooltip="Type a message into the agent's input"),
    Binding("n", "spawn", "Spawn", tooltip="Spawn a new agent (name, kind, task)"),
    Binding("x", "stop", "Stop", tooltip="Stop the agent and close its pane; keep its work"),
    Binding("r", "remove", "Remove", tooltip="Remove the agent's worktree and branch"),
    Binding("slash", "filter", "Filter", key_display="/", tooltip="Filter agents by text"),
    # One key, three labels: the footer names what `v` shows next (check_action hides the rest).
    Binding(
        "v",
        "view('diff')",
        "Diff",
        tooltip="Show the agent's pane or diff (narrow: lists too)",
    ),
    Binding("v", "view('pane')", "Pane", show=True),
    Binding("v", "view('lists')", "Lists", show=True),
    Binding(
        "w",
        "wave",
        "Wave",
        tooltip="Show the wave, parked prompts first (w: back)",
    ),
    Binding("q", "app.quit", "Quit", tooltip="Quit paw (agents keep running)"),
]

# What the footer leaves out first when the terminal is narrow (all stay on the help screen).
FOOTER_DROP_ORDER = (
    "filter", "remove", "stop", "message", "spawn", "attach", "always", "wave",
)  # fmt: skip

PROMPT_ACTIONS = frozenset({"approve", "deny", "always"})
AGENT_ACTIONS = frozenset({"attach", "message", "stop", "remove"})
GATED_ACTIONS = (*sorted(PROMPT_ACTIONS | AGENT_ACTIONS), "wave")  # check_action decides
