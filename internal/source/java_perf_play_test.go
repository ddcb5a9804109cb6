package source

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestJavaPerfPlay(t *testing.T) {
	gens := map[string]string{
		"concat":  "class A { String s = \"SELECT \"" + strings.Repeat(" + \"a\"", 20000) + "; }",
		"concatdyn":  "class A { String s = \"SELECT \"" + strings.Repeat(" + x", 20000) + "; }",
		"parens":  "class A { String s = " + strings.Repeat("(", 5000) + "\"SELECT 1\"" + strings.Repeat(")", 5000) + "; }",
		"methods": "class A {" + strings.Repeat(" void f() { String sql = \"SELECT 1 FROM t\"; sql = sql + x; jdbc.update(sql); }\n", 3000) + "}",
		"fields":  "class A {" + strings.Repeat(" String sql = \"SELECT 1 FROM t\";\n void f() { sql = \"UPDATE t SET a = 1\"; jdbc.update(sql); }\n", 2000) + "}",
		"comments": strings.Repeat("/* x */ // y\n", 20000),
		"braces": "class A {" + strings.Repeat("{", 5000) + strings.Repeat("}", 5000) + "}",
		"chain": "class A { void f() { x" + strings.Repeat(".append(\"SELECT a\")", 5000) + "; } }",
		"args": "class A { void f() { jdbc.update(" + strings.Repeat("\"SELECT 1\",", 20000) + "1); } }",
	}
	for name, src := range gens { if os.Getenv("ONLY") != "" && name != os.Getenv("ONLY") { continue }
		start := time.Now()
		f := ExtractJava("A.java", []byte(src))
		t.Logf("%s: %d bytes, %d fragments, %v", name, len(src), len(f.Fragments), time.Since(start))
	}
}
