# glTF Physics — one-command setup. `make test` and `make demo` bootstrap everything from nothing.
#
# Blender tiers (one venv each, bpy from PyPI): the newest release is `.venv` (lint, pure tier, demo, CLI).
#   .venv      bpy 5.3.0  (Python 3.13)  whole Blender suite, every data sweep in full
#   .venv-5.2  bpy 5.2.3  (Python 3.13)  whole Blender suite, data sweeps sampled
#   .venv-4.5  bpy 4.5.15 (Python 3.11)  whole Blender suite, data sweeps sampled
#   .venv-5.0  bpy 5.0.1  (Python 3.11)  compatibility subset (COMPAT_TESTS)
#   .venv-4.2  bpy 4.2.23 (Python 3.11)  compatibility subset, numpy 1.x
# scripts/find_python.sh finds each interpreter (PATH, then pyenv) or stops with what is missing;
# `make PYTHON_313=/path/python3.13 PYTHON_311=/path/python3.11` overrides it.

PYTHON_313 ?= $(shell scripts/find_python.sh 3.13 2>/dev/null)
PYTHON_311 ?= $(shell scripts/find_python.sh 3.11 2>/dev/null)
BPY_5_3 := 5.3.0
BPY_5_2 := 5.2.3
BPY_5_0 := 5.0.1
BPY_4_5 := 4.5.15
BPY_4_2 := 4.2.23
PIP_FLAGS := --disable-pip-version-check --no-input -q
PYTEST := -m pytest -c tests/pytest.ini
GLTF_VALIDATOR := 2.0.0-dev.3.10
NPM := $(shell command -v npm 2>/dev/null)

# What the older tiers run: install, the import / joint / export fixtures, one conformance folder, convert and check
# of a few files, and the forced-probe-failure test.
COMPAT_TESTS := tests/blender/test_install.py \
	tests/blender/importer/test_import_fixtures.py tests/blender/importer/test_joints_fixtures.py \
	tests/blender/importer/test_import_probes.py tests/blender/exporter/test_export_roundtrip.py \
	tests/blender/importer/test_joints_conformance.py \
	tests/blender/convert/test_convert_command.py tests/blender/convert/test_scene_reset.py \
	tests/blender/check/test_check_command.py tests/blender/importer/test_import_without_extension.py

.PHONY: test suites tiers test-no-shared test-unit test-blender test-5.3 test-5.2 test-4.5 test-5.0 test-4.2 lint format \
	demo build bench venvs python-check clean

test: venvs lint  ## everything CI runs
	@$(MAKE) --no-print-directory -j2 --output-sync=target suites

# Side by side, two at a time (the machines have two cores), the longest first; each prints when it ends.
suites: test-5.3 test-no-shared test-5.2 test-4.5 test-unit test-5.0 test-4.2

tiers: test-5.3 test-5.2 test-4.5 test-5.0 test-4.2

python-check:
	@test -n "$(PYTHON_313)" || { scripts/find_python.sh 3.13 >/dev/null; echo "make: no Python 3.13 (bpy 5.2, 5.3)" >&2; exit 1; }
	@test -n "$(PYTHON_311)" || { scripts/find_python.sh 3.11 >/dev/null; echo "make: no Python 3.11 (bpy 4.2-5.0)" >&2; exit 1; }

# The environments (and the Khronos glTF-Validator when npm exists) install concurrently (mostly download time).
venvs: python-check
	@$(MAKE) --no-print-directory -j3 .venv/.ok .venv-5.2/.ok .venv-4.5/.ok .venv-5.0/.ok .venv-4.2/.ok \
		$(if $(NPM),.node/.ok tests/engine/node_modules/.ok)

# The Khronos glTF-Validator (npm `gltf-validator`) in the ignored .node/ folder: the test tiers run it on every file
# the export and migrate tests write (tests/khronos.py); without Node they skip that check with one summary line.
.node/.ok: Makefile
	mkdir -p .node
	npm install --prefix .node --no-save --no-audit --no-fund --loglevel=error "gltf-validator@$(GLTF_VALIDATOR)"
	touch $@

# The independent engine of tests/blender/engine (Babylon.js Physics V2 + Havok, headless; docs/testing.md),
# pinned by tests/engine/package-lock.json into the ignored tests/engine/node_modules; without Node those tests skip
# with one line (tests/enginekit.py).
tests/engine/node_modules/.ok: tests/engine/package.json tests/engine/package-lock.json
	npm ci --prefix tests/engine --no-audit --no-fund --loglevel=error
	touch $@

# $(call bpy_venv,folder,python,bpy version,extra requirements)
define bpy_venv
	@test -n "$(2)" || { echo "error: no Python interpreter for $(1) (see scripts/find_python.sh)" >&2; exit 1; }
	test -x $(1)/bin/python || $(2) -m venv $(1)
	$(1)/bin/pip install $(PIP_FLAGS) "bpy==$(3)" $(4) -r requirements-test.txt
	touch $(1)/.ok
endef

.venv/.ok: requirements-test.txt Makefile
	$(call bpy_venv,.venv,$(PYTHON_313),$(BPY_5_3))

.venv-5.2/.ok: requirements-test.txt Makefile
	$(call bpy_venv,.venv-5.2,$(PYTHON_313),$(BPY_5_2))

.venv-4.5/.ok: requirements-test.txt Makefile
	$(call bpy_venv,.venv-4.5,$(PYTHON_311),$(BPY_4_5))

.venv-5.0/.ok: requirements-test.txt Makefile
	$(call bpy_venv,.venv-5.0,$(PYTHON_311),$(BPY_5_0))

.venv-4.2/.ok: requirements-test.txt Makefile
	$(call bpy_venv,.venv-4.2,$(PYTHON_311),$(BPY_4_2))

lint: .venv/.ok
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .

format: .venv/.ok
	.venv/bin/ruff check --fix .
	.venv/bin/ruff format .

# `-P` keeps the current directory (the repository root, a package with an `io/` subpackage) off sys.path.
test-unit: .venv/.ok
	.venv/bin/python -P $(PYTEST) tests/unit

test-blender: test-5.3

# GLTF_PHYSICS_SWEEP=full runs every data sweep (corpus, fixtures x revisions) in full; `sample` takes a fixed,
# spread sample (tests/testkit.py `sweep`) — each rule's full sweep runs once, on the newest tier.
test-5.3: .venv/.ok
	GLTF_PHYSICS_SWEEP=full .venv/bin/python -P $(PYTEST) tests/blender

test-5.2: .venv-5.2/.ok
	GLTF_PHYSICS_SWEEP=sample .venv-5.2/bin/python -P $(PYTEST) tests/blender

test-4.5: .venv-4.5/.ok
	GLTF_PHYSICS_SWEEP=sample .venv-4.5/bin/python -P $(PYTEST) tests/blender

test-5.0: .venv-5.0/.ok
	GLTF_PHYSICS_SWEEP=sample .venv-5.0/bin/python -P $(PYTEST) $(COMPAT_TESTS)

test-4.2: .venv-4.2/.ok
	GLTF_PHYSICS_SWEEP=sample .venv-4.2/bin/python -P $(PYTEST) $(COMPAT_TESTS)

# The third-party corpus and schemas are optional: without ../shared every tier must pass with skips.
test-no-shared: .venv/.ok
	GLTF_PHYSICS_SHARED=/nonexistent .venv/bin/python -P $(PYTEST) -q tests/unit
	GLTF_PHYSICS_SHARED=/nonexistent GLTF_PHYSICS_SWEEP=sample .venv/bin/python -P $(PYTEST) -q tests/blender

demo: .venv/.ok
	.venv/bin/python -P scripts/demo.py examples/demo_scene.gltf

build: .venv/.ok
	.venv/bin/python -P scripts/devkit.py build

bench: .venv/.ok
	.venv/bin/python -P tests/bench/bench_limits.py

clean:
	rm -rf .venv .venv-5.2 .venv-4.5 .venv-5.0 .venv-4.2 .node tests/engine/node_modules dist
