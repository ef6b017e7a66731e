# The two commands of the README:
#   make demo   install, build the demo casino on the embedded default (SQLite,
#               eager Celery) and serve it on http://127.0.0.1:8000
#   make test   install, make sure PostgreSQL is up, run ruff, mypy (tables/rules),
#               the import contract and the whole test suite (doctests included)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/pitboss

.PHONY: demo test install bench lint

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Re-install whenever the dependencies or their pins change.
$(VENV)/.installed: $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]'
	touch $@

install: $(VENV)/.installed

demo: install
	DJANGO_DEBUG=1 $(BIN)/python manage.py demo --serve

test: install
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} scripts/ensure-postgres.sh
	scripts/ensure-redis.sh
	scripts/ensure-chromium.sh
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(BIN)/pytest

$(VENV)/.bench-installed: $(VENV)/.installed
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test,bench]'
	touch $@

bench: $(VENV)/.bench-installed
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} scripts/ensure-postgres.sh
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(BIN)/python -m bench
