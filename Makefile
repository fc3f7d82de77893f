# The README's commands. Every step is skipped when its inputs have not changed.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMPS := .make
PORT ?= 8000
# One process whose threads (gunicorn.conf.py) serve the requests: rate limits kept in memory:// are
# then counted once for the whole shop, as Redis counts them for a production fleet.
WORKERS ?= 1
export FLASK_APP := wsgi

CLIENT_SOURCES := $(shell find client -type f 2>/dev/null)

.PHONY: run test dev build setup migrate seed clean

run: setup migrate ## Serve the shop with demo data on 127.0.0.1:$(PORT); gunicorn also runs the job consumer
	$(BIN)/flask seed-demo --if-empty
	exec $(BIN)/gunicorn --no-control-socket --workers $(WORKERS) --bind 127.0.0.1:$(PORT) \
		--access-logfile - wsgi:app

test: setup ## Run every test (TEST_DATABASE_URL=postgresql://... runs them on PostgreSQL)
	$(BIN)/python -m pytest

dev: setup migrate ## Debug server + job consumer + esbuild watching; online payment against the local fake: see README "Online payment in development"
	$(BIN)/flask seed-demo --if-empty
	trap 'kill 0' EXIT; npm run --silent watch & $(BIN)/python -m bookstore.jobs.worker & \
		$(BIN)/flask run --debug --port $(PORT)

setup: $(STAMPS)/venv build

build: bookstore/static/dist/index.html

migrate: $(STAMPS)/venv
	$(BIN)/flask db upgrade

$(STAMPS)/venv: requirements.txt requirements-dev.txt
	@mkdir -p $(STAMPS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(STAMPS)/npm: package.json package-lock.json
	@mkdir -p $(STAMPS)
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

bookstore/static/dist/index.html: $(STAMPS)/npm $(CLIENT_SOURCES)
	npm run --silent build

clean:
	rm -rf $(STAMPS) $(VENV) node_modules bookstore/static/dist
