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

# the suite on every core (pytest-xdist); each test file runs on one worker, so that the builds
# its tests share (module fixtures) are made once; files go out in the order tests/conftest.py
# gives (the slowest first), not xdist's (the most tests first). (--dist loadgroup would spread
# the rest one by one, but xdist 3.8 cannot group under pytest 9.2: its @group goes unread.)
test: $(STAMP)
	$(BIN)/ruff check generator tests bench
	$(BIN)/python -m pytest -q -n auto --dist loadfile --no-loadscope-reorder

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
