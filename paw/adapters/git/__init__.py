"""git: the one runner (GitCli) and the pure parsers of its output beside it."""
