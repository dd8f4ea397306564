# Sizzle's front door. Every target creates .venv and installs what it needs when missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PROTOS := $(shell find protos -name '*.proto' | sort)
DEPS   := $(VENV)/.deps-installed
GEN    := gen/.stamp
GAME   ?=
PLAYERS ?= 40
SECONDS ?= 60

.DEFAULT_GOAL := help
.PHONY: help run test gen lint bench clean deploy-check loadtest train tournament balance playthroughs

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

$(DEPS): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	@mkdir -p gen/sizzle && touch gen/sizzle/__init__.py
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $@

$(GEN): $(PROTOS) $(DEPS) scripts/gen_protos.py
	$(BIN)/python scripts/gen_protos.py

gen: $(DEPS) ## regenerate the Python code of protos/ into gen/ (never edit gen/ by hand)
	$(BIN)/python scripts/gen_protos.py

run: $(GEN) ## start the whole platform on this machine with the embedded defaults
	$(BIN)/sizzle serve

test: $(GEN) ## run the whole test suite (starts Redis when none answers)
	@scripts/ensure_redis.sh
	$(BIN)/python -m pytest -n 2 -q $(PYTEST_ARGS)

lint: $(GEN) ## ruff, mypy and buf lint
	$(BIN)/ruff check services workers clients tests scripts
	$(BIN)/mypy services workers clients
	scripts/buf.sh lint

bench: $(GEN) ## benchmarks, reported as ratios against baselines measured in the same run
	@scripts/ensure_redis.sh
	$(BIN)/python -m services.bench $(if $(GAME),--game $(GAME),)

loadtest: $(GEN) ## local topology on loopback under simulated players (PLAYERS=40 SECONDS=60); stops by itself
	@scripts/ensure_redis.sh
	$(BIN)/python -m services.loadtest --players $(PLAYERS) --seconds $(SECONDS)

$(VENV)/.train-installed: $(DEPS)
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[train,dev]'
	@touch $@

train: $(GEN) $(VENV)/.train-installed ## train GAME's policy on the CPUs and ship it to workers/models/ (GAME=grill_party)
	@test -n "$(GAME)" || { echo "usage: make train GAME=<game id>"; exit 2; }
	$(BIN)/python -m workers.training.train --game $(GAME) --workers 2

tournament: $(GEN) ## the shipped models against heuristic and random bots (GAME=<id>, default every game)
	$(BIN)/python -m workers.training.tournament $(if $(GAME),--game $(GAME),)

balance: $(GEN) ## the balance gate: single-minded plans and seat tables against heuristic bots, 1,000 games each (GAME=<id>)
	$(BIN)/python -m workers.training.balance $(if $(GAME),--game $(GAME),)

playthroughs: $(GEN) ## regenerate the golden playthroughs after a rules version bump (GAME=<id>, default every game)
	$(BIN)/python -m tests.rules.playthroughs $(if $(GAME),--game $(GAME),)

deploy-check: ## build every kustomize overlay and validate manifests, rules, dashboard and Dockerfile offline
	scripts/deploy_check.sh

clean: ## remove generated code and the environment
	rm -rf gen $(VENV)
