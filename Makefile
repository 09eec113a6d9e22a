# One-command set-up: every target creates .venv and installs the project when missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
UV := $(VENV)/bin/uv
# Every top-level script in bench/ that starts what it measures (make bench); repos downloads
# real projects (make bench-repos).
BENCHES := $(filter-out bench/__init__.py bench/repos.py bench/revision_speed.py bench/ablation.py bench/failover.py,$(wildcard bench/*.py))
# The model of `make demo` and `make up`: openai | local | offline (default: chosen from what is set up).
MODEL ?=
MODEL_ENV := $(if $(MODEL),TICKETSMITH_MODEL_PROVIDER=$(MODEL))

.PHONY: install demo up test test-unit test-e2e test-local-model local-model lint bench bench-quality bench-mvp bench-ablation bench-failover bench-repos clean sandbox-tool

# Workspace commands (tests, environment set-up) run in bubblewrap: installed here when we are
# root with apt-get; otherwise this says what to do (or set TICKETSMITH_SANDBOX=none).
sandbox-tool:
	@command -v bwrap >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing bubblewrap (apt-get)"; \
	    apt-get install -y -q bubblewrap >/dev/null 2>&1 \
	      || { apt-get update -q >/dev/null && apt-get install -y -q bubblewrap >/dev/null; }; \
	  else \
	    echo "bubblewrap (bwrap) is missing: install it (e.g. sudo apt-get install bubblewrap," \
	      "or dnf install bubblewrap), or set TICKETSMITH_SANDBOX=none to run tests unsandboxed" >&2; \
	  fi; }

# uv (from PyPI, bootstrapped into the venv by pip) installs in seconds, from the indexes pip
# is configured with (python -m deploy.uv_env); pip does the install when uv cannot be had or fails.
# Bytecode is compiled at install (as pip does by default), the project's own too (not the bench's
# ticket repositories or the emulators' seed, which are copied into repositories): where
# PYTHONDONTWRITEBYTECODE is set, nothing is cached on import, and every process of a stack
# would compile its imports again.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	{ test -x $(UV) || $(PY) -m pip install --quiet uv; } \
		&& eval "$$($(PY) -m deploy.uv_env)" \
		&& $(UV) pip install --quiet --compile-bytecode --python $(PY) -e '.[dev]' \
	|| { echo "uv unavailable or failed: installing with pip"; \
		$(PY) -m pip install --quiet --upgrade pip && $(PY) -m pip install --quiet -e '.[dev]'; }
	$(PY) -m compileall -q -j 0 -x '/(\.venv|\.data|\.git|node_modules)/|bench/quality/tickets/|emulators/seed/|tests/data/' . > /dev/null
	touch $(STAMP)

install: $(STAMP) sandbox-tool

demo: $(STAMP) sandbox-tool
	$(MODEL_ENV) $(PY) -m embedded demo $(if $(TRACKER),--tracker $(TRACKER))

# WORKERS=3 starts three workers, each with its own data directory (.data/workers/<n>).
up: $(STAMP) sandbox-tool
	$(MODEL_ENV) $(PY) -m embedded up $(if $(WORKERS),--workers $(WORKERS))

# The suite in parallel (pytest-xdist): a test file stays on one worker, so a module's stack
# starts once; end-to-end stacks mostly wait, so there are more workers than cores.
# TESTS=tests/graphs for one package, TEST_WORKERS=1 for one process; the slowest tests are
# listed at the end. Bytecode is written (PYTHONDONTWRITEBYTECODE off) so that the stacks the
# suite starts do not each compile the project again.
TEST_WORKERS ?= 3
TESTS ?=
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15

test: $(STAMP) sandbox-tool
	$(PYTEST) $(TESTS)

# Everything but the end-to-end tests (no stacks): a few minutes.
test-unit: $(STAMP) sandbox-tool
	$(PYTEST) --ignore=tests/e2e $(TESTS)

# The end-to-end tests alone: dev server, real worker, emulators and git, a stack per module.
test-e2e: $(STAMP) sandbox-tool
	$(PYTEST) tests/e2e

test-local-model: $(STAMP)
	$(PY) -m pytest -q -m local_model tests/e2e/test_local_model.py

# Builds the llama.cpp server and fetches the model into .models/ (TICKETSMITH_MODELS_DIR).
local-model: $(STAMP)
	$(PY) -m localmodel.install

# The quality benchmark on the embedded stack (MODEL=local by default; TICKETS="a b" for a subset;
# BENCH_ARGS="--no-example-tests" leaves the acceptance checks out of the loop,
# "--revision-minutes 6 --ticket-minutes 10" to bound the time a ticket takes; RUNS=3 runs every
# ticket three times, each run with its own model seed, and reports each ticket's resolve rate;
# SPLIT=dev or SPLIT=test runs one split of bench/quality/splits.toml, the test one as one rate).
bench-quality: $(STAMP)
	$(PY) -m bench.quality --model $(or $(MODEL),local) $(if $(RUNS),--runs $(RUNS)) $(if $(SPLIT),--split $(SPLIT)) $(BENCH_ARGS) $(TICKETS)

# The MVP builder on its benchmark's prompts (MODEL=local by default; PROMPTS="a b" for a subset),
# each project scored on what landed in output/bench-mvp/.
bench-mvp: $(STAMP) sandbox-tool
	$(PY) -m bench.mvp --model $(or $(MODEL),local) $(BENCH_ARGS) $(PROMPTS)

# The implementation loop alone on the quality tickets under each optional step's setting
# (STEPS=defaults,no-example-tests; RUNS=3 with BENCH_ARGS="--temperature 0.5").
bench-ablation: $(STAMP)
	$(PY) -m bench.ablation $(if $(STEPS),--steps $(STEPS)) $(if $(RUNS),--runs $(RUNS)) $(BENCH_ARGS) $(TICKETS)

# Tickets on three workers, the busiest killed mid-loop: side effects once each, calls repeated
# and seconds to recover (BENCH_ARGS="--tickets 6" for a quick run; 20 by default).
bench-failover: $(STAMP) sandbox-tool
	$(PY) -m bench.failover $(BENCH_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy config temporal_settings.py worker.py starter.py workflows activities graphs integrations webhooks emulators localmodel
	$(VENV)/bin/mypy embedded observability encryption tickets cli temporal toolserver research faults access vocabulary llm bench harness

# Real open-source projects set up and tested as a ticket would, against a reference run
# (REPOS="name==version ..." for others; source distributions cached in .data/bench-repos).
bench-repos: $(STAMP) sandbox-tool
	$(MODEL_ENV) $(PY) -m bench.repos $(BENCH_ARGS) $(REPOS)

# Prints each script's figures; fails only when a script could not measure.
bench: $(STAMP)
	@status=0; for script in $(BENCHES); do \
		$(PY) -m bench.$$(basename $$script .py) || status=1; \
	done; exit $$status

clean:
	rm -rf $(VENV) .data
