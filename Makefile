# Sizzle's front door. Every target creates .venv and installs what it needs when missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PROTOS := $(shell find protos -name '*.proto' | sort)
DEPS   := $(VENV)/.deps-installed
GEN    := gen/.stamp
WEB    := clients/web
# The web client is rebuilt when a source, its lockfile or a proto changed (npm ci, then buf + tsc + vite).
WEB_SRC := $(shell find $(WEB)/src -path $(WEB)/src/gen -prune -o -type f -print 2>/dev/null) \
	$(wildcard $(WEB)/*.json $(WEB)/*.ts $(WEB)/*.yaml $(WEB)/index.html)
WEB_BUILD := $(WEB)/dist/index.html
GAME   ?=
PLAYERS ?= 40
SECONDS ?= 60

.DEFAULT_GOAL := help
.PHONY: help run test gen lint bench clean deploy-check loadtest train tournament ladder balance playthroughs snapshots client-package web

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

$(WEB)/node_modules/.installed: $(WEB)/package-lock.json
	cd $(WEB) && npm ci --no-audit --no-fund
	@touch $@

$(WEB_BUILD): $(WEB_SRC) $(PROTOS) $(WEB)/node_modules/.installed
	cd $(WEB) && npm run build

web: $(WEB_BUILD) ## build the web client (Node 20 and npm) into clients/web/dist when missing or stale

run: $(GEN) $(WEB_BUILD) ## start the whole platform on this machine with the embedded defaults (gRPC and web ports)
	$(BIN)/sizzle serve

# The test suite takes the training extras too: its training tests run torch (the runtime never does).
test: $(GEN) $(WEB_BUILD) $(VENV)/.train-installed ## run the whole test suite (starts Redis and PostgreSQL when none answers)
	@scripts/ensure_redis.sh
	@scripts/ensure_chromium.sh
	@scripts/ensure_postgres.sh
	@scripts/ensure_jq.sh
	$(BIN)/python -m pytest -n 2 -q $(PYTEST_ARGS)

lint: $(GEN) ## ruff, mypy, buf lint and buf breaking against the last release (protos/releases/)
	$(BIN)/ruff check apps services workers clients tests scripts deploy
	$(BIN)/mypy apps services workers clients
	scripts/buf.sh lint
	scripts/buf_breaking.sh

bench: $(GEN) ## benchmarks, reported as ratios against baselines measured in the same run
	@scripts/ensure_redis.sh
	@scripts/ensure_postgres.sh
	$(BIN)/python -m apps.bench $(if $(GAME),--game $(GAME),)

loadtest: $(GEN) ## local topology on loopback under simulated players (PLAYERS=40 SECONDS=60); stops by itself
	@scripts/ensure_redis.sh
	$(BIN)/python -m apps.loadtest --players $(PLAYERS) --seconds $(SECONDS)

$(VENV)/.train-installed: $(DEPS)
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[train,dev]'
	@touch $@

train: $(GEN) $(VENV)/.train-installed ## train GAME's policy on the CPUs and ship it to workers/models/ (GAME=grill_party)
	@test -n "$(GAME)" || { echo "usage: make train GAME=<game id>"; exit 2; }
	$(BIN)/python -m workers.training.train --game $(GAME) --workers 2

tournament: $(GEN) ## the shipped models against heuristic and random bots (GAME=<id>, default every game)
	$(BIN)/python -m workers.training.tournament $(if $(GAME),--game $(GAME),)

ladder: $(GEN) ## difficulties rated: random, heuristic, easy, medium, hard, search at mixed tables; writes matchmaking's bot ratings (GAME=<id>, TUNE=1)
	$(BIN)/python -m workers.training.ladder $(if $(GAME),--game $(GAME),) --search-games $(or $(SEARCH_GAMES),10) $(if $(TUNE),--tune,) --write

balance: $(GEN) ## the balance gate: single-minded plans and seat tables against heuristic bots, 1,000 games each (GAME=<id>)
	$(BIN)/python -m workers.training.balance $(if $(GAME),--game $(GAME),)

playthroughs: $(GEN) ## regenerate the golden playthroughs after a rules version bump (GAME=<id>, default every game)
	$(BIN)/python -m tests.rules.playthroughs $(if $(GAME),--game $(GAME),)

snapshots: $(GEN) ## regenerate the terminal client's golden screens after a screen or a game changed (GAME=<id>)
	$(BIN)/python -m tests.clients.snapshots $(if $(GAME),--game $(GAME),)

client-package: $(GEN) ## build sizzle-client, the installable Python stubs and example-client helpers, into dist/
	$(BIN)/python scripts/build_client_package.py

deploy-check: ## build every kustomize overlay and validate manifests, rules, dashboard and Dockerfile offline
	scripts/deploy_check.sh

clean: ## remove generated code and the environment
	rm -rf gen $(VENV) $(WEB)/node_modules $(WEB)/dist $(WEB)/src/gen
