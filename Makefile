# WOPIKit: the two commands of the README, and a few for development.
DATA ?= ./wopi-data
PORT ?= 8080
SWIFT ?= swift

.PHONY: run test build lint format deps test-deps bench bench-smoke

## make run: build and start the example host on its default storage (seeds a demo user on first start).
run: deps
	$(SWIFT) build -c release --product wopi-host
	$$($(SWIFT) build -c release --show-bin-path)/wopi-host serve --demo --data $(DATA) --port $(PORT)

## make test: lint, build everything and run every test, then the benchmark suite's smoke run. The real-mount
## FUSE suites run in a test process of their own: a child that another test spawns must never inherit a
## descriptor open on a test mount. So do the allocation counts, which see the whole process.
test: test-deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip FUSEMountTests --skip AllocationTests
	$(SWIFT) test --skip-build --filter FUSEMountTests
	$(SWIFT) test --skip-build --filter AllocationTests
	$(MAKE) bench-smoke

## make bench: the benchmark suite on the release build (Docs/benchmarks.md); prints the table and prepends
## it to Docs/benchmarks.md. About 10 minutes after the build.
bench: test-deps
	$(SWIFT) build -c release --product wopi-host
	$(SWIFT) build -c release --product wopikit-bench
	$(SWIFT) build -c release --product wopikit-hello
	scripts/bench.py --bin $$($(SWIFT) build -c release --show-bin-path)

## make bench-smoke: every scenario of the suite for a second, on the debug build `make test` made: checks
## that the suite works, not its figures.
bench-smoke:
	scripts/bench.py --smoke --bin $$($(SWIFT) build --show-bin-path)

build: deps
	$(SWIFT) build --build-tests

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Modules Plugins Examples Benchmarks Tests
	scripts/check-imports.py

format:
	$(SWIFT) format --in-place --recursive --parallel Package.swift Modules Plugins Examples Benchmarks Tests

deps:
	scripts/install-deps.sh

test-deps:
	scripts/install-deps.sh --test
