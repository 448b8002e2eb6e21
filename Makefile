# The two commands of the README:
#   make demo   installs dependencies, builds, and runs the main job on the
#               embedded SimpleSkin
#   make test   installs dependencies (Debian packages, then the pinned
#               glTF-Validator from npm), builds (normal + ASan/UBSan) and
#               runs every test
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
OUT ?= out

.PHONY: all deps build build-asan demo test test-asan clean install

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
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(OUT)
