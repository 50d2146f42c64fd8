# The README's commands. Each one sets up what it needs from a fresh clone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

DEMO_STAMP := $(VENV)/.installed-demo

.PHONY: demo test test-slow test-faults test-pure compile typecheck bench docs setup swi wheel-check clean

## setup: a venv with logicpy (editable) and every extra the tests use.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[all,test]'
	touch $(STAMP)

## The demo needs logicpy alone: no extras (a full setup, when there is one, serves too).
$(DEMO_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e .
	touch $(DEMO_STAMP)

setup: $(STAMP)

## swi: install SWI-Prolog (Debian's swi-prolog-nox) when it is missing and we are root.
swi:
	@bash scripts/ensure-swi.sh

## demo: the main job.
demo: $(if $(wildcard $(STAMP)),$(STAMP),$(DEMO_STAMP))
	$(VENV)/bin/logicpy demo

## typecheck: mypy over the package (configured in pyproject.toml; kept clean).
typecheck: $(STAMP)
	$(VENV)/bin/mypy

## test: the type check, then the whole fast suite (SWI-Prolog tests skip with a reason when it cannot be installed).
test: $(STAMP) swi typecheck
	scripts/pytest.sh $(PY) -m "not slow" -q

## test-pure: the core's fast tests with every module run from its source, as where no C compiler built it.
test-pure: $(STAMP)
	LOGICPY_PURE=1 scripts/pytest.sh $(PY) tests/core logicpy/core -m "not slow" -q

## compile: compile the core's modules again in place after editing them (an install compiles them too).
compile: $(STAMP)
	$(PY) setup.py --quiet build_ext --inplace

## test-slow: the slow tests only.
test-slow: $(STAMP) swi
	LOGICPY_ALLOW_EMPTY=1 scripts/pytest.sh $(PY) -m slow -q

## test-faults: the fault suite: every command against generated hostile inputs (one line, exit 1 or 2,
## no traceback, under 10 s and 1 GiB each; a few minutes).
test-faults: $(STAMP) swi
	scripts/pytest.sh $(PY) tests/faults -m faults -q

## docs: the documentation site (README's guide, docs/*.md) built into site/, failing on any broken link or anchor.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

## bench: every benchmark under bench/, printing figures.
bench: $(STAMP) swi
	$(PY) -m bench

## wheel-check: build the sdist and wheel, install the wheel into a fresh venv outside the
## repo and run the README's user commands there, then the sdist's whole fast suite from the
## unpacked sdist (scripts/wheel-check.sh).
wheel-check: $(STAMP) swi
	scripts/wheel-check.sh $(PY)

## clean: the venv, caches, the site, and the compiled core (its extensions, record and build files).
clean:
	rm -rf $(VENV) .pytest_cache .hypothesis site build logicpy/core/accelerator.txt
	find logicpy -name '*.so' -delete
