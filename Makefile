# Two commands do all the set-up on a fresh machine with Python 3.11+ and make:
#   make run    start the bot (reads .env); make run ARGS=--sync also registers the commands
#   make test   lint, type-check and run every test
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LOCK   := requirements.lock

.PHONY: run test lint typecheck pytest bench gallery messages clean venv lock

# A venv made by a Python older than the project needs (or whose Python is gone) is made again;
# then (in a new make, which sees the venv as it is now) it is set up if needed.
venv:
	@if [ -e $(BIN)/python ] && ! $(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then \
		echo "$(VENV) was made by $$($(BIN)/python --version 2>&1 || echo 'a Python that is gone'); dvonn-bot needs Python 3.11 or newer: making it again with $(PYTHON)."; \
		rm -rf $(VENV); \
	fi
	@$(MAKE) --no-print-directory -s $(STAMP)

# Exactly the versions in requirements.lock, checked against their hashes; then the project
# itself, built with the locked setuptools.
$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Upgrade the pinned versions to the newest allowed by pyproject.toml; then make test, and commit
# requirements.lock if it passes.
lock: venv
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv
	$(BIN)/uv pip compile pyproject.toml --extra dev --universal --generate-hashes \
		--python-version 3.11 --upgrade -o $(LOCK)
	$(BIN)/uv pip compile pyproject.toml --universal --generate-hashes \
		--python-version 3.11 -c $(LOCK) -o requirements-run.lock

# The strongest level's compiled search (the levels search in Python where it cannot be built).
NATIVE := ai/native/_engine.so
$(NATIVE): ai/native/engine.c ai/native/placement_model.h $(STAMP)
	$(BIN)/python -m ai.native.build

run: venv
	@$(MAKE) --no-print-directory -s $(NATIVE)
	$(BIN)/python -m bot $(ARGS)

test: venv
	@$(MAKE) --no-print-directory lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# In a worker process per core (pytest-xdist's -n auto); `make test PYTEST_ARGS=-n0` runs the tests
# serially, in one process. PYTEST_ARGS takes any other option of pytest's too (-x, -k NAME...).
pytest: $(STAMP) $(NATIVE)
	$(BIN)/python -m pytest -q -n auto $(PYTEST_ARGS)

bench: $(STAMP) $(NATIVE)
	$(BIN)/python -m tools.bench.rules
	$(BIN)/python -m tools.bench.render
	$(BIN)/python -m tools.bench.ai --budget 0.2 --positions 20

gallery: $(STAMP)
	$(BIN)/python -m tools.gallery out/

# After changing any text a player sees: extract, update every catalogue, then translate.
messages: $(STAMP)
	$(BIN)/python -m bot.i18n.tools update

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis $(NATIVE)
