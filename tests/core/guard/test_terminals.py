"""Writes to terminal devices and typing into other terminals (issue 29, item 11).

Any process that can write to an agent's terminal can repaint the prompt paw reads (a blocked
``rm -rf`` shown as ``ls -la``), and any that can open it can type into it (TIOCSTI). The guard
blocks every way an agent's command does either: redirections, writers (tee, dd, cp, socat,
script, sponge, stty -F, ln -s), interpreter code, and the programs whose job is typing into a
terminal (ttyecho, writevt, multiplexers' send-text, paw's own approve/send). A computed path
whose literal start is a terminal is block; one that could be a terminal is confirm.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from paw.core.guard.shell import evaluate_command

REPAINT = "printf '\\0337\\033[9;1H│   ls -la            │\\0338' > /dev/pts/3"


class Case(NamedTuple):
    test_id: str
    command: str
    action: str
    rule: str | None


BLOCK_WRITE = "shell.terminal-write"
INJECT = "shell.terminal-inject"
SUPERVISOR = "shell.supervisor"

CASES = (
    # the repaint itself and every redirection operator
    Case("repaint", REPAINT, "block", BLOCK_WRITE),
    Case("append", "echo hi >> /dev/pts/3", "block", BLOCK_WRITE),
    Case("both-streams", "echo hi &> /dev/pts/3", "block", BLOCK_WRITE),
    Case("clobber", "echo hi >| /dev/pts/3", "block", BLOCK_WRITE),
    Case("dup-to-file", "echo hi >& /dev/pts/3", "block", BLOCK_WRITE),
    Case("stderr-fd", "ls 2>/dev/pts/3", "block", BLOCK_WRITE),
    Case("exec-fd", "exec 3>/dev/pts/1; echo hi >&3", "block", BLOCK_WRITE),
    Case("group", "{ echo a; echo b; } > /dev/pts/3", "block", BLOCK_WRITE),
    Case("subshell", "(echo a) > /dev/pts/3", "block", BLOCK_WRITE),
    Case("loop", "for i in 1 2; do echo $i; done > /dev/pts/3", "block", BLOCK_WRITE),
    Case("heredoc", "cat <<EOF > /dev/pts/3\nls -la\nEOF", "block", BLOCK_WRITE),
    Case("controlling-tty", "echo hi > /dev/tty", "block", BLOCK_WRITE),
    Case("virtual-console", "echo hi > /dev/tty2", "block", BLOCK_WRITE),
    Case("console", "echo hi > /dev/console", "block", BLOCK_WRITE),
    Case("console-memory", "echo hi > /dev/vcsa1", "block", BLOCK_WRITE),
    Case("macos-pty", "echo hi > /dev/ttys003", "block", BLOCK_WRITE),
    Case("bsd-pty-master", "echo hi > /dev/ptyp0", "block", BLOCK_WRITE),
    Case("other-process-fd", "echo hi > /proc/4242/fd/1", "block", BLOCK_WRITE),
    Case("input-from-tty", "python3 inject.py < /dev/pts/3", "block", BLOCK_WRITE),
    Case("read-own-tty", "read -r x < /dev/tty", "block", BLOCK_WRITE),
    # spelled otherwise: normalised, joined to the directory, globbed, computed
    Case("dot-segment", "echo hi > /dev/./pts/3", "block", BLOCK_WRITE),
    Case("double-slash", "echo hi > //dev//pts/3", "block", BLOCK_WRITE),
    Case("dotdot", "echo hi > /tmp/../dev/pts/3", "block", BLOCK_WRITE),
    Case("cd-then-relative", "cd /dev/pts && echo hi > 3", "block", BLOCK_WRITE),
    Case("cd-dev", "cd /dev; echo hi > pts/3", "block", BLOCK_WRITE),
    Case("variable-number", "echo hi > /dev/pts/$N", "block", BLOCK_WRITE),
    Case("quoted-variable", 'echo hi > "/dev/pts/${N}"', "block", BLOCK_WRITE),
    Case("glob-number", "echo hi > /dev/pts/*", "block", BLOCK_WRITE),
    Case("glob-class", "echo hi > /dev/pts/[0-9]", "block", BLOCK_WRITE),
    Case("glob-in-dir", "echo hi > /d?v/pts/3", "block", BLOCK_WRITE),
    Case("glob-in-name", "echo hi > /dev/tt?5", "block", BLOCK_WRITE),
    Case("glob-top", "echo hi > /*/pts/3", "block", BLOCK_WRITE),
    Case("tty-substitution", "echo hi > $(tty)", "block", BLOCK_WRITE),
    Case("tty-backticks", "echo hi > `tty`", "block", BLOCK_WRITE),
    Case("tty-variable", 't=$(tty); printf x > "$t"', "block", BLOCK_WRITE),
    Case("zsh-tty-var", "echo hi > $TTY", "block", BLOCK_WRITE),
    Case("ssh-tty-var", 'echo hi > "$SSH_TTY"', "block", BLOCK_WRITE),
    Case("computed-device", "echo hi > /dev/$T", "confirm", BLOCK_WRITE),
    Case("computed-dir", "echo hi > $D/pts/3", "confirm", BLOCK_WRITE),
    # writers
    Case("tee", "echo x | tee /dev/pts/3", "block", BLOCK_WRITE),
    Case("tee-append", "echo x | tee -a out.log /dev/pts/3 >/dev/null", "block", BLOCK_WRITE),
    Case("tee-tty-subst", "echo x | tee $(tty)", "block", BLOCK_WRITE),
    Case("dd", "dd if=msg of=/dev/pts/3", "block", BLOCK_WRITE),
    Case("cp", "cp msg /dev/pts/3", "block", BLOCK_WRITE),
    Case("cp-into-dir", "cp -t /dev/pts msg", "block", BLOCK_WRITE),
    Case("sponge", "cat msg | sponge /dev/pts/3", "block", BLOCK_WRITE),
    Case("symlink", "ln -s /dev/pts/3 out && echo hi > out", "block", BLOCK_WRITE),
    Case("script-file", "script -q /dev/pts/3", "block", BLOCK_WRITE),
    Case("script-log", "script -q -O /dev/pts/3 -c ls", "block", BLOCK_WRITE),
    Case("socat-bare", "socat - /dev/pts/3", "block", BLOCK_WRITE),
    Case("socat-file", "socat STDIN FILE:/dev/pts/3,raw", "block", BLOCK_WRITE),
    Case("stty-other", "stty -F /dev/pts/3 -echo", "block", BLOCK_WRITE),
    Case("find-fprint", "find . -name x -fprint /dev/pts/3", "block", BLOCK_WRITE),
    Case("awk-print", 'awk \'BEGIN{print "x" > "/dev/pts/3"}\'', "block", BLOCK_WRITE),
    Case("sed-w", "sed -n 'w /dev/pts/3' notes", "block", BLOCK_WRITE),
    Case("vim-open", "vim /dev/pts/3", "block", BLOCK_WRITE),
    # nested: shells, wrappers, xargs, ssh
    Case("sh-c", "sh -c 'echo x > /dev/pts/3'", "block", BLOCK_WRITE),
    Case("xargs-sh", "echo x | xargs -I{} sh -c 'echo {} > /dev/pts/3'", "block", BLOCK_WRITE),
    Case("nohup", "nohup sh -c 'sleep 5; printf x > /dev/pts/3' &", "block", BLOCK_WRITE),
    Case("ssh-remote", "ssh host 'echo x > /dev/pts/1'", "block", BLOCK_WRITE),
    # interpreter code: a terminal opened by name, TIOCSTI by name or number
    Case("py-open", "python3 -c \"open('/dev/pts/3','w').write('x')\"", "block", BLOCK_WRITE),
    Case(
        "py-os-open-built",
        "python3 -c \"import os; os.write(os.open('/dev/pts/' + str(3), os.O_WRONLY), b'x')\"",
        "block",
        BLOCK_WRITE,
    ),
    Case(
        "py-ttyname",
        "python3 -c \"import os; f=open(os.ttyname(1), 'w'); f.write('x')\"",
        "block",
        BLOCK_WRITE,
    ),
    Case(
        "py-tiocsti",
        "python3 -c \"import fcntl,termios; fcntl.ioctl(0, termios.TIOCSTI, b'x')\"",
        "block",
        INJECT,
    ),
    Case(
        "py-tiocsti-number",
        "python -c 'import fcntl; fcntl.ioctl(0, 0x5412, b\"x\")'",
        "block",
        INJECT,
    ),
    Case(
        "py-tiocsti-decimal",
        "python3 -c 'import fcntl; fcntl.ioctl(0, 21522, b\"x\")'",
        "block",
        INJECT,
    ),
    Case("perl-open", 'perl -e \'open(T, ">/dev/pts/3"); print T "x"\'', "block", BLOCK_WRITE),
    Case(
        "perl-ioctl",
        'perl -e \'require "sys/ioctl.ph"; ioctl(STDIN, &TIOCSTI, $_) for split //, "ls\\n"\'',
        "block",
        INJECT,
    ),
    Case(
        "node-write",
        "node -e \"require('fs').writeFileSync('/dev/tty', 'x')\"",
        "block",
        BLOCK_WRITE,
    ),
    Case("ruby-write", 'ruby -e \'File.write("/dev/pts/3", "x")\'', "block", BLOCK_WRITE),
    Case(
        "py-script-written-then-run",
        "cat > t.py <<'EOF'\nimport fcntl, termios\nfcntl.ioctl(0, termios.TIOCSTI, b'x')\nEOF\n"
        "python3 t.py",
        "block",
        INJECT,
    ),
    # programs that type into a terminal
    Case("ttyecho", "ttyecho -n /dev/pts/3 ls", "block", INJECT),
    Case("writevt", "writevt /dev/tty1 ls", "block", INJECT),
    Case("reptyr", "reptyr 4242", "block", INJECT),
    Case("write", "write alice pts/3", "block", INJECT),
    Case("wall", "echo hi | wall", "block", INJECT),
    Case("dtach-push", "echo y | dtach -p /tmp/sock", "block", INJECT),
    Case("zellij", "zellij action write-chars y", "block", INJECT),
    Case("kitty", "kitty @ send-text y", "block", INJECT),
    Case("wezterm", "wezterm cli send-text y", "block", INJECT),
    Case("xdotool", "xdotool type y", "block", INJECT),
    Case("tmux-send-keys-other-pane", "tmux send-keys -t %3 y Enter", "block", SUPERVISOR),
    Case("tmux-socket-send-keys", "tmux -S /tmp/s send-keys -t 1 y", "block", SUPERVISOR),
    Case(
        "tmux-control-mode",
        "printf 'send-keys -t %%1 y Enter\\n' | tmux -C attach",
        "block",
        SUPERVISOR,
    ),
    Case(
        "tmux-control-herestring",
        "tmux -C attach <<< 'send-keys -t %1 y Enter'",
        "block",
        SUPERVISOR,
    ),
    Case("tmux-control-unseen", "tmux -CC attach", "confirm", SUPERVISOR),
    Case("screen-stuff", "screen -X stuff 'y\\n'", "block", SUPERVISOR),
    Case("screen-reattach-stuff", "screen -r work -X stuff 'y\\n'", "block", SUPERVISOR),
    Case("screen-x-stuff", "screen -x work -X stuff 'y\\n'", "block", SUPERVISOR),
    Case("paw-approve", "paw approve 3 --yes", "block", SUPERVISOR),
    Case("paw-json-approve", "paw --json approve 3", "block", SUPERVISOR),
    Case("paw-send", "paw send a1 'yes'", "block", SUPERVISOR),
    Case("paw-deny", ".venv/bin/paw deny 3", "block", SUPERVISOR),
    Case("python-m-paw", "python3 -m paw approve 3", "block", SUPERVISOR),
    # what stays allowed: the process's own streams, serial adapters, reading names
    Case("dev-null", "make > /dev/null 2>&1", "allow", None),
    Case("dev-stderr", "echo oops > /dev/stderr", "allow", None),
    Case("own-fd", "exec 3>out.log; echo hi > /dev/fd/3", "allow", None),
    Case("usb-serial", "echo AT > /dev/ttyUSB0", "allow", None),
    Case("acm-serial", "stty -F /dev/ttyACM0 115200", "allow", None),
    Case("new-pty", "python3 -c \"import os; os.open('/dev/ptmx', os.O_RDWR)\"", "allow", None),
    Case("tty-name", "tty", "allow", None),
    Case(
        "perl-ioctl-padded",
        "perl -e 'ioctl(STDIN, 0x00005412, $_) for split //, \"ls\"'",
        "block",
        INJECT,
    ),
    Case("number-not-ioctl", 'python3 -c "print(21522 + 0x5412)"', "allow", None),
    Case(
        "py-tiocsti-number-named",
        "python3 -c \"import fcntl; N = 0x5412; fcntl.ioctl(0, N, b'x')\"",
        "block",
        INJECT,
    ),
    Case("py-ttyname-print", 'python3 -c "import os; print(os.ttyname(0))"', "allow", None),
    Case("computed-file", 'echo hi > "$OUT"', "allow", None),
    Case("tmp-file", "echo hi > /tmp/pts-3.log", "allow", None),
    Case("tmux-control-read", "tmux -C attach <<< 'list-panes'", "allow", None),
    Case("screen-detached-build", "screen -dmS build make", "allow", None),
    Case("paw-ls", "paw ls --json", "allow", None),
    Case("paw-check", "paw check 'rm -rf /'", "allow", None),
    Case("script-own-log", "script -q -c 'make test' build.log", "allow", None),
    Case("socat-tcp", "socat - TCP:localhost:8080", "allow", None),
)


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_terminal_writes_and_typing(case: Case) -> None:
    verdict = evaluate_command(case.command)
    assert verdict.action.value == case.action, (case.command, verdict)
    if case.rule is not None:
        assert case.rule in verdict.rules, (case.command, verdict)
    assert "shell.internal-error" not in verdict.rules


def test_the_reason_says_why_a_terminal_write_is_blocked() -> None:
    verdict = evaluate_command(REPAINT)
    [reason] = [f.reason for f in verdict.findings if f.rule == BLOCK_WRITE]
    assert "/dev/pts/3" in reason
    assert "repaint" in reason
