"""Pure helpers of the tmux adapter: command building and output parsing (no I/O).

Kept beside :mod:`paw.adapters.tmux.terminal` the way libtmux keeps ``neo.parse_output`` beside
``fetch_objs``, so the parsing can be tested on strings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from paw.adapters.tmux.delta import STATE_FIELDS
from paw.core.ports import PaneCapture, PaneInfo

#: paw's pane tags: tmux user options ``@<key>`` set on every pane paw starts.
TAG_KEYS: tuple[str, ...] = ("paw_agent", "paw_kind", "paw_repo", "paw_id")

#: The most bytes of command arguments paw hands one tmux process. tmux packs a command's
#: arguments (each plus a NUL) into one message to its server and refuses anything larger
#: ("command too long"): 16,364 bytes with tmux 3.3a (a 16 KiB message less its headers).
#: Batched commands whose length grows with the number of panes are split into chunks that
#: stay within this budget, a quarter below the limit.
COMMAND_BUDGET = 12 * 1024

#: What tmux prints when no server answers on the socket.
GONE_MARKERS: tuple[str, ...] = ("no server running", "error connecting to", "server exited")

#: tmux format variables every pane listing asks for, in this order (then the tags).
PANE_FIELDS: tuple[str, ...] = (
    "pane_id",
    "pane_pid",
    "session_name",
    "pane_width",
    "pane_height",
    "pane_dead",
    "pane_current_command",
    "server",
    "session_attached",
)

#: Fields of :data:`PANE_FIELDS` that are not a single tmux format variable.
_FIELD_FORMATS: dict[str, str] = {"server": "#{pid}.#{start_time}"}


def escape_arg(arg: str) -> str:
    r"""Protect an argument from tmux's command-line parser.

    tmux ends a command at any argument that ends in ``;`` (dropping the ``;``) and turns a
    final ``\;`` into a literal ``;``. So a trailing ``;`` is written as ``\;``, which tmux
    reads back as exactly ``arg``.

    >>> escape_arg("ls;")
    'ls\\;'
    >>> escape_arg("plain")
    'plain'
    """
    return arg[:-1] + "\\;" if arg.endswith(";") else arg


def argv_bytes(argv: Sequence[str]) -> int:
    """The bytes tmux packs for ``argv`` (each argument, UTF-8, plus its NUL): what its
    command-length limit counts.

    >>> argv_bytes(["list-panes", "-a"]), argv_bytes(["é"])
    (14, 3)
    """
    return sum(len(arg.encode("utf-8", "surrogateescape")) + 1 for arg in argv)


def split_by_budget(
    items: Sequence[str],
    build: Callable[[list[str]], list[str]],
    budget: int | None = None,
) -> list[list[str]]:
    """``items`` cut into consecutive groups whose chained command ``build(group)`` stays
    within ``budget`` bytes (default :data:`COMMAND_BUDGET`, see :func:`argv_bytes`); one
    group when all fit, ``[[]]`` for none.

    ``build`` must cost a fixed head plus a part per item (the way :func:`sweep_argv` does).
    An item that does not fit even alone gets a group of its own (tmux then refuses it and
    the caller sees that failure).

    >>> build = lambda group: ["list-panes", *group]
    >>> split_by_budget(["%1", "%2", "%3"], build, budget=len("list-panes") + 1 + 3 * 2)
    [['%1', '%2'], ['%3']]
    """
    budget = COMMAND_BUDGET if budget is None else budget
    head = argv_bytes(build([]))
    groups: list[list[str]] = [[]]
    used = head
    for item in items:
        cost = argv_bytes(build([item])) - head
        if groups[-1] and used + cost > budget:
            groups.append([])
            used = head
        groups[-1].append(item)
        used += cost
    return groups


def is_pane_id(text: str) -> bool:
    """True for a tmux pane id such as ``%12``.

    >>> is_pane_id("%12"), is_pane_id(""), is_pane_id("%1;"), is_pane_id("main:1")
    (True, False, False, False)
    """
    return len(text) > 1 and text[0] == "%" and text[1:].isascii() and text[1:].isdigit()


def sweep_argv(
    pane_ids: Sequence[str], token: str, *, ansi: bool = False, listing: str | None = None
) -> list[str]:
    """The tmux arguments of one sweep: list every pane (with the state fields of
    :mod:`paw.adapters.tmux.delta`, or the ``listing`` format after ``<token>I``), then a
    marker and a capture per pane.

    >>> sweep_argv(["%1"], "T")[4:]  # doctest: +NORMALIZE_WHITESPACE
    [';',
     'display-message', '-p', '-t', '%1', 'TP #{pane_id} #{pane_pid}', ';',
     'capture-pane', '-p', '-t', '%1']
    """
    fmt = f"{token}L {STATE_FIELDS}" if listing is None else f"{token}I{listing}"
    argv = ["list-panes", "-a", "-F", fmt]
    capture = ["capture-pane", "-p", "-e"] if ansi else ["capture-pane", "-p"]
    for pane in pane_ids:
        argv += [";", "display-message", "-p", "-t", pane, f"{token}P #{{pane_id}} #{{pane_pid}}"]
        argv += [";", *capture, "-t", pane]
    return argv


def parse_sweep(stdout: str, token: str) -> tuple[set[str], dict[str, PaneCapture]]:
    """Split a sweep's output into the set of existing panes and each pane's capture.

    Lines are attributed to the last ``<token>P`` marker seen. The token is random per sweep,
    so pane text cannot forge a marker. After a failed run the last capture may be cut short:
    the caller then uses only the set of existing panes and sweeps again.

    >>> existing, caps = parse_sweep("TL %1\\nTP %1 42\\nhello\\n\\n", "T")
    >>> sorted(existing), caps["%1"].text, caps["%1"].pane_pid
    (['%1'], 'hello\\n', 42)
    """
    existing: set[str] = set()
    blocks: list[tuple[str, int, list[str]]] = []
    lines = stdout.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    list_mark, pane_mark = f"{token}L ", f"{token}P "
    for line in lines:
        if line.startswith(pane_mark):
            pane, _, pid = line[len(pane_mark) :].partition(" ")
            blocks.append((pane, _to_int(pid), []))
        elif line.startswith(list_mark):
            existing.add(line[len(list_mark) :].partition(" ")[0])
        elif blocks:
            blocks[-1][2].append(line)
    captures = {
        pane: PaneCapture(pane_id=pane, text="\n".join(body), pane_pid=pid)
        for pane, pid, body in blocks
    }
    return existing, captures


def parse_listing(stdout: str, token: str, sep: str, tag_keys: Sequence[str]) -> list[PaneInfo]:
    """The panes of the lines ``<token>I<sep>…`` that precede the first capture marker
    (``<token>P``); other lines (control-mode framing) are skipped."""
    mark = f"{token}I{sep}"
    head, _, _ = stdout.partition(f"\n{token}P ")
    rows = [line[len(mark) :] for line in head.split("\n") if line.startswith(mark)]
    return parse_pane_list("\n".join(rows), sep, tag_keys)


def parse_pane_list(stdout: str, sep: str, tag_keys: Sequence[str]) -> list[PaneInfo]:
    """Parse ``list-panes -F`` output made of :data:`PANE_FIELDS` then the tags, ``sep``-joined.

    >>> [p.pane_id for p in parse_pane_list("%3|7|s|80|24|0|sh|9.1|0|ann|\\n", "|", ["a", "b"])]
    ['%3']
    """
    panes = []
    width = len(PANE_FIELDS) + len(tag_keys)
    keys = tuple(tag_keys)
    if len(_PARSED) > PARSED_LINES:
        _PARSED.clear()
    for line in stdout.splitlines():
        parts = line.split(sep)
        if len(parts) != width:
            continue
        fields = (keys, *parts)  # (the separator is new each sweep: the fields are the key)
        known = _PARSED.get(fields)
        if known is not None:  # the fields of an earlier listing: the same (frozen) pane
            panes.append(known)
            continue
        pane_id, pid, session, cols, rows, dead, command, server, attached = parts[
            : len(PANE_FIELDS)
        ]
        values = parts[len(PANE_FIELDS) :]
        tags = {key: value for key, value in zip(tag_keys, values, strict=True) if value}
        pane = PaneInfo(
            pane_id=pane_id,
            pane_pid=_to_int(pid),
            session=session,
            width=_to_int(cols),
            height=_to_int(rows),
            dead=dead == "1",
            current_command=command,
            tags=tags,
            server=server,
            attached=_to_int(attached),
        )
        _PARSED[fields] = pane
        panes.append(pane)
    return panes


# Listing lines already parsed, and their panes: a sweep lists every pane, and at 200 agents
# parsing 200 unchanged lines again was a tenth of a sweep. The same pane object each time
# also lets a sweep see at once that nothing about it changed.
PARSED_LINES = 8192
_PARSED: dict[tuple[object, ...], PaneInfo] = {}


def _to_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def pane_format(sep: str, *, command: bool = True) -> str:
    """The ``-F`` format of a pane listing: :data:`PANE_FIELDS` then the tags, ``sep``-joined.

    Without ``command`` the ``pane_current_command`` field is left empty: tmux reads the
    process table for it, pane by pane (about 1 ms for 50 panes), and a sweep does not need it.

    >>> pane_format("|").split("|")[:2], pane_format("|").split("|")[-1]
    (['#{pane_id}', '#{pane_pid}'], '#{@paw_id}')
    >>> pane_format("|", command=False).split("|")[6]
    ''
    """
    names = [n for n in PANE_FIELDS if command or n != "pane_current_command"]
    fields = [_FIELD_FORMATS.get(n, f"#{{{n}}}") if n in names else "" for n in PANE_FIELDS]
    return sep.join(fields + [f"#{{@{key}}}" for key in TAG_KEYS])


def server_gone(stderr: str) -> bool:
    """True when tmux's ``stderr`` says no server answers on the socket.

    >>> server_gone("no server running on /tmp/tmux-1/x"), server_gone("can't find pane: %9")
    (True, False)
    """
    return any(marker in stderr for marker in GONE_MARKERS)
