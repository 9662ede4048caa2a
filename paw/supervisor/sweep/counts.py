"""The worktree counts of the sweeps (git status per agent): what is due, counted in the sweep,
ahead of it (:class:`EarlyCounts`) or beside it on worker threads, and what to show.

See docs/performance.md ("Worktree counts") for why each limit is what it is."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from paw.errors import PawError
from paw.supervisor.memory import MarkRead, StatMark
from paw.supervisor.model import WorktreeStat

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from paw.core.ports import StatusCounts
    from paw.supervisor.context import Context
    from paw.supervisor.records import AgentRecord

STAT_TTL_S = 600.0  # safety net: every worktree recounted at least this often
HOST_STAT_TTL_S = 60.0  # the same on a host, whose worktrees have no status mark
STAT_OUTPUT_S = 5.0  # a pane that keeps printing recounts its worktree at most this often
STAT_REFRESH_PER_SWEEP = 8  # due counts refreshed per sweep, oldest first (3 git calls each)
STAT_WORKERS = 8  # git processes counting worktrees at once (they wait on the disk and exec)
BESIDE_WORKERS = 2  # threads counting beside a long-running sweeper's sweeps
MARK_EVERY_S = 5.0  # a worktree's status mark is read again at least this often
MARK_MIN_S = 1.0  # a pane that keeps printing re-reads its worktree's mark at most this often


def refresh_stats(
    ctx: Context,
    agents: Iterable[AgentRecord],
    now: float,
    screens: dict[str, str | None],
    early: EarlyCounts | None = None,
) -> None:
    """Count worktrees never counted, and at most :data:`STAT_REFRESH_PER_SWEEP` of those
    whose counts are due (oldest first): counts fall due together, and 50 agents' worth of git
    processes in one sweep would stall it for half a second.

    Due: the worktree's status mark changed since it was counted, its pane's screen changed
    (and the count is :data:`STAT_OUTPUT_S` old), or the count is :data:`STAT_TTL_S` old.
    With nothing happening, a sweep starts no git process. A count that failed (a worktree
    deleted by hand) is retried on the same signals, not every sweep.

    Not while a spawn or removal is in progress (``pending``): `git status` takes the index
    lock of a worktree that `git worktree add` is still checking out.

    The counts ``early`` started (worktrees never counted, before the survey) are waited for
    and recorded with this sweep's screens. Nothing when the context does not count worktrees
    (``count_worktrees``)."""
    if not ctx.settings.count_worktrees:
        return
    owned = [a for a in agents if not a.adopted and a.pending is None]
    signs = {name: hash(text) for name, text in screens.items() if text is not None}
    done = early.finish() if early is not None else {}
    for name, (mark, counts) in done.items():
        _record(ctx, name, now, mark, signs.get(name), counts)
    owned = [a for a in owned if a.name not in done and a.name not in ctx.memory.counting]
    if ctx.settings.count_in_background:
        _refresh_beside(ctx, owned, now, signs)
        return
    marks = {a.name: _recent_mark(ctx, a, now, signs.get(a.name)) for a in owned}
    missing = [a for a in owned if _missing(ctx, a.name)]
    due = [a for a in owned if not _missing(ctx, a.name) and _due(ctx, a.name, now, marks, signs)]
    due.sort(key=lambda a: ctx.memory.stat_marks[a.name].time)
    todo = [*missing, *due[:STAT_REFRESH_PER_SWEEP]]

    def count(agent: AgentRecord) -> None:
        mark, sign = marks[agent.name], signs.get(agent.name)
        ok = _count(ctx, agent, now)
        ctx.memory.stat_marks[agent.name] = StatMark(now, mark, sign, ok)

    if len(todo) <= 1:
        for agent in todo:
            count(agent)
        return
    # The first sweep counts every worktree: 50 agents are 150 git processes, about 0.4 s one
    # after another. Side by side they overlap their start-up and disk waits.
    with ThreadPoolExecutor(max_workers=min(STAT_WORKERS, len(todo))) as pool:
        list(pool.map(count, todo))


def _refresh_beside(
    ctx: Context, owned: list[AgentRecord], now: float, signs: dict[str, int]
) -> None:
    """:func:`refresh_stats` of a long-running sweeper: nothing of it waits in the sweep.

    A status mark is a score of stat() calls (a host's worktrees have none); a burst of
    prompts changes the screens of many agents at once, and their marks, read in the sweep
    that carries the prompts, were a sixth of it at 200 agents. So the counts due by the
    marks last read (at most :data:`STAT_REFRESH_PER_SWEEP`, oldest first: the TTL falls due
    for every agent at once) and those never made are decided here and go to the count
    workers, and an agent whose mark is due to be read again (:func:`_recent_mark`'s rule)
    gets a job there that reads it and counts if it changed. Marks are still read before
    their counts, on the worker that counts."""
    stale: list[AgentRecord] = []
    marks: dict[str, tuple[object, ...] | None] = {}
    for agent in owned:
        last = ctx.memory.mark_reads.get(agent.name)
        marks[agent.name] = last.mark if last is not None else None
        if last is None or _mark_stale(last, now, signs.get(agent.name)):
            stale.append(agent)
    missing = [a for a in owned if _missing(ctx, a.name)]
    due = [a for a in owned if not _missing(ctx, a.name) and _due(ctx, a.name, now, marks, signs)]
    due.sort(key=lambda a: ctx.memory.stat_marks[a.name].time)
    forced = {a.name for a in [*missing, *due[:STAT_REFRESH_PER_SWEEP]]}

    def refresh(agent: AgentRecord) -> bool:
        sign = signs.get(agent.name)
        mark = _recent_mark(ctx, agent, now, sign)
        if agent.name not in forced and mark == ctx.memory.stat_marks[agent.name].mark:
            return False  # the mark read again says the count stands
        before = shown_count(ctx, agent)
        ok = _count(ctx, agent, now)
        ctx.memory.stat_marks[agent.name] = StatMark(now, mark, sign, ok)
        after = shown_count(ctx, agent)
        return (before and before[1]) != (after and after[1])  # a sweep shows a change

    again = {a.name for a in stale}  # (names: a record's == compares every field)
    todo = [a for a in owned if a.name in forced or a.name in again]
    _count_beside(ctx, todo, refresh)


def _mark_stale(last: MarkRead, now: float, sign: int | None) -> bool:
    """Whether a mark read at ``last`` is to be read again (see :func:`_recent_mark`)."""
    age = now - last.time
    changed = sign is None or sign != last.sign
    return not (0 <= age < MARK_EVERY_S and not (changed and age >= MARK_MIN_S))


def _count_beside(
    ctx: Context, todo: list[AgentRecord], count: Callable[[AgentRecord], bool]
) -> None:
    """Start ``count`` of each agent of ``todo`` on the memory's count workers and return at
    once; each agent counts once at a time (``memory.counting``), and ``memory.on_counted`` is told
    when ``count`` returns True: what the agent's view shows changed (the sweep after it shows
    it; a recount that found the same numbers asks for no sweep)."""
    if not todo:
        return
    if ctx.memory.counter is None:
        ctx.memory.counter = ThreadPoolExecutor(
            max_workers=BESIDE_WORKERS,
            thread_name_prefix="paw-count",
            initializer=ctx.settings.count_setup,
        )

    def run(agent: AgentRecord) -> None:
        try:
            counted = count(agent)
        finally:
            ctx.memory.counting.discard(agent.name)
        if counted and ctx.memory.on_counted is not None:
            ctx.memory.on_counted()

    for agent in todo:
        ctx.memory.counting.add(agent.name)
        try:
            ctx.memory.counter.submit(run, agent)
        except RuntimeError:  # the workers were shut down (paw is closing)
            ctx.memory.counting.discard(agent.name)


_Counted = tuple["tuple[object, ...] | None", "StatusCounts | None"]


@runtime_checkable
class _CountsMany(Protocol):
    """A vcs that counts many worktrees at once (:meth:`GitCli.status_counts_many`)."""

    def status_counts_many(self, items: Sequence[tuple[str, str]]) -> list[StatusCounts | None]: ...


class EarlyCounts:
    """Worktrees never counted (a one-shot command's sweep: all of them), counted on a worker
    thread from the start of the sweep: their git processes run while the sweep reads tmux
    and the process table, instead of after. Each status mark is read before its count (the
    order :func:`refresh_stats` keeps); the results are recorded by the sweep's thread.

    Only for this machine's worktrees (a host's git shares the ssh connection the survey
    uses), and only when there are several."""

    def __init__(self, pool: ThreadPoolExecutor, future: Future[dict[str, _Counted]]) -> None:
        self._pool = pool
        self._future: Future[dict[str, _Counted]] | None = future

    @classmethod
    def start(cls, ctx: Context, agents: Iterable[AgentRecord], now: float) -> EarlyCounts | None:
        if not ctx.settings.count_worktrees or ctx.host is not None:
            return None
        todo = [a for a in agents if not a.adopted and a.pending is None and _missing(ctx, a.name)]
        if len(todo) <= 1:
            return None
        del now  # recorded by refresh_stats, with the screens
        pool = ThreadPoolExecutor(max_workers=1)
        return cls(pool, pool.submit(_count_all, ctx, todo))

    def finish(self) -> dict[str, _Counted]:
        """Every started count's (mark, counts or None when git could not), waited for."""
        done = self._future.result() if self._future is not None else {}
        self._future = None
        self._pool.shutdown(wait=True)
        return done

    def abandon(self) -> None:
        """Stop waiting (the sweep failed before taking the results)."""
        if self._future is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._future = None


def _count_all(ctx: Context, todo: list[AgentRecord]) -> dict[str, _Counted]:
    """Read the marks (none in a ``one_shot`` context), then count every worktree: through
    the vcs's batch when it has one (a few processes), else on :data:`STAT_WORKERS`
    threads."""
    marks = {a.name: None if ctx.settings.one_shot else _mark(ctx, a) for a in todo}
    if isinstance(ctx.vcs, _CountsMany):
        counts = ctx.vcs.status_counts_many([(a.worktree, a.base) for a in todo])
    else:
        with ThreadPoolExecutor(max_workers=min(STAT_WORKERS, len(todo))) as pool:
            counts = list(pool.map(lambda a: _try_count(ctx, a), todo))
    return {a.name: (marks[a.name], c) for a, c in zip(todo, counts, strict=True)}


def _try_count(ctx: Context, agent: AgentRecord) -> StatusCounts | None:
    try:
        return ctx.vcs.status_counts(agent.worktree, agent.base)
    except PawError:
        return None


def _record(
    ctx: Context,
    name: str,
    now: float,
    mark: tuple[object, ...] | None,
    sign: int | None,
    counts: StatusCounts | None,
) -> None:
    """Record a count made at ``now`` (None: git could not count) as :func:`_count` does.
    Without a mark (``one_shot``), no mark read is recorded: a later sweep reads one, finds
    it changed and recounts."""
    if mark is not None or not ctx.settings.one_shot:
        ctx.memory.mark_reads[name] = MarkRead(now, mark, sign)
    if counts is not None:
        ctx.memory.stat_cache[name] = (now, counts)
    ctx.memory.stat_marks[name] = StatMark(now, mark, sign, counts is not None)


def _missing(ctx: Context, name: str) -> bool:
    last = ctx.memory.stat_marks.get(name)
    return last is None or (last.ok and name not in ctx.memory.stat_cache)


def _recent_mark(
    ctx: Context, agent: AgentRecord, now: float, sign: int | None
) -> tuple[object, ...] | None:
    """The worktree's status mark: read again when the last read is :data:`MARK_EVERY_S` old,
    or when the pane's screen changed since the last read (``sign``) and that read is
    :data:`MARK_MIN_S` old; else the last one read."""
    last = ctx.memory.mark_reads.get(agent.name)
    if last is not None and not _mark_stale(last, now, sign):
        return last.mark
    mark = _mark(ctx, agent)
    ctx.memory.mark_reads[agent.name] = MarkRead(now, mark, sign)
    return mark


def _mark(ctx: Context, agent: AgentRecord) -> tuple[object, ...] | None:
    """The worktree's status mark, taken before counting (a change during the count shows as
    a change next sweep); None when it cannot be read (then the other signals decide)."""
    try:
        return ctx.vcs.status_mark(agent.worktree, agent.base)
    except (OSError, PawError):
        return None


def _due(
    ctx: Context,
    name: str,
    now: float,
    marks: dict[str, tuple[object, ...] | None],
    signs: dict[str, int],
) -> bool:
    last = ctx.memory.stat_marks[name]
    age = now - last.time
    ttl = STAT_TTL_S if ctx.host is None else HOST_STAT_TTL_S
    if age > ttl or marks[name] != last.mark:
        return True
    sign = signs.get(name)
    return sign is not None and sign != last.screen and age >= STAT_OUTPUT_S


def _count(ctx: Context, agent: AgentRecord, now: float) -> bool:
    """Count the agent's worktree now into the cache; False when git could not."""
    try:
        counts = ctx.vcs.status_counts(agent.worktree, agent.base)
    except PawError:
        return False
    ctx.memory.stat_cache[agent.name] = (now, counts)
    return True


def shown_count(ctx: Context, agent: AgentRecord) -> tuple[float, StatusCounts] | None:
    """The count to show for the agent's worktree: None when there is none, or when the last
    attempt failed (the worktree is gone or git cannot read it: an older count would show
    work that may no longer be there, zeros would show none)."""
    if agent.adopted:
        return None
    last = ctx.memory.stat_marks.get(agent.name)
    if last is not None and not last.ok:
        return None
    return ctx.memory.stat_cache.get(agent.name)


def cached_stat(cached: tuple[float, StatusCounts] | None) -> WorktreeStat:
    if cached is None:
        return WorktreeStat(counted=False)
    c = cached[1]
    return WorktreeStat(c.uncommitted, c.untracked, c.ahead, c.behind, c.insertions, c.deletions)
