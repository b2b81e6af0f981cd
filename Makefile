# WOPIKit: the two commands of the README, and a few for development.
DATA ?= ./wopi-data
PORT ?= 8080
SWIFT ?= swift

.PHONY: run test build lint format deps test-deps

## make run: build and start the example host on its default storage (seeds a demo user on first start).
run: deps
	$(SWIFT) build -c release --product wopi-host
	$$($(SWIFT) build -c release --show-bin-path)/wopi-host serve --demo --data $(DATA) --port $(PORT)

## make test: lint, build everything and run every test. The real-mount FUSE suites run in a test process of
## their own: a child that another test spawns must never inherit a descriptor open on a test mount.
test: test-deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip FUSEMountTests
	$(SWIFT) test --skip-build --filter FUSEMountTests

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
