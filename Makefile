# elicit's build and test entry points. `make test` is what CI runs.
GO ?= go
# Every binary the project builds is static: no cgo, so no libc start-up and
# no dynamic loader (docs/decisions.md, "Start-up"). Only the race detector
# needs cgo, so the unit run turns it back on for its test binaries.
export CGO_ENABLED := 0
# The flags of every build, the hello-world reference of bench-process too.
BUILDFLAGS ?= -trimpath

.PHONY: test deps lint unit e2e bench bench-go bench-process bench-mcp build release-snapshot npm-pack screenshots

# make runs the prerequisites in order: deps first, so that `make test` works
# on a fresh machine by itself.
test: deps lint unit e2e

# What the tests need besides Go (gcc for -race, Node.js 20+ and npm, tmux, PostgreSQL,
# Chromium): scripts/test-deps installs what is missing with apt-get, and
# stops with a message saying what to install when it cannot.
deps:
	@bash scripts/test-deps

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	@$(GO) mod tidy -diff >/dev/null || { echo "go.mod/go.sum are not tidy: run go mod tidy"; $(GO) mod tidy -diff; exit 1; }

# ELICIT_TEST_POSTGRES=required: the team store's suite fails instead of
# skipping when PostgreSQL cannot start (internal/pgtest).
unit:
	CGO_ENABLED=1 ELICIT_TEST_POSTGRES=required $(GO) test -race -count=1 -timeout 20m -skip '^TestE2E' ./...

# End-to-end suites with real outside parts: the MCP server driven by the
# official TypeScript SDK and the MCP Inspector CLI; the real codex CLI and
# Claude Code against stub model servers, through elicit's plugins; the npm
# package packed and installed offline (e2e/node and e2e/hosts, each from its
# committed lockfile with npm ci); three serve --http replicas on PostgreSQL
# behind nginx (e2e/team). The unit run skips TestE2E*: they run here.
e2e: build
	ELICIT_BIN=$(CURDIR)/bin/elicit $(GO) test -count=1 -run TestStatic ./cmd/elicit/
	cd e2e/node && npm ci --no-audit --no-fund --loglevel=error
	cd e2e/node && ELICIT_HOME=$$(mktemp -d) ELICIT_BIN=$(CURDIR)/bin/elicit node --test
	cd e2e/browser && npm ci --no-audit --no-fund --loglevel=error
	cd e2e/browser && ELICIT_BIN=$(CURDIR)/bin/elicit node --test
	cd e2e/hosts && npm ci --no-audit --no-fund --loglevel=error
	ELICIT_E2E_CODEX=1 ELICIT_E2E_HOSTS=1 ELICIT_E2E_TEAM=1 ELICIT_BIN=$(CURDIR)/bin/elicit $(GO) test -count=1 -run E2E ./consult/... ./internal/relay/ ./internal/crossmodel/ ./e2e/hosts/ ./e2e/team/

bench: bench-go bench-process bench-mcp

# The table only; go test's own output is shown when it fails (pipefail:
# a failing go test fails the target even when the table looks whole).
bench-go: SHELL := /bin/bash
bench-go:
	@set -o pipefail; raw=$$(mktemp); trap 'rm -f "$$raw"' EXIT; \
	  $(GO) test -run '^$$' -bench . -skip '^BenchmarkStartup$$' -benchmem -count=1 ./... 2>&1 \
	  | $(GO) run ./internal/benchtable 2>"$$raw" || { cat "$$raw" >&2; echo "make bench-go: go test failed (its output is above)" >&2; exit 1; }

# Whole-process start-up: elicit's commands beside a hello-world Go binary
# and hello-world linking go-sdk and cobra, built with the same flags,
# interleaved, 300 rounds; medians and ratios, failing when an elicit call
# is over 2.6× hello-world (a tripwire). BASELINE=path/to/elicit adds
# a column for another build (make bench-process BASELINE=/tmp/elicit-old);
# READBACK=1 times every binary as read back from disk, not as just copied.
bench-process: build
	$(GO) build $(BUILDFLAGS) -o bin/hello ./internal/cli/testdata/hello
	$(GO) build $(BUILDFLAGS) -o bin/sdkfloor ./internal/cli/testdata/sdkfloor
	@ELICIT_BIN=$(CURDIR)/bin/elicit ELICIT_HELLO_BIN=$(CURDIR)/bin/hello ELICIT_FLOOR_BIN=$(CURDIR)/bin/sdkfloor \
	  ELICIT_BENCH_BASELINE=$(BASELINE) ELICIT_BENCH_READBACK=$(READBACK) \
	  $(GO) test -run '^$$' -bench '^BenchmarkStartup$$' -benchtime 300x -count=1 ./internal/cli/

# 1,000 sequential elicitation_render_form calls from the TypeScript SDK.
bench-mcp: build
	@cd e2e/node && npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@cd e2e/node && ELICIT_BIN=$(CURDIR)/bin/elicit node bench.mjs 1000

build:
	$(GO) build $(BUILDFLAGS) -buildvcs=auto -o bin/elicit ./cmd/elicit

# goreleaser, pinned, run without entering go.mod (its dependencies would
# triple go.sum). The first run compiles it (minutes); later runs are cached.
GORELEASER = $(GO) run github.com/goreleaser/goreleaser/v2@v2.15.1

# Checks .goreleaser.yaml and builds every release target into dist/
# (static binaries for linux/darwin/windows x amd64/arm64) as a release
# would, without publishing anything.
release-snapshot:
	$(GORELEASER) check
	$(GORELEASER) build --snapshot --clean

# The npm packages (elicit and one elicit-<os>-<cpu> per platform) from the
# snapshot's binaries, packed into dist/npm.
npm-pack: release-snapshot
	node npm/pack.mjs --dist dist --out dist/npm

# The README's widget screenshots, light and dark, taken by the browser
# suite (e2e/browser, Debian's chromium) in the same run as its tests.
screenshots: build
	cd e2e/browser && npm ci --no-audit --no-fund --loglevel=error
	cd e2e/browser && ELICIT_BIN=$(CURDIR)/bin/elicit SCREENSHOT_DIR=$(CURDIR)/docs node --test
