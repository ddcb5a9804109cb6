package driver

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

func TestGoctlModelMethod(t *testing.T) {
	cases := []struct {
		id, model, method string
		ok                bool
	}{
		{"defaultProductModel.Update", "ProductModel", "Update", true},
		{"customProductModel.DecrStock", "ProductModel", "DecrStock", true},
		{"defaultModel.Update", "", "", false},
		{"ProductModel.Update", "", "", false},
		{"defaultproductModel.Update", "", "", false},
		{"Update", "", "", false},
	}
	for _, c := range cases {
		m, meth, ok := goctlModelMethod(&stmt.Fragment{Lang: stmt.LangGo, ID: c.id})
		if m != c.model || meth != c.method || ok != c.ok {
			t.Errorf("%s: got %q %q %v, want %q %q %v", c.id, m, meth, ok, c.model, c.method, c.ok)
		}
	}
	if _, _, ok := goctlModelMethod(&stmt.Fragment{Lang: stmt.LangXML, ID: "defaultProductModel.Update"}); ok {
		t.Error("a mapper XML statement read as a goctl model's")
	}
}

// TestServerCalls joins a client's RPC call to the logic of the server
// taking the same request type, or, through goctl's client aliases, the
// one server of that method and type name; two such servers answer nothing.
func TestServerCalls(t *testing.T) {
	file := func(path string, calls ...stmt.MapperCall) fileResult {
		return fileResult{file: &hostcode.File{Path: path, MapperCalls: calls}}
	}
	call := func(host, req string) stmt.MapperCall {
		return stmt.MapperCall{Framework: stmt.FrameworkGoctl, Mapper: "XModel", Method: "Update", HostMethod: host, Request: req}
	}
	ix := &writeIndex{servers: newRPCServers([]fileResult{
		file("product/rpc/internal/logic/updatelogic.go", call("UpdateLogic.Update", "mall/product/rpc/pb.UpdateReq")),
		file("order/rpc/internal/logic/updatelogic.go", call("UpdateLogic.Update", "mall/order/rpc/pb.UpdateReq")),
		file("stock/rpc/internal/logic/decrlogic.go", call("DecrLogic.Decr", "mall/stock/rpc/pb.DecrReq")),
		file("stock/api/logic.go", stmt.MapperCall{Framework: stmt.FrameworkGoctl, HostMethod: "ApiLogic.Decr"}),
	})}
	files := func(scs []lint.ServerCall) []string {
		var out []string
		for _, sc := range scs {
			out = append(out, sc.File)
		}
		return out
	}
	cases := []struct {
		req, method string
		want        []string
	}{
		{"mall/product/rpc/pb.UpdateReq", "Update", []string{"product/rpc/internal/logic/updatelogic.go"}},
		{"mall/product/rpc/product.UpdateReq", "Update", nil}, // an alias: two servers take an UpdateReq
		{"mall/stock/rpc/stock.DecrReq", "Decr", []string{"stock/rpc/internal/logic/decrlogic.go"}},
		{"mall/stock/rpc/pb.DecrReq", "Incr", nil},
	}
	for _, c := range cases {
		if d := cmp.Diff(c.want, files(ix.ServerCalls(c.req, c.method))); d != "" {
			t.Errorf("%s %s (-want +got):\n%s", c.req, c.method, d)
		}
	}
}
