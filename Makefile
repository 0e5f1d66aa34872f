# elicit's build and test entry points. `make test` is what CI runs.
GO ?= go

.PHONY: test lint unit e2e bench bench-go bench-mcp build

test: lint unit e2e

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	@$(GO) mod tidy -diff >/dev/null || { echo "go.mod/go.sum are not tidy: run go mod tidy"; $(GO) mod tidy -diff; exit 1; }

unit:
	$(GO) test -race -count=1 ./...

# End-to-end suites with real outside parts: the MCP server driven by the
# official TypeScript SDK and the MCP Inspector CLI, and the real codex CLI
# against a stub model server (all installed from the committed lockfile with
# npm ci).
e2e: build
	cd e2e/node && npm ci --no-audit --no-fund --loglevel=error
	cd e2e/node && ELICIT_BIN=$(CURDIR)/bin/elicit node --test
	ELICIT_E2E_CODEX=1 $(GO) test -count=1 -run E2E ./consult/... ./crossmodel/

bench: bench-go bench-mcp

bench-go:
	@$(GO) test -run '^$$' -bench . -benchmem -count=1 ./... 2>/dev/null | $(GO) run ./internal/benchtable 2>/dev/null

# 1,000 sequential elicitation_render_form calls from the TypeScript SDK.
bench-mcp: build
	@cd e2e/node && npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@cd e2e/node && ELICIT_BIN=$(CURDIR)/bin/elicit node bench.mjs 1000

build:
	$(GO) build -o bin/elicit ./cmd/elicit
