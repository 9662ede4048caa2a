"""tmux: the terminal port (structure through libtmux, the hot path through one tmux call or a
control-mode client), pane events, the sweep's chained captures and its formats."""
