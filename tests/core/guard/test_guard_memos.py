"""The guard's memos (fast-path readings, verdicts by findings, rules by name) are bounded and
never carry one call's judgement, directory or worktrees into another's verdict."""

from __future__ import annotations

from paw.core.guard.shell import clear_memos, evaluate_command, fastpath

HOME = "/home/dev"
ALICE = f"{HOME}/src/repo-paw/alice"
OTHERS = (ALICE, f"{HOME}/src/repo-paw/bob")


def _shown(command: str, **kwargs: object) -> tuple[str, tuple[tuple[str, str, str], ...]]:
    verdict = evaluate_command(command, **kwargs)  # type: ignore[arg-type]
    return verdict.action.value, tuple((f.rule, f.action.value, f.reason) for f in verdict.findings)


def test_a_judged_command_word_does_not_change_the_memoised_reading() -> None:
    # The look-alike command word is folded in place on the judged command (`ｒｍ` becomes
    # `rm`); the fast path's memoised reading of the text must keep the word as written, or
    # the second judgement loses its look-alike finding.
    clear_memos()
    command = "'ｒｍ' -rf build"
    first = _shown(command)
    assert any(rule == "shell.lookalike-command" for rule, _, _ in first[1])
    assert fastpath.fast_parts(command) is not None  # read by the fast path, memoised
    assert _shown(command) == first
    assert _shown(command) == first


def test_the_same_text_is_judged_in_each_call_s_own_context() -> None:
    clear_memos()
    command = "cat ../bob/notes.txt && rm -rf ~/src/repo-paw/bob/build"
    alone = _shown(command)
    supervised = _shown(command, cwd=ALICE, others=OTHERS, home=HOME)
    in_root = _shown(command, cwd="/")
    assert supervised != alone
    assert any(rule == "shell.other-worktree" for rule, _, _ in supervised[1])
    assert not any(rule == "shell.other-worktree" for rule, _, _ in alone[1])
    # the same answers again, in another order: nothing of one call leaks into the next
    assert _shown(command, cwd="/") == in_root
    assert _shown(command) == alone
    assert _shown(command, cwd=ALICE, others=OTHERS, home=HOME) == supervised
    clear_memos()
    assert _shown(command, cwd=ALICE, others=OTHERS, home=HOME) == supervised
    assert _shown(command) == alone


def test_the_fast_path_memo_is_bounded() -> None:
    clear_memos()
    for index in range(fastpath.FAST_MEMO_SIZE * 2 + 7):
        evaluate_command(f"echo {index}")
        assert len(fastpath._MEMO) <= fastpath.FAST_MEMO_SIZE
    long_text = "echo " + "a" * fastpath.FAST_MEMO_MAX_CHARS
    evaluate_command(long_text)
    assert long_text not in fastpath._MEMO
