"""`paw serve`'s sign-in lines: the URL with the new token, and as a QR code (for a phone's
camera) that, read back module by module, is exactly that URL's code; nothing of it fetched."""

from __future__ import annotations

import segno

from paw.cli.serve import announce

BASE = "http://127.0.0.1:8765/"
TOKEN = "Hk3-abcdefghijklmnopqrstuvwxyz0123456789_AB"  # noqa: S105 - a made-up one
HALF = {" ": (1, 1), "\u2580": (0, 1), "\u2584": (1, 0), "\u2588": (0, 0)}  # (top, bottom) dark


def _modules(drawn: list[str]) -> list[tuple[int, ...]]:
    """The dark (1) and light (0) modules the half-block lines draw, quiet zone included."""
    rows: list[tuple[int, ...]] = []
    for line in drawn:
        pairs = [HALF[c] for c in line]
        rows += [tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)]
    return rows


def test_the_sign_in_url_is_printed_and_drawn_as_its_qr_code() -> None:
    text = announce(BASE, TOKEN, qr=True)
    lines = text.splitlines()
    url = f"{BASE}login?token={TOKEN}"
    assert lines[0] == f"paw serve: {url}"  # the first line stays what scripts read
    drawn = [line for line in lines if line and set(line) <= set(HALF)]
    assert drawn, text
    code = segno.make(url, error="l", micro=False)
    border = 4
    size = code.symbol_size(scale=1, border=border)[0]
    expected = [tuple(int(bool(v)) for v in row) for row in code.matrix_iter(border=border)]
    got = _modules(drawn)[: len(expected)]
    assert all(len(row) == size for row in got)
    assert got == expected  # every module of the URL's own code (dark as a space)
    assert "--no-qr" in lines[-1]


def test_no_qr_code_without_a_new_token_or_when_left_out() -> None:
    assert "\u2588" not in announce(BASE, TOKEN, qr=False)
    quiet = announce(BASE, None, qr=True)  # no token to show: nothing to scan
    assert "\u2588" not in quiet
    assert quiet.startswith(f"paw serve: {BASE} ")
