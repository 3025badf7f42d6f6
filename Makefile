# glTF Physics — one-command setup. `make test` and `make demo` bootstrap everything from nothing.
# Python 3.11 is required (the bpy wheels are cp311).

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
BPY_5_0 := 5.0.1
BPY_4_5 := 4.5.15
BPY_4_2 := 4.2.23
PIP_FLAGS := --disable-pip-version-check --no-input -q
PYTEST := -m pytest -c tests/pytest.ini
GLTF_VALIDATOR := 2.0.0-dev.3.10
NPM := $(shell command -v npm 2>/dev/null)

.PHONY: test test-no-shared test-unit test-blender test-matrix test-4.2 test-4.5 lint format demo build bench venvs clean

test: venvs lint test-unit test-blender test-matrix test-no-shared  ## everything CI runs

# The three environments (and the Khronos glTF-Validator when npm exists) install concurrently (mostly download time).
venvs:
	@$(MAKE) --no-print-directory -j3 .venv/.ok .venv-4.5/.ok .venv-4.2/.ok $(if $(NPM),.node/.ok)

# The Khronos glTF-Validator (npm `gltf-validator`) in the ignored .node/ folder: the test tiers run it on every file
# the export and migrate tests write (tests/khronos.py); without Node they skip that check with one summary line.
.node/.ok: Makefile
	mkdir -p .node
	npm install --prefix .node --no-save --no-audit --no-fund --loglevel=error "gltf-validator@$(GLTF_VALIDATOR)"
	touch $@

.venv/.ok: requirements-test.txt Makefile
	test -x .venv/bin/python || $(PYTHON) -m venv .venv
	.venv/bin/pip install $(PIP_FLAGS) "bpy==$(BPY_5_0)" -r requirements-test.txt
	touch $@

.venv-4.5/.ok: requirements-test.txt Makefile
	test -x .venv-4.5/bin/python || $(PYTHON) -m venv .venv-4.5
	.venv-4.5/bin/pip install $(PIP_FLAGS) "bpy==$(BPY_4_5)" -r requirements-test.txt
	touch $@

.venv-4.2/.ok: requirements-test.txt Makefile
	test -x .venv-4.2/bin/python || $(PYTHON) -m venv .venv-4.2
	.venv-4.2/bin/pip install $(PIP_FLAGS) "bpy==$(BPY_4_2)" "numpy<2" -r requirements-test.txt
	touch $@

lint: .venv/.ok
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .

format: .venv/.ok
	.venv/bin/ruff check --fix .
	.venv/bin/ruff format .

# `-P` keeps the current directory (the repository root, a package with an `io/` subpackage) off sys.path.
test-unit: .venv/.ok
	.venv/bin/python -P $(PYTEST) tests/unit

test-blender: .venv/.ok
	.venv/bin/python -P $(PYTEST) tests/blender

test-4.5: .venv-4.5/.ok
	.venv-4.5/bin/python -P $(PYTEST) tests/blender

test-4.2: .venv-4.2/.ok
	.venv-4.2/bin/python -P $(PYTEST) tests/blender

test-matrix: test-4.5 test-4.2

# The third-party corpus and schemas are optional: without ../shared every tier must pass with skips.
test-no-shared: .venv/.ok
	GLTF_PHYSICS_SHARED=/nonexistent .venv/bin/python -P $(PYTEST) -q tests/unit
	GLTF_PHYSICS_SHARED=/nonexistent .venv/bin/python -P $(PYTEST) -q tests/blender

demo: .venv/.ok
	.venv/bin/python -P scripts/demo.py examples/demo_scene.gltf

build: .venv/.ok
	.venv/bin/python -P scripts/devkit.py build

bench: .venv/.ok
	.venv/bin/python -P tests/bench/bench_limits.py

clean:
	rm -rf .venv .venv-4.5 .venv-4.2 .node dist
