# WOPIKit: the two commands of the README, and a few for development.
DATA ?= ./wopi-data
PORT ?= 8080
SWIFT ?= swift

.PHONY: run test build lint format deps test-deps docs

## make run: build and start the example host on its default storage (seeds a demo user on first start).
run: deps
	$(SWIFT) build -c release --product wopi-host
	$$($(SWIFT) build -c release --show-bin-path)/wopi-host serve --data $(DATA) --port $(PORT)

## make test: lint, build everything, run every test, build the docs (30-90 s on top of the test build). The real-mount
## FUSE suites run in a test process of their own: a child that another test spawns must never inherit a descriptor
## open on a test mount.
test: test-deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip FUSEMountTests
	$(SWIFT) test --skip-build --filter FUSEMountTests
	SWIFT=$(SWIFT) scripts/build-docs.sh

build: deps
	$(SWIFT) build --build-tests

## make docs: DocC archives of every library product in .build/docs (the toolchain's docc; reuses the debug build).
## Fails on a warning in a catalog page or guide; DOCS_STRICT=1 also fails on warnings in source doc comments.
docs: deps
	SWIFT=$(SWIFT) scripts/build-docs.sh

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Modules Plugins Examples Benchmarks Tests
	scripts/check-imports.py

format:
	$(SWIFT) format --in-place --recursive --parallel Package.swift Modules Plugins Examples Benchmarks Tests

deps:
	scripts/install-deps.sh

test-deps:
	scripts/install-deps.sh --test
