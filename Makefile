# `make build` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test lint bench fuzz clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/python -m generator.pipeline.buildall --out output

# the suite on every core (pytest-xdist); the tests of a file whose module fixtures make builds
# run on one worker (pytest.mark.xdist_group), so that those builds are made once
test: $(STAMP)
	$(BIN)/ruff check generator tests bench
	$(BIN)/python -m pytest -q -n auto --dist loadgroup

# hostile-input campaign: mutated shipped packs through whole pnp runs in forked children held
# to 10 s of CPU and 1 GiB; prints failures by class (all must be zero). FUZZ_CASES=N to change.
FUZZ_CASES ?= 3000
fuzz: $(STAMP)
	$(BIN)/python tests/fuzzing.py --cases $(FUZZ_CASES) --jobs 2

bench: $(STAMP)
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/build_vs_reportlab.py
	$(BIN)/python bench/datagame_validate.py
	$(BIN)/python bench/rebuild.py
	$(BIN)/python bench/scaling.py 1000 10000

clean:
	rm -rf $(VENV) output
