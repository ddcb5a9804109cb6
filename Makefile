# guard — build, test and check.
GO ?= go
PKGS := ./...

.PHONY: all build test test-go deps vet fmt fuzz bench bench-floor example

all: vet test

build:
	$(GO) build -o bin/guard ./cmd/guard

# The one test command: servers for the integration tests, then every test.
test: deps vet test-go

test-go:
	$(GO) test -count=1 -timeout 20m $(PKGS)

# mariadbd and redis-server are started by the tests themselves (internal/dbtest);
# pt-online-schema-change runs the migrations marked -- guard:osc pt-osc;
# promtool (package prometheus) checks and unit-tests guard gen alerts' rules;
# chromium renders the html reports in the browser tests (internal/browsertest).
# Install them when they are missing and we may.
deps:
	@missing=""; \
	{ command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; } && \
		{ command -v mariadb-install-db >/dev/null 2>&1 || command -v mysql_install_db >/dev/null 2>&1; } || \
		missing="$$missing mariadb-server"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	command -v pt-online-schema-change >/dev/null 2>&1 || missing="$$missing percona-toolkit"; \
	command -v git >/dev/null 2>&1 || missing="$$missing git"; \
	command -v promtool >/dev/null 2>&1 || missing="$$missing prometheus"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
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

# Every fuzz target of the module, one after another, for FUZZTIME each (default 60s).
FUZZTIME ?= 60s
fuzz:
	@grep -rl --include='*_test.go' '^func Fuzz' . | grep -v /testdata/ | while read f; do \
		dir=$$(dirname $$f); \
		for fn in $$(grep -o '^func Fuzz[A-Za-z0-9_]*' $$f | cut -d' ' -f2); do \
			echo "== $$dir $$fn"; \
			$(GO) test ./$$dir -run='^$$' -fuzz="^$$fn$$" -fuzztime=$(FUZZTIME) || exit 1; \
		done; \
	done

# guard lint next to the bare parser, in process, the sides interleaved
# (BenchmarkLintVersusParse prints their medians and ratios).
bench:
	$(GO) test ./internal/driver -run='^$$' -bench='BenchmarkLintVersusParse$$' -benchtime=7x -count=1

# guard lint's whole process (text and JSON) against the parse floor, the TiDB
# parser called directly, in alternating rounds (ROUNDS=N, default 7).
bench-floor:
	$(GO) test ./internal/driver -run='^$$' -bench='BenchmarkWholeProcess$$' -benchtime=1x -count=1

# guard's main job on the bundled example, no database needed.
example:
	$(GO) run ./cmd/guard lint examples/shop
