.PHONY: test lint venv
venv:
	python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]'
test: venv
	.venv/bin/python -m pytest
lint:
	.venv/bin/ruff check ktir arch_descriptions scheduler spyrecode emulator tests bench
