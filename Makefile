# SPDX-License-Identifier: MIT
# The two commands of the README:
#   make demo   installs dependencies, builds, and runs the main job on the
#               embedded SimpleSkin
#   make test   installs dependencies (Debian packages, then the pinned
#               glTF-Validator from npm), builds (normal + ASan/UBSan) and
#               runs every test, builds and runs the library's consumers
#               (test-consumers), then the suite on three emulated CPUs
#               (test-cpus), the portable kernel on an emulated ARM CPU
#               (test-arm), the runtime library alone with every option
#               off (test-minimal), the ThreadSanitizer stress test and a short
#               libFuzzer run of every harness (FUZZ_CI_SECONDS each)
# Also: make fuzz FUZZ_SECONDS=600   long fuzzing runs (scripts/fuzz.sh)
#       make test-tsan               the ThreadSanitizer build + test
#       make test-consumers          projects using the installed library
#                                    (pkg-config, find_package) and the
#                                    source tree (add_subdirectory), C and C++
#       make test-minimal            the runtime alone: no COLLADA, tools,
#                                    renderer or CLI (scripts/test-minimal.sh)
#       make python                  the Python package (python/) into a
#                                    virtual environment that sees Debian's
#                                    cffi and numpy: $(BUILD)/python-venv
#       make test-cpus               the suite on emulated Intel and AMD CPUs
#                                    without AVX-512 and an Intel one
#                                    without AVX (scripts/test-cpus.sh)
#       make test-arm                the runtime cross-built for aarch64: its
#                                    portable kernel must give the SSE2
#                                    kernel's bytes (scripts/test-arm.sh)
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
CPUS_BUILD ?= build-cpus
ARM_BUILD ?= build-arm
MINIMAL_BUILD ?= build-minimal
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 600
FUZZ_CI_SECONDS ?= 60
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
OUT ?= out
PYTHON ?= /usr/bin/python3
PYTHON_VENV ?= $(BUILD)/python-venv

.PHONY: all deps build build-asan demo test test-asan test-tsan test-cpus \
	test-arm test-consumers test-minimal api-docs fuzz clean install python

all: build

deps:
	bash scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j $(JOBS)

build-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DVS_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)

demo: build
	@mkdir -p $(OUT)
	$(BUILD)/vskin info
	$(BUILD)/vskin pose --time 0,1,2.5,5.5 -o $(OUT)/simpleskin.obj
	$(BUILD)/vskin render --fps 10 --view outline --skeleton -o $(OUT)/simpleskin.gif
	@echo "demo: the animation is in $(OUT)/simpleskin.gif;" \
	  "posed meshes in $(OUT)/simpleskin_t*.obj"

test: build build-asan
	bash scripts/install-node-deps.sh
	@grep -m1 'model name' /proc/cpuinfo || true
	@df -h . | tail -n 1 || true
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	bash scripts/test-consumers.sh $(BUILD) $(JOBS)
	bash scripts/test-minimal.sh $(MINIMAL_BUILD) $(JOBS)
	bash scripts/api-reference.sh $(BUILD)/api
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)
	$(MAKE) test-cpus
	bash scripts/test-arm.sh $(BUILD) $(ARM_BUILD) $(JOBS)
	$(MAKE) test-tsan
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_CI_SECONDS)

test-minimal: deps
	bash scripts/test-minimal.sh $(MINIMAL_BUILD) $(JOBS)

# ThreadSanitizer: the concurrency stress test (many threads sharing one
# asset), the pool (polling and sleeping workers) and the crowd must be
# race-free.
test-tsan: deps
	cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVS_TSAN=ON \
	  -DVS_BUILD_BENCH=OFF
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target test_concurrent_stress \
	  test_thread_pool test_crowd
	cd $(TSAN_BUILD) && TSAN_OPTIONS=halt_on_error=1 \
	  ctest --output-on-failure \
	  -R '^(test_concurrent_stress|test_thread_pool|test_crowd)$$'

# The API reference from the public headers' comments (Doxygen), into
# $(BUILD)/api; fails on any Doxygen warning.
api-docs: deps
	bash scripts/api-reference.sh $(BUILD)/api

# Consumers of the library as other projects build them.
test-consumers: build
	bash scripts/test-consumers.sh $(BUILD) $(JOBS)
	bash scripts/test-minimal.sh $(MINIMAL_BUILD) $(JOBS)

# The suite on other x86-64 CPUs, emulated: the library's floats and its
# run-time dispatch must not depend on the CPU that runs it.
test-cpus: deps
	bash scripts/test-cpus.sh $(CPUS_BUILD) $(JOBS)

# The portable kernel cross-built for aarch64 and run under QEMU: an ARM
# build must give the floats an x86-64 build gives with VS_ISA_SSE2.
test-arm: build
	bash scripts/test-arm.sh $(BUILD) $(ARM_BUILD) $(JOBS)

# libFuzzer: every harness for FUZZ_SECONDS; fails on any finding.
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_BUILD=$(abspath $(FUZZ_BUILD)) \
	  FUZZ_JOBS=$(JOBS) bash scripts/fuzz.sh

install: build
	cmake --install $(BUILD)

# The Python package, installed offline (no build isolation, no index: it is
# pure Python over the shared libraries) into a virtual environment, since
# Debian's own Python refuses packages pip installs (PEP 668). It finds the
# libraries of this build through VSKIN_LIBRARY_DIR.
python: build
	$(PYTHON) -m venv --system-site-packages $(PYTHON_VENV)
	$(PYTHON_VENV)/bin/python -m pip install --no-build-isolation --no-index \
	  --upgrade ./python
	@echo "python: VSKIN_LIBRARY_DIR=$(abspath $(BUILD))/src" \
	  "$(PYTHON_VENV)/bin/python -c 'import vskin'"

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(CPUS_BUILD) $(ARM_BUILD) $(MINIMAL_BUILD) \
	  $(FUZZ_BUILD) $(OUT)
