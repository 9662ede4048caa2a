"""Hosts over ssh: the multiplexed transport and kept shell, and the ports over it (terminal, git,
process table) with the host's pane events."""
