.PHONY: test lint venv dev
PY := .venv/bin
SRC := ktir arch_descriptions scheduler spyrecode emulator ktir_tools tests bench

venv:
	python3 -m venv .venv && $(PY)/pip install -q -e '.[test]'
dev:
	python3 -m venv .venv && $(PY)/pip install -q -e '.[dev]'
test: venv
	$(PY)/python -m pytest
# ruff (style and imports), pyright (types), import-linter (the layers of CONVENTIONS.md)
lint:
	$(PY)/ruff check $(SRC)
	$(PY)/pyright
	$(PY)/lint-imports
