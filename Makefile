# `make build` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/python -m generator.buildall --out output

test: $(STAMP)
	$(BIN)/ruff check generator tests bench
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/build_vs_reportlab.py
	$(BIN)/python bench/scaling.py 1000 10000

clean:
	rm -rf $(VENV) output
