# Two commands on a fresh machine: `make serve` and `make test`. Everything else builds on demand.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install serve test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

serve: install
	$(BIN)/leadwire serve

test: install
	$(BIN)/pytest

lint: install
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: install
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
