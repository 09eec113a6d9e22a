# One-command set-up: every target creates .venv and installs the project when missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The model of `make demo` and `make up`: openai | local | offline (default: chosen from what is set up).
MODEL ?=
MODEL_ENV := $(if $(MODEL),TICKETSMITH_MODEL_PROVIDER=$(MODEL))

.PHONY: install demo up test test-local-model local-model bench-quality lint clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(MODEL_ENV) $(PY) -m embedded demo

up: $(STAMP)
	$(MODEL_ENV) $(PY) -m embedded up

test: $(STAMP)
	$(PY) -m pytest -q

test-local-model: $(STAMP)
	$(PY) -m pytest -q -m local_model tests/e2e/test_local_model.py

# Builds the llama.cpp server and fetches the model into .models/ (TICKETSMITH_MODELS_DIR).
local-model: $(STAMP)
	$(PY) -m localmodel.install

# The quality benchmark on the embedded stack (MODEL=local by default; TICKETS="a b" for a subset;
# BENCH_ARGS="--candidates 2 --criteria-tests" for the optional loop steps).
bench-quality: $(STAMP)
	$(PY) -m bench.quality --model $(or $(MODEL),local) $(BENCH_ARGS) $(TICKETS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy config.py worker.py starter.py workflows activities graphs integrations webhooks emulators localmodel
	$(VENV)/bin/mypy embedded observability encryption tickets

clean:
	rm -rf $(VENV) .data
