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

# Suites whose assertions are about time (a server's timeouts on real sockets) run on their own
# after the rest: on 2 cores the parallel suite starves the server's event loop for seconds.
TIMED_SUITES = ConnectionLimitTests

test: setup
	$(SWIFT) build --build-tests --scratch-path $(SCRATCH)
	$(SWIFT) test --skip-build --scratch-path $(SCRATCH) --skip '$(TIMED_SUITES)'
	$(SWIFT) test --skip-build --scratch-path $(SCRATCH) --filter '$(TIMED_SUITES)'
	$(MAKE) fuzz-smoke

demo: build
	@scripts/demo.sh $(SCRATCH)/debug/patchcli

# `make install` (PREFIX, DESTDIR): a release build, then bin/patchcli and share/patchcli (the guest
# templates `build` compiles against, found relative to the executable, and build-info with the commit
# `patchcli --version` prints), and shell completions where bash-completion, zsh and fish look under
# the prefix (BASH_COMPLETION_DIR, ZSH_COMPLETION_DIR, FISH_COMPLETION_DIR move them).
# CONFIGURATION=debug installs the existing debug build without building.
# Needs no setup: the system libraries are the build's, the toolchain the user's.
PREFIX ?= /usr/local
CONFIGURATION ?= release
SWIFT_BUILD_FLAGS ?=
COMMIT ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
# The Swift runtime linked in on Linux when the toolchain ships it, so the binary runs without it.
STATIC_STDLIB := $(shell [ "$$(uname -s)" = Linux ] && [ -e "$$(dirname "$$(readlink -f "$$(command -v swiftc)")")/../lib/swift_static/linux/static-stdlib-args.lnk" ] && echo --static-swift-stdlib)
# Foundation's static archives need each other in an order a single pass of the linker does not
# resolve (FoundationEssentials needs _FoundationCollections, FoundationInternationalization
# _FoundationICU; Swift 6.3): without the group, `--static-swift-stdlib` fails to link patchcli.
# FoundationNetworking is not among them: patchcli makes its HTTP requests with AsyncHTTPClient.
STATIC_FOUNDATION := FoundationInternationalization _FoundationICU \
	FoundationEssentials _FoundationCShims _FoundationCollections Foundation CoreFoundation
STATIC_LINK := $(if $(STATIC_STDLIB),$(STATIC_STDLIB) -Xlinker --start-group $(foreach lib,$(STATIC_FOUNDATION),-Xlinker -l$(lib)) -Xlinker --end-group)
INSTALL_BIN = $(DESTDIR)$(PREFIX)/bin
INSTALL_SHARE = $(DESTDIR)$(PREFIX)/share/patchcli
# Where each shell's completion goes: under the prefix where bash-completion, zsh and fish look by
# default; a packager puts them where its shells look instead (Homebrew's formula passes its
# bash_completion, zsh_completion and fish_completion folders).
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR ?= $(PREFIX)/share/fish/vendor_completions.d
INSTALL_BASH_COMPLETION = $(DESTDIR)$(BASH_COMPLETION_DIR)
INSTALL_ZSH_COMPLETION = $(DESTDIR)$(ZSH_COMPLETION_DIR)
INSTALL_FISH_COMPLETION = $(DESTDIR)$(FISH_COMPLETION_DIR)

.PHONY: install uninstall install-build
install-build:
ifeq ($(CONFIGURATION),release)
	$(SWIFT) build -c release --product patchcli --scratch-path $(SCRATCH) $(STATIC_LINK) $(SWIFT_BUILD_FLAGS)
endif

install: install-build
	install -d "$(INSTALL_BIN)" "$(INSTALL_SHARE)/templates/guest"
	install -m 0755 "$(SCRATCH)/$(CONFIGURATION)/patchcli" "$(INSTALL_BIN)/patchcli"
	install -m 0644 templates/guest/* "$(INSTALL_SHARE)/templates/guest/"
	printf 'commit=%s\n' "$(COMMIT)" > "$(INSTALL_SHARE)/build-info"
	install -d "$(INSTALL_BASH_COMPLETION)" "$(INSTALL_ZSH_COMPLETION)" "$(INSTALL_FISH_COMPLETION)"
	"$(SCRATCH)/$(CONFIGURATION)/patchcli" --generate-completion-script bash > "$(INSTALL_BASH_COMPLETION)/patchcli"
	"$(SCRATCH)/$(CONFIGURATION)/patchcli" --generate-completion-script zsh > "$(INSTALL_ZSH_COMPLETION)/_patchcli"
	"$(SCRATCH)/$(CONFIGURATION)/patchcli" --generate-completion-script fish > "$(INSTALL_FISH_COMPLETION)/patchcli.fish"

uninstall:
	rm -f "$(INSTALL_BIN)/patchcli"
	rm -rf "$(INSTALL_SHARE)"
	rm -f "$(INSTALL_BASH_COMPLETION)/patchcli" "$(INSTALL_ZSH_COMPLETION)/_patchcli" "$(INSTALL_FISH_COMPLETION)/patchcli.fish"

clean:
	rm -rf $(SCRATCH) demo-work bench-work

# BSDIFF40 differ vs bsdiff 4.3 / bsdiff4 / HDiffPatch; writes its section of docs/benchmarks.md.
# Options pass through, e.g. `make bench-diff BENCH_ARGS=--quick` (benchmarks/diff/README.md).
.PHONY: bench-diff
bench-diff: setup
	python3 benchmarks/diff/run.py $(BENCH_ARGS)

# `patchcli build` on Examples/PatchShop: warm one-function rebuild time, module sizes, wasm-opt -Oz
# saving; writes its section of docs/benchmarks.md (benchmarks/build/README.md). Debug patchcli.
.PHONY: bench-build
bench-build: setup
	python3 benchmarks/build/run.py $(BENCH_ARGS)
# PatchRuntime vs bare WasmKit in one process, wasmtime and the wasmkit CLI; writes its section of
# docs/benchmarks.md (benchmarks/run/README.md). Builds PatchRunBench in release into BENCH_SCRATCH
# (point it at an existing release scratch path to reuse its WasmKit build); BENCH_ARGS="--patchcli PATH"
# adds a whole-CLI row.
BENCH_SCRATCH ?= .build-bench
.PHONY: bench-run
bench-run: setup
	python3 benchmarks/run/bench.py --scratch-path $(BENCH_SCRATCH) $(BENCH_ARGS)

# `patchcli prepare` on a generated 400-file SwiftUI app: first run vs swift-syntax parse time,
# unchanged re-run, peak RSS; writes its section of docs/benchmarks.md (benchmarks/prepare/README.md).
.PHONY: bench-prepare
bench-prepare: setup
	python3 benchmarks/prepare/run.py $(BENCH_ARGS)

# The cost of an unpatched call under `routing: all`: a function called directly vs through the thunk
# prepare generates, natively with swiftc -O against the SDK stand-in; writes its section of
# docs/benchmarks.md (benchmarks/routing/README.md).
.PHONY: bench-routing
bench-routing: setup
	python3 benchmarks/routing/run.py $(BENCH_ARGS)

# `patchcli init`/`prepare` on copies of real apps: views present (counted independently) vs routed,
# per target; every rewritten/generated file parses; the pbxproj through the PyPI readers; generated
# logic code against the SDK stand-in; prepare time and RSS. Never fetches or builds the apps: pass
# them, e.g. `make bench-corpus BENCH_ARGS="--patchcli .build/debug/patchcli /work/corpus/*"`
# (benchmarks/corpus/README.md); writes its section of docs/benchmarks.md.
.PHONY: bench-corpus
bench-corpus: setup
	python3 benchmarks/corpus/run.py $(BENCH_ARGS)

# Which view modifiers real apps' bodies call most, and whether the guest view DSL lowers each (header
# of benchmarks/lowering/modifier_census.py). Reads the apps you pass, e.g.
# `make bench-modifier-census BENCH_ARGS="/work/corpus/*"`; writes its section of docs/benchmarks.md.
.PHONY: bench-modifier-census
bench-modifier-census:
	python3 benchmarks/lowering/modifier_census.py --doc $(BENCH_ARGS)

# View lowering on real apps: every routed body of each app changed, one `build` for all; bodies that
# ship, node/modifier call sites the DSL has, top reasons; then one-view build time, screen module size,
# render/dispatch time on Examples/PatchShop. Pass the binary and the apps, e.g.
# `make bench-lowering BENCH_ARGS="--patchcli .build/release/patchcli /work/corpus/*"`
# (benchmarks/lowering/README.md); writes its section of docs/benchmarks.md.
.PHONY: bench-lowering
bench-lowering: setup
	python3 benchmarks/lowering/run.py $(BENCH_ARGS)

# Coverage on real history: `patchcli audit --history 30 --json` on each app's own commits (a local
# clone of each, never fetched): declaration changes patched vs native-only by reason, commits fully
# patched. `make bench-coverage BENCH_ARGS="--patchcli .build/debug/patchcli /work/corpus/*"`
# (benchmarks/coverage/README.md); writes its section of docs/benchmarks.md.
.PHONY: bench-coverage
bench-coverage:
	python3 benchmarks/coverage/run.py $(BENCH_ARGS)

# Async functions in the guest: `run`'s cost per suspension against native awaits of the same work,
# and the executor's bytes in a module (header of benchmarks/async/run.py). Pass the binary, e.g.
# `make bench-async BENCH_ARGS="--patchcli .build/release/patchcli"`; writes its section of docs/benchmarks.md.
.PHONY: bench-async
bench-async: setup
	python3 benchmarks/async/run.py $(BENCH_ARGS)

# Server abuse: checks timed with wrk before, during and after 16k idle sockets, slowloris clients and
# malformed requests; server RSS and descriptors sampled (header of benchmarks/faults/abuse.py).
# Writes its section of docs/benchmarks.md. BENCH_ARGS=--debug, --seconds N, --idle-sockets N, ...
.PHONY: bench-faults-abuse
bench-faults-abuse: setup
	python3 benchmarks/faults/abuse.py $(BENCH_ARGS)

# `patchcli serve` under wrk: 10k devices on the check endpoint, checks/s, p50/p99, RSS over 60 s;
# writes its section of docs/benchmarks.md (benchmarks/serve/README.md). BENCH_ARGS=--debug, --seconds N.
.PHONY: bench-serve
bench-serve: setup
	python3 benchmarks/serve/run.py $(BENCH_ARGS)

# Publishers SIGKILLed at every fault-injection point and at random times, and racing publishers; after
# each trial verify and python-tuf must accept the store; leftovers counted and removed by verify --repair.
# Writes its section of docs/benchmarks.md (benchmarks/faults/README.md).
.PHONY: bench-faults
bench-faults: setup
	python3 benchmarks/faults/run.py $(BENCH_ARGS)

# libFuzzer + AddressSanitizer run of the BSDIFF40 applier and the codecs (Sources/PatchDiffFuzz).
# Seeds are regenerated each run; crashes land in $(FUZZ_WORK)/artifacts and replay with a plain
# build: `swift build --product PatchDiffFuzz && .build/debug/PatchDiffFuzz FILE`.
# -malloc_limit_mb flags any single allocation above 160 MiB: the decoders' fixed caps (xz 128 MiB)
# fit under it, an allocation sized by a patch's 256 MiB new size does not. Leak checking is off
# because the Swift runtime's metadata caches look like leaks to it.
FUZZ_SECONDS ?= 60
FUZZ_SCRATCH ?= .build-fuzz
FUZZ_WORK ?= $(FUZZ_SCRATCH)/fuzz-work
.PHONY: fuzz fuzz-smoke
fuzz: setup
	$(SWIFT) build --scratch-path $(FUZZ_SCRATCH) --product PatchDiffFuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
	mkdir -p $(FUZZ_WORK)/corpus $(FUZZ_WORK)/artifacts
	$(FUZZ_SCRATCH)/debug/PatchDiffFuzz --write-seeds $(FUZZ_WORK)/corpus
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $(FUZZ_SCRATCH)/debug/PatchDiffFuzz $(FUZZ_WORK)/corpus \
		-max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=160 \
		-artifact_prefix=$(FUZZ_WORK)/artifacts/ -print_final_stats=1
fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=25
