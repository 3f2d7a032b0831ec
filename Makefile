# Every target creates .venv when missing and installs the project with its dev extras.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint typecheck clean install native equal-long

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) native

# The campaign loop's hot modules compiled with mypyc (campaign/native): built when missing
# or stale, 30 s to a minute once (the README says the same); without a C compiler the
# campaign runs as plain Python.
# Then the bytecode of the plain modules, written once: where PYTHONDONTWRITEBYTECODE is set,
# every process (each batch worker) would otherwise compile them again as it starts.
native: $(STAMP)
	CAMPAIGN_NATIVE_BUILDING=1 $(BIN)/python -m campaign.native ensure
	$(BIN)/python -m compileall -q battle campaign benchmarks > /dev/null

run: native
	$(BIN)/campaign run

# Two passes: the tests that instrument campaign classes (marked plain_python) on the plain
# modules, then the whole suite on the compiled ones (tests/campaign/test_native.py checks
# that both give the same campaigns).
test: native
	CAMPAIGN_NATIVE=0 $(BIN)/python -m pytest -n 2 -m plain_python $(PYTEST_ARGS) || [ $$? -eq 5 ]
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

bench: native
	$(BIN)/python -m benchmarks

# The compiled battle kernel against the reference engine on 51,000 random seeds, about
# 50,500 battles (issue 27; the CI set is tests/battle/test_engines_equal.py): about 6 minutes
# of CPU on one core.
equal-long: $(STAMP)
	cd tests/battle && ../../$(BIN)/python -m engine_pairs 1000000 51000

lint: $(STAMP)
	$(BIN)/ruff check battle campaign tests benchmarks
	$(BIN)/ruff format --check battle campaign tests benchmarks
	$(BIN)/mypy

typecheck: $(STAMP)
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
