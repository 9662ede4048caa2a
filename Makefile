# Developer shortcuts; the README's commands need none of this.
PY := .venv/bin/python

.PHONY: check test test-fast snapshots bench
check:
	.venv/bin/ruff format --check paw tests scripts && .venv/bin/ruff check . && .venv/bin/mypy && .venv/bin/lint-imports && $(PY) -m pytest
test:
	$(PY) -m pytest
test-fast:
	$(PY) -m pytest -m "not tmux and not git and not e2e"
snapshots:
	$(PY) -m pytest tests/tui --snapshot-update
bench:
	$(PY) scripts/bench_guard.py && $(PY) scripts/bench_detect.py && $(PY) scripts/bench_sweep.py
