# The two commands of the quick start; each sets itself up on a fresh machine.
#   make wiki   builds the wiki from the example games into site/
#   make test   runs the tests (installing headless Chromium for the wiki's browser tests)

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: wiki test serve setup clean

$(BIN)/nomic: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

setup: $(BIN)/nomic

wiki: $(BIN)/nomic
	$(BIN)/nomic build

serve: $(BIN)/nomic
	$(BIN)/nomic serve

test: $(BIN)/nomic
	sh tools/setup-chromium.sh
	$(BIN)/python -m pytest

clean:
	rm -rf site test-artifacts .pytest_cache
