"""paw's web front end (`paw serve`): a page over the supervisor's public API.

It sees the supervisor and core only (import-linter: never the adapters, tmux or the CLI);
`paw.cli.serve` composes it with the real supervisor and the token store.
"""
