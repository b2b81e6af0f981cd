# WOPIKit: the two commands of the README, and a few for development.
DATA ?= ./wopi-data
PORT ?= 8080
SWIFT ?= swift
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_RUNS ?= 20000
FUZZ_HTTP_RUNS ?= 1000000
FUZZ_HTTP_SMOKE_RUNS ?= 2000
NICE ?= nice -n 15
# The suites that start their own PostgreSQL, host processes, nginx or Ceph, and time their failures: a test process
# of their own in every run (among the others, PostgreSQL leases on the 2-core CI machine waited past their 30 s).
OWN_PROCESS = 'PostgresTests|ClusterValidatorScenarioTests|S3ChunkBodiesTests'
# swift test, with a failing pass's failures printed again at its end (where a CI log's tail shows them).
TEST = SWIFT=$(SWIFT) scripts/swift-test.sh

.PHONY: run test build provider-package lint generate format deps test-deps alerts examples-standalone bench bench-smoke fuzz fuzz-smoke fuzz-http fuzz-build test-asan test-tsan docs api

## make run: build the example host with the demo's needs alone and start it on its default storage (seeds a demo
## user on first start). A debug build (half the wait of a release build) on the Examples trait only: without
## PostgreSQL, TLS (HTTPS and discovery by URL) and OTLP, which took 4.3 minutes of a fresh clone's build instead of
## 7.3 (README). An option that needs a trait left out says so; `make build` builds everything.
RUN_TRAITS ?= Examples
run: deps
	$(SWIFT) build --product wopi-host --traits $(RUN_TRAITS)
	$$($(SWIFT) build --show-bin-path)/wopi-host serve --demo --data $(DATA) --port $(PORT)

## make test: lint (formatting, and the imports: scripts/check-imports.py), build everything and run every test, build
## the docs (30-90 s on top of the test build), check the public API against the release in API/baseline
## (scripts/check-api.sh, about 2 minutes), build a provider's package on the HummingbirdAdapter and SQLite traits alone
## (scripts/check-provider-package.sh) and what `make run` builds (scripts/check-run-build.sh, the Examples trait alone,
## about 4 minutes), then the benchmark suite's smoke run and a short pass of every fuzz target.
## The examples are built with `packageAccess: false`, so the test build itself proves they use public API only; `make
## examples-standalone` proves it the long way. The real-mount FUSE suites run in a test process of their own: a child
## that another test spawns must never inherit a descriptor open on a test mount. So do the allocation counts, which
## see the whole process, the p99 of CheckFileInfo beside a 1 GiB PutFile (timed), and the PostgreSQL suites (with the
## validator scenarios through nginx over 3 hosts), which start their own servers, host processes and balancer and
## time their failures.
test: test-deps lint alerts
	$(SWIFT) build --build-tests
	$(TEST) --skip-build --skip FUSEMountTests --skip AllocationTests --skip InlineReadLatencyTests --skip $(OWN_PROCESS)
	$(TEST) --skip-build --filter $(OWN_PROCESS)
	$(TEST) --skip-build --filter FUSEMountTests
	$(TEST) --skip-build --filter AllocationTests
	$(TEST) --skip-build --filter InlineReadLatencyTests
	SWIFT=$(SWIFT) scripts/build-docs.sh --skip-build
	SWIFT=$(SWIFT) scripts/check-api.sh
	SWIFT=$(SWIFT) scripts/check-provider-package.sh
	SWIFT=$(SWIFT) scripts/check-run-build.sh
	$(MAKE) bench-smoke
	$(MAKE) fuzz-smoke

## make examples-standalone: copies of the examples built in a package of their own outside the repository, as a
## provider builds them (scripts/check-examples-standalone.sh: a full debug build of WOPIKit and its dependencies,
## about 10 minutes on two slow cores). `make test` relies on `packageAccess: false` and check-imports.py instead.
examples-standalone: deps
	SWIFT=$(SWIFT) scripts/check-examples-standalone.sh

## make alerts (part of make test): the Prometheus alerting rules of Examples/prometheus are valid and fire when
## their unit tests say (promtool, from Debian's prometheus package).
alerts:
	promtool check rules Examples/prometheus/wopikit-alerts.yml
	cd Examples/prometheus && promtool test rules wopikit-alerts.test.yml

## make bench: the benchmark suite on the release build (Docs/benchmarks.md): SQLite, fs and a 3-host PostgreSQL
## cluster (scripts/cluster.sh) side by side; prints the table and prepends it to Docs/benchmarks.md. About 15
## minutes after the build. Then scripts/bench-versions.py: what a kept version costs, and scripts/bench-object-store.py:
## 1 GiB through a host on S3 (Ceph) against boto3 direct (both printed, not written).
bench: test-deps
	$(SWIFT) build -c release --product wopi-host
	$(SWIFT) build -c release --product wopikit-bench
	$(SWIFT) build -c release --product wopikit-hello
	$(SWIFT) build -c release --product wopi
	scripts/bench.py --bin $$($(SWIFT) build -c release --show-bin-path)
	scripts/bench-versions.py --bin $$($(SWIFT) build -c release --show-bin-path)
	scripts/bench-object-store.py --bin $$($(SWIFT) build -c release --show-bin-path)

## make bench-smoke: every scenario of the suite for a second, on the debug build `make test` made, PostgreSQL
## included (fails when PostgreSQL 15 is missing): checks that the suite works, not its figures.
bench-smoke:
	scripts/bench.py --smoke --bin $$($(SWIFT) build --show-bin-path)
	scripts/bench-versions.py --smoke --bin $$($(SWIFT) build --show-bin-path)

## make fuzz: each libFuzzer target (Fuzz/) for FUZZ_SECONDS from its seed corpus; see Docs/fuzzing-and-sanitizers.md.
fuzz: fuzz-build
	Fuzz/fuzz.sh $(FUZZ_SECONDS)

## make fuzz-smoke (part of make test): FUZZ_SMOKE_RUNS inputs per target from a fixed seed, the same on every
## machine, so CI fails on a change of code and not on luck; make fuzz explores. http-host runs FUZZ_HTTP_SMOKE_RUNS
## (each of its inputs is up to eight requests to a whole host: 25-30 a second, so 2,000 take about as long as the
## slowest other target's 20,000).
fuzz-smoke: fuzz-build
	FUZZ_RUNS=$(FUZZ_SMOKE_RUNS) FUZZ_RUNS_http_host=$(FUZZ_HTTP_SMOKE_RUNS) Fuzz/fuzz.sh 0

## make fuzz-http: the HTTP-level target alone (http-host: the in-process host, every operation, co-authoring on) for
## FUZZ_HTTP_RUNS inputs (default 1,000,000), from its seed corpus and working corpus; see
## Docs/fuzzing-and-sanitizers.md for its rate.
fuzz-http: fuzz-build
	FUZZ_MAX_RUNS=$(FUZZ_HTTP_RUNS) Fuzz/fuzz.sh 0 http-host

fuzz-build:
	@# A new file in a WOPIKit module is not seen by the plan SwiftPM cached for the path dependency: plan again.
	rm -f .build-fuzz/debug.yaml .build-fuzz/debug/description.json
	$(SWIFT) build --package-path Fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address

## make test-asan / test-tsan: the suite under AddressSanitizer / ThreadSanitizer, each in a scratch path of its own
## (full builds: they run niced).
## LeakSanitizer is off here: at exit, every child process (wopi, wopi-host, the browser stand-ins) reports what its
## still-running threads and tasks hold (NIO's thread pool, libcurl, XCTest); the fuzz targets check leaks per input.
test-asan: export ASAN_OPTIONS = detect_leaks=0
test-asan: test-deps
	$(NICE) $(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	$(TEST) --skip-build --sanitize=address --scratch-path .build-asan --skip FUSEMountTests --skip $(OWN_PROCESS)
	$(TEST) --skip-build --sanitize=address --scratch-path .build-asan --filter $(OWN_PROCESS)
	$(TEST) --skip-build --sanitize=address --scratch-path .build-asan --filter FUSEMountTests

test-tsan: test-deps
	$(NICE) $(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(TEST) --skip-build --sanitize=thread --scratch-path .build-tsan --skip FUSEMountTests --skip $(OWN_PROCESS)
	$(TEST) --skip-build --sanitize=thread --scratch-path .build-tsan --filter $(OWN_PROCESS)
	$(TEST) --skip-build --sanitize=thread --scratch-path .build-tsan --filter FUSEMountTests

build: deps
	$(SWIFT) build --build-tests

## make provider-package: a provider's package with only the HummingbirdAdapter and SQLite traits builds and runs
## WOPIDeployment (its own build in .build/provider-package).
provider-package:
	SWIFT=$(SWIFT) scripts/check-provider-package.sh

## make docs: DocC archives of every library product in .build/docs (the toolchain's docc; reuses the debug build).
## Fails on a warning in a catalog page or guide; DOCS_STRICT=1 also fails on warnings in source doc comments.
docs: deps
	SWIFT=$(SWIFT) scripts/build-docs.sh

## make api (part of make test): fails on a break of the public API against the release in API/baseline that
## API/allowed-breaks.txt does not list; `scripts/check-api.sh --cut RELEASE` makes RELEASE the baseline.
api: deps
	SWIFT=$(SWIFT) scripts/check-api.sh

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Modules Plugins Examples Benchmarks Tests Fuzz
	scripts/check-imports.py
	scripts/generate-check-file-info.py --check

## make generate: writes CheckFileInfo's CodingKeys and direct JSON writer from its properties (a property's line
## ends with its wire name); run it after adding a property, and commit what it wrote.
generate:
	scripts/generate-check-file-info.py

format:
	$(SWIFT) format --in-place --recursive --parallel Package.swift Modules Plugins Examples Benchmarks Tests Fuzz

deps:
	scripts/install-deps.sh

test-deps:
	scripts/install-deps.sh --test
