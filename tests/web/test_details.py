"""The selected agent's pane tail and diff stat (pure)."""

from __future__ import annotations

from paw.web.details import FileStat, diff_stat, pane_tail
from paw.web.render import inert

DIFF = """diff --git a/README.md b/README.md
index 1111111..2222222 100644
--- a/README.md
+++ b/README.md
@@ -1,2 +1,2 @@
-# demo
+# demo, again
---- a removed line that looks like a header
 kept
diff --git a/one.txt b/one.txt
new file mode 100644
index 0000000..e69de29
diff --git a/img.png b/img.png
index 3333333..4444444 100644
Binary files a/img.png and b/img.png differ
"""


def test_diff_stat_counts_each_file() -> None:
    assert diff_stat(DIFF) == (
        FileStat("README.md", 1, 2),
        FileStat("one.txt", 0, 0),
        FileStat("img.png", 0, 0, binary=True),
    )
    assert diff_stat("") == ()


def test_the_pane_tail_drops_tmux_colours_and_keeps_the_rest_for_inert_rendering() -> None:
    screen = "\n".join(f"line {i}" for i in range(60))
    screen += "\n\x1b[1;31mred\x1b[0m \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n"
    screen += "evil \x1b]52;c;cm0gLXJmIH4=\x07 \u202eexe.txt <b>\n\n   \n"
    tail = pane_tail(screen, lines=3)
    assert tail.split("\n") == [
        "line 59",
        "red link",
        "evil \x1b]52;c;cm0gLXJmIH4=\x07 \u202eexe.txt <b>",
    ]
    shown = inert(tail)
    assert "\\x1b]52;c;cm0gLXJmIH4=\\x07" in shown
    assert "\\u202eexe.txt &lt;b&gt;" in shown
    assert "\x1b" not in shown
    assert "\u202e" not in shown
