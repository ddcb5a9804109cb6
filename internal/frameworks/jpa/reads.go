package jpa

import (
	"strings"

	"github.com/guard-sql/guard/internal/hostcode/java"
)

// readPrefixes start the names of Spring Data's derived finders.
var readPrefixes = []string{"find", "get", "read", "query"}

// repositoryReceiver reports whether a receiver's declared type or, with
// names too, its name says it is a repository.
func repositoryReceiver(c java.ReadCall, repoSuffix bool) bool {
	name := strings.ToLower(c.Receiver)
	return repositoryType(c.ReceiverType) || strings.Contains(name, "repositor") || repoSuffix && strings.HasSuffix(name, "repo")
}

// readOne returns the repository method of a JPA read of one entity that
// initialises a local: `P p = repo.findById(id).orElseThrow(…)` (or
// .get(), .orElse(null)), `repo.getById(id)`, `repo.getReferenceById(id)`,
// `repo.findBySku(sku)` — on a receiver whose type or name says
// repository. "" for anything else: a List, an Optional kept as one.
func readOne(c java.ReadCall) string {
	if c.Declared == "" || !repositoryReceiver(c, true) || len(c.Then) > 1 {
		return ""
	}
	unwrapped := len(c.Then) == 1
	if unwrapped {
		switch t := c.Then[0]; t.Method {
		case "get", "orElseThrow":
		case "orElse":
			if t.Args != "null" {
				return ""
			}
		default:
			return ""
		}
	}
	m := c.Method
	finder := false
	for _, p := range readPrefixes {
		if rest, ok := strings.CutPrefix(m, p); ok && strings.Contains(rest, "By") {
			finder = true
		}
	}
	switch {
	case m == "getById" || m == "getOne" || m == "getReferenceById" || m == "findOne":
	case m == "findById":
		if !unwrapped {
			return ""
		}
	case finder:
		// A derived finder returning an Optional or an entity; a var of
		// one that is not unwrapped may be a list.
		if c.Declared == "var" && !unwrapped {
			return ""
		}
	default:
		return ""
	}
	return m
}

// readMany returns the repository method when c is exactly `repo.m(…)` of
// a finder returning entities (findAll…, find…By…) on a receiver whose
// type or name says repository.
func readMany(c java.ReadCall) string {
	if len(c.Then) > 0 || !repositoryReceiver(c, false) {
		return ""
	}
	for _, p := range readPrefixes {
		if rest, ok := strings.CutPrefix(c.Method, p); ok && (strings.HasPrefix(rest, "All") || strings.Contains(rest, "By")) {
			return c.Method
		}
	}
	return ""
}
