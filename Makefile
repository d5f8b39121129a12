# patchcli: `make demo` shows the main job end to end, `make test` runs every test.
# Both install what is missing first (scripts/setup.sh).

SWIFT ?= swift
# Debug builds for tests; the benchmarks build release into their own scratch path.
SCRATCH ?= .build

.PHONY: setup build test demo clean

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build --scratch-path $(SCRATCH)

test: setup
	$(SWIFT) build --build-tests --scratch-path $(SCRATCH)
	$(SWIFT) test --skip-build --scratch-path $(SCRATCH)

demo: build
	@scripts/demo.sh $(SCRATCH)/debug/patchcli

clean:
	rm -rf $(SCRATCH) demo-work bench-work
