package driver

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// goctlModelMethod names the model and method of a statement of a goctl
// model: a method of defaultProductModel (the generated file) or of
// customProductModel (the file people extend) is method of ProductModel,
// the interface a service context holds. ok is false for any other
// fragment.
func goctlModelMethod(fr *stmt.Fragment) (model, method string, ok bool) {
	if fr == nil || fr.Lang != stmt.LangGo {
		return "", "", false
	}
	recv, method, ok := strings.Cut(fr.ID, ".")
	if !ok || method == "" {
		return "", "", false
	}
	for _, prefix := range []string{"default", "custom"} {
		name, found := strings.CutPrefix(recv, prefix)
		if found && len(name) > len("Model") && strings.HasSuffix(name, "Model") && unicode.IsUpper(rune(name[0])) {
			return name, method, true
		}
	}
	return "", "", false
}

// rpcServers indexes the goctl model calls made by go-zero RPC logic
// methods, by the method and its request type, so that a client's call of
// the RPC is judged by what the server writes.
// goctlFieldTypes maps the fields that hold a goctl model under another
// name to the model's type, from every file of the run; a field name that
// stands for two types is dropped.
func goctlFieldTypes(results []fileResult) map[string]string {
	out := map[string]string{}
	bad := map[string]bool{}
	for _, r := range results {
		if r.file == nil {
			continue
		}
		for f, t := range r.file.GoctlFields {
			if old, ok := out[f]; ok && old != t {
				bad[f] = true
			}
			out[f] = t
		}
	}
	for f := range bad {
		delete(out, f)
	}
	return out
}

// ModelStatements returns the statements of method of the goctl model a
// logic call reaches through field (l.svcCtx.OrderModel): the model of
// that name, or the one the project's structs declare the field with.
func (ix *writeIndex) ModelStatements(field, method string) []*lint.Statement {
	if ix == nil {
		return nil
	}
	if sts := ix.byID[field+"#"+method]; sts != nil {
		return sts
	}
	if t, ok := ix.fields[field]; ok {
		return ix.byID[t+"#"+method]
	}
	return nil
}

type rpcServers struct {
	byType map[string][]lint.ServerCall // import path + "." + type + "#" + method
	byName map[string][]lint.ServerCall // type + "#" + method
}

func newRPCServers(results []fileResult) rpcServers {
	s := rpcServers{byType: map[string][]lint.ServerCall{}, byName: map[string][]lint.ServerCall{}}
	for _, r := range results {
		if r.file == nil {
			continue
		}
		for i := range r.file.MapperCalls {
			c := &r.file.MapperCalls[i]
			if c.Framework != stmt.FrameworkGoctl || c.Request == "" {
				continue
			}
			method := c.HostMethod[strings.LastIndexByte(c.HostMethod, '.')+1:]
			name := c.Request[strings.LastIndexByte(c.Request, '.')+1:]
			sc := lint.ServerCall{File: r.file.Path, Call: c}
			s.byType[c.Request+"#"+method] = append(s.byType[c.Request+"#"+method], sc)
			s.byName[name+"#"+method] = append(s.byName[name+"#"+method], sc)
		}
	}
	return s
}

// ServerCalls returns the model calls the logic of RPC method makes when
// it is called with request type req (import path + "." + type): the logic
// method of that name taking that type, or, when the client names the type
// through another package (goctl's client package aliases the server's
// types), the one logic method in the project of that name taking a type
// of that name. Nil when there is none, or several.
func (ix *writeIndex) ServerCalls(req, method string) []lint.ServerCall {
	if ix == nil {
		return nil
	}
	if cs := ix.servers.byType[req+"#"+method]; cs != nil {
		return cs
	}
	cs := ix.servers.byName[req[strings.LastIndexByte(req, '.')+1:]+"#"+method]
	for _, c := range cs {
		if c.Call.Request != cs[0].Call.Request || c.Call.HostMethod != cs[0].Call.HostMethod {
			return nil // two services answer an RPC of that name
		}
	}
	return cs
}

// goMaxPackageFiles bounds the files of a package read with one that needs
// them (hostcode.File.NeedsPackage): a goctl model package holds a few.
const goMaxPackageFiles = 64

// goPackageFiles reads the other Go files of the directory of p, tests
// left out, for a goctl model file whose statements name what they
// declare. Nil when the directory cannot be read or holds too many.
func goPackageFiles(p string, tx *texts) map[string][]byte {
	dir := filepath.Dir(p)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := map[string][]byte{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == filepath.Base(p) {
			continue
		}
		if len(out) == goMaxPackageFiles {
			return nil
		}
		src, err := tx.keep(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		out[filepath.Join(dir, name)] = src
	}
	return out
}

// goPackageDirs returns the folders of the Go sources whose files may be
// read with one of them (goPackageFiles): those holding a file named like
// a goctl model's (xxxmodel.go, xxxmodel_gen.go), the package that a
// hand-written model file names its generated neighbour's declarations
// from. Their texts are kept through the extraction; elsewhere a text is
// dropped once its file is extracted.
func goPackageDirs(sources []string) map[string]bool {
	dirs := map[string]bool{}
	for _, p := range sources {
		base := strings.ToLower(filepath.Base(p))
		if isGo(p) && (strings.HasSuffix(base, "_gen.go") || strings.Contains(base, "model")) {
			dirs[filepath.Dir(p)] = true
		}
	}
	return dirs
}
