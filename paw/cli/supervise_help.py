"""The examples and notes under each supervisor command's `--help` (`paw spawn --help`, …)."""

from __future__ import annotations

EPILOGS = {
    "init": """examples:
  paw init
  paw init --force   (replace an existing paw.toml)

Lines "# text" explain; delete the "#" of a "#key = value" line to use that setting.""",
    "check": "example:\n  paw config check\n\nexit 2 when paw.toml has problems",
    "spawn": """examples:
  paw spawn alice --agent claude-code --task 'fix the flaky test'
  paw spawn bob --agent aider --task-file TASK.md --base develop
  paw spawn carol --agent my-agent --startup-timeout 120   (a kind from [agents.my-agent])
  paw spawn alice --agent claude-code --resume   (alice's worktree, after `paw archive restore`)

paw waits (on the wall clock, up to the kind's startup_timeout_s, default 60 s) until the
agent is up: it shows its input (a stdin-typed task is typed then), works on its task, or asks
for something. Exit 0 up, 1 died on start (its last lines are shown), 5 waiting for you (a
start-up dialog such as trust-this-folder or sign-in: answer it with `paw attach NAME`).

Names: letters, digits, '-' and '_' (no spaces, quotes, ';', '..', ':' or '%').""",
    "ls": """examples:
  paw ls
  paw ls --json | jq -r '.agents[] | select(.status == "prompt") | .name'

Without the tmux server the state is "unknown" (not "exited") and paw ls exits 1.""",
    "attach": """example:
  paw attach alice   (detach again with your tmux prefix + d)

Inside tmux on paw's own server it switches your client to the agent's pane. Inside another
tmux server it nests a client (and says so): your prefix then goes to your outer tmux, so
detach from the agent's pane with the prefix twice, then d (C-b C-b d with tmux's defaults).""",
    "send": """example:
  paw send alice 'also update the changelog'
  paw send alice 'run the tests again' --json

The text is typed literally (never read as tmux key names) as ONE line (line breaks become
spaces; other control characters refuse it), then Enter. Only into an agent whose screen paw
reads as idle or busy with an empty input line, proven on a fresh capture right before typing
and again before the Enter; refused (exit 1, recorded in `paw log`) while it shows a prompt or
a dialog (use approve/deny, or answer it in `paw attach`), a screen or an input paw cannot
read, or a line someone is typing; and when the typed text never shows in the input (then no
Enter is pressed). --json reports a refusal as {"refused": REASON, "typed": BOOL, "error": …}.""",
    "stop": """examples:
  paw stop alice   (worktree and branch stay; `paw rm` removes them)
  paw stop alice --json""",
    "rm": """examples:
  paw rm alice
  paw rm --force alice   (archives everything to refs/paw/archive/... first)

An adopted agent has no paw worktree: rm stops supervising it and leaves the pane you
started running (`paw stop NAME` first ends it).""",
    "adopt": "examples:\n  paw adopt %12\n  paw adopt %12 --agent codex --name reviewer",
    "prompts": """examples:
  paw prompts
  paw prompts --json | jq -r '.prompts[] | select(.verdict == "allow") | .id'""",
    "approve": """examples:
  paw approve 3f9c2a1b0d
  paw approve 3f9c2a1b0d --yes
  paw approve 3f9c2a1b0d --override 'reviewed: pushes to my fork'

Exit codes: 0 sent, 1 refused, 3 needs confirmation (--yes), 4 blocked (--override),
6 delivery unknown (a host's link dropped after the keys were handed to ssh: they may have
arrived; paw reconciles from the host's screen once it answers and sends nothing meanwhile).""",
    "deny": """examples:
  paw deny 3f9c2a1b0d
  paw deny 3f9c2a1b0d --json

A prompt already answered is refused: "already answered", nothing sent.
Exit 6: delivery unknown (a host's link dropped while the keys were on their way).""",
    "log": "examples:\n  paw log -n 50\n  paw log --json",
    "stats": "examples:\n  paw stats\n  paw stats --json | jq .stats.all",
}
