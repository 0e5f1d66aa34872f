# elicit's build and test entry points. `make test` is what CI runs.
GO ?= go

.PHONY: test lint unit e2e bench build

test: lint unit e2e

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

unit:
	$(GO) test -race -count=1 ./...

# End-to-end suites with real outside parts (MCP clients, browsers, codex)
# hook in here as they land.
e2e:

bench:
	@$(GO) test -run '^$$' -bench . -benchmem -count=1 ./... | $(GO) run ./internal/benchtable

build:
	$(GO) build -o bin/elicit ./cmd/elicit
