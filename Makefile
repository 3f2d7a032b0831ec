# Every target creates .venv when missing and installs the project with its dev extras.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint typecheck clean install native referee-long fuzz equal-long \
	test-without-numba

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

# The whole suite on what ships: the compiled modules, doctests of compiled modules included
# (campaign/conftest.py); tests/campaign/test_native.py checks that the plain modules give the
# same campaigns.
test: native
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

# The product with numba absent (issue 27): tests/without_numba.py hides numba and llvmlite
# from pytest and every process it starts, so battles run on the reference engine. A subset
# that proves the point in a few minutes: the battle tests that are not about the compiled
# kernel itself (its own are left out by tests/battle/conftest.py), the battle and campaign
# CLIs, and the stored campaign fingerprint (the same campaigns, hash for hash, as with the
# kernel).
# (Two runs: tests/battle and tests/campaign each have a conftest.py, which one pytest run of
# a few files of both could import under one name.)
test-without-numba: native
	$(BIN)/python tests/without_numba.py -n 2 -q -p no:cacheprovider $(PYTEST_ARGS) tests/battle
	$(BIN)/python tests/without_numba.py -n 2 -q -p no:cacheprovider $(PYTEST_ARGS) \
	  tests/campaign/test_cli_run.py tests/campaign/test_fingerprint.py

# The independent campaign referee over 3,000 campaigns (750 seeds on each of its four maps,
# every pairing of tempers): 0 departures from RULES.md (tests/referee/test_campaign_referee.py).
referee-long: native
	REFEREE_SEEDS=750 $(BIN)/python -m pytest -q -p no:cacheprovider tests/referee/test_campaign_referee.py

bench: native
	$(BIN)/python -m benchmarks

# The long fuzz profile (local, hours on one core): over 10,000 cases of maps, --set keys,
# force flags, event streams, results files and batch specs, each under the harness's time
# and memory limits; every outcome counted in fuzz-census.jsonl and summed at the end.
fuzz: native
	rm -f fuzz-census.jsonl
	FUZZ_PROFILE=huge FUZZ_CENSUS=$(CURDIR)/fuzz-census.jsonl $(BIN)/python -m pytest tests/fuzz -p no:xdist -q $(PYTEST_ARGS)
	$(BIN)/python tests/fuzz/census.py fuzz-census.jsonl

# The compiled battle kernel against the reference engine on 51,000 random seeds, about
# 50,500 battles (issue 27; the CI set is tests/battle/test_engines_equal.py): about 6 minutes
# of CPU on one core.
equal-long: $(STAMP)
	cd tests/battle && ../../$(BIN)/python -m engine_pairs 1000000 51000

lint: $(STAMP)
	$(BIN)/ruff check battle campaign tests benchmarks
	$(BIN)/ruff format --check battle campaign tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
