# The two commands of the quick start; each sets itself up on a fresh machine.
#   make wiki   builds the wiki from the example games into site/
#   make test   runs the tests (installing headless Chromium for the wiki's browser tests)

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: wiki test serve setup clean bytecode

$(BIN)/nomic: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

setup: $(BIN)/nomic

# The project's own modules are installed editable, so pip leaves them uncompiled; every command
# would compile them again (0.1 s of each `nomic` run, where PYTHONDONTWRITEBYTECODE is set).
# Files already up to date are skipped.
bytecode: $(BIN)/nomic
	$(BIN)/python -m compileall -q validators site_plugins bench >/dev/null

wiki: bytecode
	$(BIN)/nomic build

serve: bytecode
	$(BIN)/nomic serve

test: bytecode
	sh tools/setup-chromium.sh
	$(BIN)/python -m pytest

clean:
	rm -rf site test-artifacts .pytest_cache
