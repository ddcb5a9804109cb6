package lint

import (
	"strings"
	"unicode"

	"github.com/guard-sql/guard/internal/source"
)

// goctlModelMethod names the model and method of a statement of a goctl
// model: a method of defaultProductModel (the generated file) or of
// customProductModel (the file people extend) is method of ProductModel,
// the interface a service context holds. ok is false for any other
// fragment.
func goctlModelMethod(fr *source.Fragment) (model, method string, ok bool) {
	if fr == nil || fr.Lang != source.LangGo {
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
type rpcServers struct {
	byType map[string][]ServerCall // import path + "." + type + "#" + method
	byName map[string][]ServerCall // type + "#" + method
}

// ServerCall is a goctl model call an RPC server's logic makes, with the
// file it stands in.
type ServerCall struct {
	File string
	Call *source.MapperCall
}

func newRPCServers(results []fileResult) rpcServers {
	s := rpcServers{byType: map[string][]ServerCall{}, byName: map[string][]ServerCall{}}
	for _, r := range results {
		if r.file == nil {
			continue
		}
		for i := range r.file.MapperCalls {
			c := &r.file.MapperCalls[i]
			if c.Framework != source.FrameworkGoctl || c.Request == "" {
				continue
			}
			method := c.HostMethod[strings.LastIndexByte(c.HostMethod, '.')+1:]
			name := c.Request[strings.LastIndexByte(c.Request, '.')+1:]
			sc := ServerCall{File: r.file.Path, Call: c}
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
func (ix *MapperIndex) ServerCalls(req, method string) []ServerCall {
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
