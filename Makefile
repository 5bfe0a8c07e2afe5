# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test test-fast lint db-upgrade

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/courtside up

# PostgreSQL (COURTSIDE_DATABASE_URL): create or upgrade the schema before `make run`.
db-upgrade: $(VENV)/.installed
	$(BIN)/courtside db upgrade

# Every test, in two runs: what runs in the test process (domain, storage, API, console pages, contract, docs) on two
# workers (pytest-xdist; the machine has 2 CPUs, each worker its own PostgreSQL cluster and temp dirs), then the
# end-to-end tests (real servers, consoles, browsers, kills) one at a time, as they time a real machine.
test: $(VENV)/.installed-test
	COURTSIDE_TEST_BACKENDS=tinydb,postgres $(BIN)/python -m pytest -q -n 2 --durations=25 --ignore=tests/e2e
	COURTSIDE_TEST_BACKENDS=tinydb,postgres $(BIN)/python -m pytest -q --durations=25 tests/e2e

# Unit and API tests only (no server processes, browser or fuzzing), on TinyDB only: a quick check while working.
# The PostgreSQL copy of the API and domain tests runs in `make test` (the README's command) and CI (`.ci/run`).
# Two workers (pytest-xdist; the machine has 2 CPUs); schemathesis's plugin is not loaded (no fuzzing here).
test-fast: $(VENV)/.installed-test
	COURTSIDE_TEST_BACKENDS=tinydb $(BIN)/python -m pytest -q -n 2 -p no:schemathesis tests/domain tests/storage tests/api tests/test_architecture.py

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy api domain storage scheduler cli console
	$(BIN)/mypy --strict domain storage scheduler console api cli bench tests
