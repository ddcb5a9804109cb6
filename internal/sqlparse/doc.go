package sqlparse

//go:generate sh -c "go run ./gen $(go list -m -f '{{.Dir}}' github.com/pingcap/tidb/pkg/parser) > ast_gen.go && gofmt -w ast_gen.go"
