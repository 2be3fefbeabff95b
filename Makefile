# Two commands on a fresh machine: `make serve` and `make test`. Everything else builds on demand.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install serve cluster test fuzz lint bench sdk clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

serve: install
	$(BIN)/leadwire serve

# Scale-out on one machine: 2 API processes on one address and 2 workers over the local PostgreSQL and
# Redis (the database is created and migrated first). docs/operations.md explains the process model.
CLUSTER_DATABASE_URL ?= postgresql+asyncpg://postgres@127.0.0.1:5432/leadwire
CLUSTER_REDIS_URL ?= redis://127.0.0.1:6379/0
cluster: install
	LEADWIRE_DATABASE_URL=$(CLUSTER_DATABASE_URL) LEADWIRE_REDIS_URL=$(CLUSTER_REDIS_URL) \
		$(BIN)/leadwire cluster --api 2 --workers 2

# Two processes (pytest-xdist), a test file per process at a time: the suite waits on subprocesses and
# the databases more than it computes, so two halve it on 2 cores (each has its own PostgreSQL database).
# Files go out in collection order (tests/conftest.py puts the long ones first), not by test count.
test: install
	$(BIN)/pytest -n 2 --dist loadfile --no-loadscope-reorder

# The property tests, drawing fresh examples (10x the CI number each) instead of `make test`'s fixed ones;
# a failure found here is pinned in its test as an @example (tests/support/fuzzing.py).
fuzz: install
	LEADWIRE_FUZZ=1 LEADWIRE_FUZZ_EXAMPLES=50 $(BIN)/pytest tests/platform/test_fuzz_inputs.py \
		tests/platform/billing/test_ledger_stateful.py tests/platform/test_api_state_machine.py \
		tests/platform/test_openapi_fuzz.py

lint: install
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

# The SDK's creation methods and the CLI's options from the server's request models: rewrites
# src/leadwire/client/generated.py from the app's OpenAPI document (tests/client/test_generated_current.py
# fails until it is run after a request model changes).
sdk: install
	$(BIN)/python -m leadwire.sdk_codegen

bench: install
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
