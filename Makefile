# The README's commands. Each one sets up what it needs from a fresh clone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test test-slow bench setup swi clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[prolog,test]'
	touch $(STAMP)

setup: $(STAMP)

## swi: install SWI-Prolog (Debian's swi-prolog-nox) when it is missing and we are root.
swi:
	@bash scripts/ensure-swi.sh

## demo: the main job.
demo: $(STAMP)
	$(VENV)/bin/logicpy demo

## test: the whole fast suite (SWI-Prolog tests skip with a reason when it cannot be installed).
test: $(STAMP) swi
	scripts/pytest.sh $(PY) -m "not slow" -q

## test-slow: the slow tests only.
test-slow: $(STAMP) swi
	LOGICPY_ALLOW_EMPTY=1 scripts/pytest.sh $(PY) -m slow -q

## bench: every benchmark under bench/, printing figures.
bench: $(STAMP) swi
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
