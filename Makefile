# guard — build, test and check.
GO ?= go
PKGS := ./...

.PHONY: all build test test-go deps vet fmt fuzz bench example

all: vet test

build:
	$(GO) build -o bin/guard ./cmd/guard

# The one test command: servers for the integration tests, then every test.
test: deps vet test-go

test-go:
	$(GO) test -count=1 -timeout 20m $(PKGS)

# mariadbd and redis-server are started by the tests themselves (internal/dbtest);
# install them when they are missing and we may.
deps:
	@missing=""; \
	{ command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; } && \
		{ command -v mariadb-install-db >/dev/null 2>&1 || command -v mysql_install_db >/dev/null 2>&1; } || \
		missing="$$missing mariadb-server"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
		else \
			echo "missing:$$missing (install with: sudo apt-get install$$missing)"; \
		fi; \
	fi

vet:
	@files=$$(git ls-files '*.go' | grep -v '/testdata/'); test -z "$$(gofmt -l $$files)" || { gofmt -l $$files; echo "gofmt needed"; exit 1; }
	$(GO) vet $(PKGS)

fmt:
	gofmt -w $$(git ls-files '*.go')

# Each fuzz target for FUZZTIME (default 60s).
FUZZTIME ?= 60s
fuzz:
	$(GO) test ./internal/sqlparse -run='^$$' -fuzz='^FuzzSplit$$' -fuzztime=$(FUZZTIME)
	$(GO) test ./internal/policy -run='^$$' -fuzz='^FuzzParse$$' -fuzztime=$(FUZZTIME)
	$(GO) test ./internal/source -run='^$$' -fuzz='^FuzzExtractGo$$' -fuzztime=$(FUZZTIME)
	$(GO) test ./internal/source -run='^$$' -fuzz='^FuzzExtractJava$$' -fuzztime=$(FUZZTIME)
	$(GO) test ./internal/source -run='^$$' -fuzz='^FuzzExtractXML$$' -fuzztime=$(FUZZTIME)
	$(GO) test ./internal/schema -run='^$$' -fuzz='^FuzzFromDDL$$' -fuzztime=$(FUZZTIME)

bench:
	$(GO) test ./lint -run='^$$' -bench=. -benchtime=3x

# guard's main job on the bundled example, no database needed.
example:
	$(GO) run ./cmd/guard lint examples/shop
