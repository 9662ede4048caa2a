"""``paw stats``: counts per agent and overall, computed from the audit log's real records."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field

COLUMNS = (
    "prompts_seen",
    "approved",
    "denied",
    "refused",
    "guard_refused",
    "overrides",
    "sensitive_file_aborts",
    "git_writes_confirmed",
    "ended_outside",
    "delivery_unknown",
)


@dataclass(slots=True)
class Counts:
    """One row of the stats table."""

    prompts_seen: int = 0
    approved: int = 0
    denied: int = 0
    refused: int = 0  # nothing sent: unknown id, pane gone, prompt changed, …
    guard_refused: int = 0  # nothing sent because the guard blocked (no override)
    overrides: int = 0  # sent despite a block, with a recorded reason
    sensitive_file_aborts: int = 0
    git_writes_confirmed: int = 0
    ended_outside: int = 0  # prompts that went away while paw sent nothing
    # decisions whose keys went into a host's link that dropped, not reconciled yet: neither
    # approved nor refused until a sweep of the host reads whether they arrived
    delivery_unknown: int = 0
    seen_ids: set[str] = field(default_factory=set, repr=False)
    unknown_ids: set[str] = field(default_factory=set, repr=False)
    # decisions to send, by prompt id, until their outcome says the keys went out
    pending: dict[str, Mapping[str, object]] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict[str, int]:
        """The row as a JSON-ready mapping."""
        row = asdict(self)
        row.pop("seen_ids")
        row.pop("pending")
        row.pop("unknown_ids")
        return row


SENT_OUTCOMES = ("sent", "sent-unconfirmed")
UNKNOWN_OUTCOME = "delivery-unknown"  # counted as nothing until a later outcome reconciles it


def _rules(record: Mapping[str, object]) -> list[str]:
    verdict = record.get("verdict")
    if isinstance(verdict, Mapping):
        rules = verdict.get("rules")
        if isinstance(rules, list):
            return [str(r) for r in rules]
    return []


def _count(row: Counts, record: Mapping[str, object]) -> None:
    event, decision = record.get("event"), record.get("decision")
    rules = _rules(record)
    if event == "prompt-seen":
        row.seen_ids.add(str(record.get("prompt_id")))
        row.prompts_seen = len(row.seen_ids)
    elif event in ("approve", "deny") and decision == "send":
        # Counted once its outcome says the keys went out: a decision paw recorded and never
        # carried out (killed before sending) is not an approval.
        row.pending[str(record.get("prompt_id"))] = record
    elif event == "outcome":
        # the latest outcome of a decision says whether its delivery is still unknown
        prompt_id = str(record.get("prompt_id"))
        if record.get("outcome") == UNKNOWN_OUTCOME:
            row.unknown_ids.add(prompt_id)
        else:
            row.unknown_ids.discard(prompt_id)
        row.delivery_unknown = len(row.unknown_ids)
        decided = (
            row.pending.pop(prompt_id, None) if record.get("outcome") in SENT_OUTCOMES else None
        )
        if decided is not None:
            _count_sent(row, decided, str(decided.get("event")), _rules(decided))
    elif event == "prompt-ended" and record.get("outside"):
        row.ended_outside += 1
    elif event in ("approve", "deny") and decision in ("refuse", "needs-override"):
        row.refused += 1
        if decision == "needs-override":
            row.guard_refused += 1
        if decision != "needs-confirmation" and any("sensitive" in r for r in rules):
            row.sensitive_file_aborts += 1


def _count_sent(row: Counts, record: Mapping[str, object], event: str, rules: list[str]) -> None:
    if event == "deny":
        row.denied += 1
        if any("sensitive" in r for r in rules):
            row.sensitive_file_aborts += 1
        return
    row.approved += 1
    if record.get("override"):
        row.overrides += 1
    if any(r.startswith("git.") for r in rules):
        row.git_writes_confirmed += 1


def compute_stats(records: Iterable[Mapping[str, object]]) -> dict[str, dict[str, int]]:
    """``{"<agent>": row, …, "-": row, "all": row}`` from audit records, oldest first: the
    ``-`` row (only when there is one) holds what names no agent, e.g. a refusal of an unknown
    prompt id, so that the agents' rows add up to ``all``."""
    rows: dict[str, Counts] = {}
    nobody = Counts()
    total = Counts()
    for record in records:
        agent = record.get("agent")
        _count(rows.setdefault(agent, Counts()) if isinstance(agent, str) else nobody, record)
        _count(total, record)
    found = {a: r.to_dict() for a, r in sorted(rows.items())}
    if any(nobody.to_dict().values()):
        found[NO_AGENT] = nobody.to_dict()
    return {**found, "all": total.to_dict()}


NO_AGENT = "-"  # the row of records that name no agent (no agent name can be "-")
