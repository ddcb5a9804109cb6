package java

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/stmt"
)

func javaReadTestdata(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "java", name))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// javaCheckPositions checks what every fragment of f must satisfy, and that
// each letter of the SQL maps back to the same letter in src (or to the
// backslash of the escape that wrote it). It returns a description of the
// first violation, or "".
func javaCheckPositions(src []byte, f *File) string {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	lines := bytes.Split(src, []byte("\n"))
	at := func(line, col int) (byte, bool) {
		if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1]) {
			return 0, false
		}
		return lines[line-1][col-1], true
	}
	for _, fr := range f.Fragments {
		if fr.Line < 1 || fr.EndLine < fr.Line || fr.Col < 1 {
			return fmt.Sprintf("fragment %q at %d-%d:%d: bad position", fr.ID, fr.Line, fr.EndLine, fr.Col)
		}
		if fr.Unchecked != "" {
			if fr.SQL != "" || len(fr.Segments) > 0 {
				return fmt.Sprintf("unchecked fragment at line %d has SQL", fr.Line)
			}
			continue
		}
		if fr.SQL == "" || len(fr.Segments) == 0 || fr.Segments[0].Off != 0 {
			return fmt.Sprintf("fragment at line %d: empty SQL or segments %v", fr.Line, fr.Segments)
		}
		for i, s := range fr.Segments {
			if s.Off >= len(fr.SQL) || i > 0 && s.Off <= fr.Segments[i-1].Off {
				return fmt.Sprintf("fragment at line %d: segments out of order %v", fr.Line, fr.Segments)
			}
		}
		if fr.Variant != "" || fr.Builder != "" {
			continue // rendered MyBatis XML and wrapper chains add words of their own
		}
		for _, d := range fr.Dollar {
			if c, ok := at(d.Line, d.Col); !ok || c != '$' && c != '\\' {
				return fmt.Sprintf("dollar %q at %d:%d is not on a '$'", d.Expr, d.Line, d.Col)
			}
		}
		for off := 0; off < len(fr.SQL); off++ {
			c := fr.SQL[off]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				continue
			}
			line, col := fr.Pos(off)
			if got, ok := at(line, col); !ok || got != c && got != '\\' {
				return fmt.Sprintf("fragment at line %d: SQL byte %d %q maps to %d:%d holding %q", fr.Line, off, c, line, col, got)
			}
		}
	}
	return ""
}

// javaFirstString returns the value of the first string literal of src.
func javaFirstString(t *testing.T, src string) string {
	t.Helper()
	toks, _, err := lexJava([]byte(src))
	if err != nil {
		t.Fatalf("lex: %s at %d:%d", err.msg, err.line, err.col)
	}
	for _, tok := range toks {
		if tok.kind == javaString {
			return tok.literal().String()
		}
	}
	t.Fatal("no string literal")
	return ""
}

func TestJavaTextBlock(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"indentation stripped", "s = \"\"\"\n    SELECT 1\n      FROM t\n    \"\"\";", "SELECT 1\n  FROM t\n"},
		{"closing delimiter sets the indentation", "s = \"\"\"\n    SELECT 1\n  \"\"\";", "  SELECT 1\n"},
		{"closing delimiter on the last line", "s = \"\"\"\n    SELECT 1\n    FROM t\"\"\";", "SELECT 1\nFROM t"},
		{"closing delimiter further right", "s = \"\"\"\n  a\n    b\n        \"\"\";", "a\n  b\n"},
		{"blank lines do not count", "s = \"\"\"\n    a\n\n  \n    b\n    \"\"\";", "a\n\n\nb\n"},
		{"trailing blanks stripped, \\s kept", "s = \"\"\"\n    a   \n    b \\s\n    \"\"\";", "a\nb  \n"},
		{"line continuation", "s = \"\"\"\n    SELECT a, \\\n    b FROM t\n    \"\"\";", "SELECT a, b FROM t\n"},
		{"escapes", "s = \"\"\"\n  say \"hi\" \\\"\"\" \\t\\n\n  \"\"\";", "say \"hi\" \"\"\" \t\n\n"},
		{"CRLF line ends", "s = \"\"\"\r\n    a\r\n    b\r\n    \"\"\";", "a\nb\n"},
		{"tabs count as one", "s = \"\"\"\n\t\ta\n\t\t\tb\n\t\t\"\"\";", "a\n\tb\n"},
		{"opening line may end with blanks", "s = \"\"\"  \n  a\n  \"\"\";", "a\n"},
		{"empty", "s = \"\"\"\n\"\"\";", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := javaFirstString(t, tc.src); got != tc.want {
				t.Errorf("value = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestJavaStringEscapes(t *testing.T) {
	cases := []struct{ src, want string }{
		{`"a\tb\n"`, "a\tb\n"},
		{`"it\'s \"x\" \\ \s"`, `it's "x" \  `},
		{`"\101\60\0"`, "A0\x00"},
		{`"\u0041\uuu00e9"`, "Aé"},
		{`"\q \u00zz"`, `\q \u00zz`},
		{`"naïve ☃"`, "naïve ☃"},
	}
	for _, tc := range cases {
		if got := javaFirstString(t, tc.src); got != tc.want {
			t.Errorf("%s = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestJavaLexTokens(t *testing.T) {
	src := "@org.x.Y(a = 1.5e+3, b = 'c') int f() { x += 0x1F; a->b; i++; }"
	toks, _, err := lexJava([]byte(src))
	if err != nil {
		t.Fatal(err.msg)
	}
	var got []string
	for _, tok := range toks {
		got = append(got, tok.text)
	}
	want := []string{"org.x.Y", "(", "a", "=", "1.5e+3", ",", "b", "=", "'c'", ")", "int", "f", "(", ")", "{",
		"x", "+=", "0x1F", ";", "a", "->", "b", ";", "i", "++", ";", "}"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
}

func TestExtractJavaPositions(t *testing.T) {
	src := javaMapper(
		`  @Update("""`, // line 3
		`      UPDATE t_stock`,
		`         SET qty = qty - #{n}`,
		"       WHERE id = #{id}\\tAND x = 'a\\\"b'",
		`      """)`,
		`  int deduct(long id, int n);`,
	)
	f := ExtractJava("M.java", []byte(src))
	if len(f.Fragments) != 1 {
		t.Fatalf("fragments = %d, want 1", len(f.Fragments))
	}
	fr := f.Fragments[0]
	cases := []struct {
		find      string
		line, col int
	}{
		{"UPDATE", 4, 7},
		{"SET", 5, 10},
		{"qty -", 5, 20},
		{"?,", 5, 26}, // #{n} became ?
		{"WHERE", 6, 8},
		{"\tAND", 6, 24}, // the escape maps to its backslash
		{"AND", 6, 26},
		{"b'", 6, 38},
	}
	for _, tc := range cases {
		off := strings.Index(fr.SQL, tc.find)
		if tc.find == "?," {
			off = strings.Index(fr.SQL, "?")
		}
		if off < 0 {
			t.Fatalf("%q not in %q", tc.find, fr.SQL)
		}
		if line, col := fr.Pos(off); line != tc.line || col != tc.col {
			t.Errorf("Pos(%q) = %d:%d, want %d:%d", tc.find, line, col, tc.line, tc.col)
		}
	}
	if msg := javaCheckPositions([]byte(src), f); msg != "" {
		t.Error(msg)
	}
}

func TestExtractJavaSuppressions(t *testing.T) {
	src := javaSrc(
		`class Dao {`,
		`  // guard:ignore GQ002 stock is reconciled nightly`,
		`  /* guard:ignore gq007 read for a report */`,
		`  /**`,
		`   * guard:ignore GQ001 full`,
		`   * table reset`,
		`   */`,
		`  //guard:ignore GQ003`,
		`  // an ordinary comment`,
		`  String s = "// guard:ignore GQ004 not a comment";`,
		`}`,
	)
	f := ExtractJava("Dao.java", []byte(src))
	want := []stmt.Suppression{
		{Code: "GQ002", Reason: "stock is reconciled nightly", Line: 2, Col: 3},
		{Code: "GQ007", Reason: "read for a report", Line: 3, Col: 3},
		{Code: "GQ001", Reason: "full table reset", Line: 7, Col: 3},
		{Code: "GQ003", Reason: "", Line: 8, Col: 3},
	}
	if diff := cmp.Diff(want, f.Suppressions); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
}

func TestExtractJavaBroken(t *testing.T) {
	cases := []struct {
		name, src string
		want      javaView
	}{
		{"unterminated string", javaSrc(`class A {`, `  String s = "abc;`, `}`),
			javaView{Line: 2, EndLine: 2, Col: 14, Unchecked: "java: cannot read file: unterminated string literal"}},
		{"unterminated comment", javaSrc(`class A {`, `  /* never`, `}`),
			javaView{Line: 2, EndLine: 2, Col: 3, Unchecked: "java: cannot read file: unterminated comment"}},
		{"unterminated text block", javaSrc(`class A {`, `  String s = """`, `    abc`, `}`),
			javaView{Line: 2, EndLine: 2, Col: 14, Unchecked: "java: cannot read file: unterminated text block"}},
		{"text block content on the opening line", javaSrc(`class A {`, `  String s = """abc""";`, `}`),
			javaView{Line: 2, EndLine: 2, Col: 14, Unchecked: "java: cannot read file: text block must start with a line break after \"\"\""}},
		{"unterminated char", javaSrc(`class A {`, `  char c = 'a;`, `}`),
			javaView{Line: 2, EndLine: 2, Col: 12, Unchecked: "java: cannot read file: unterminated character literal"}},
		{"unbalanced annotation", javaMapper(`  @Select("SELECT 1"`, `  int one();`),
			javaView{Line: 3, EndLine: 3, Col: 10, Unchecked: "java: cannot read file: unbalanced \"(\": \"}\" at 5:1 closes it"}},
		{"extra closing parenthesis", javaSrc(`class A {`, `  void f()) {}`, `}`),
			javaView{Line: 2, EndLine: 2, Col: 11, Unchecked: "java: cannot read file: unbalanced \")\""}},
		{"block never closed", javaSrc(`class A {`, `  void f() {}`),
			javaView{Line: 1, EndLine: 1, Col: 9, Unchecked: "java: cannot read file: unbalanced \"{\": never closed"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := ExtractJava("A.java", []byte(tc.src))
			if diff := cmp.Diff([]javaView{tc.want}, javaViews(f)); diff != "" {
				t.Errorf("fragments (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzExtractJava(f *testing.F) {
	for _, name := range []string{"StockMapper.java", "JdbcStockDao.java"} {
		f.Add(javaReadTestdata(f, name))
	}
	for _, s := range []string{
		"",
		"\xef\xbb\xbfclass A { static final String S = \"SELECT 1\"; }",
		"class A {\r\n  String s = \"\"\"\r\n    SELECT \\\r\n    1\r\n    \"\"\";\r\n void f() { jdbc.update(s); } }",
		"interface M { @Select({\"SELECT \" + C, \"FROM t WHERE a = ${a} AND b = #{b}\"}) int f(); String C = \"x\\u0041\\101\"; }",
		"class A { void f() { String sql; sql = \"DELETE FROM t\"; sql += x; jdbc.update(sql); } }",
		"class A { void f() { sb.append(\"UPDATE t \").append(x); new StringBuilder(\"SELECT \" + y); } }",
		"class A { String a = B; String B = a; void f() { jdbc.update(a + B); } }",
		"@Update(\"\"\"\n  x\n  \"\"\") int f(",
		"class A { void f() { x = '\\u0027'; y = 1e-5; z = .5f; } }",
		"/* guard:ignore GQ001 x */ class A { String s = String.format(\"DELETE %s\", ((((t))))); }",
		"interface M extends BaseMapper<SkuDO> { default int f(Long id, int n) { LambdaUpdateWrapper<SkuDO> w = new LambdaUpdateWrapper<>(); w.eq(SkuDO::getId, id).ge(n > 0, SkuDO::getStock, n); return update(null, w.setSql(\"stock = stock - \" + n).and(i -> i.apply(\"a > {0}\", n).or().isNull(SkuDO::getX))); } }",
		"class S extends ServiceImpl<M, SkuDO> { void f(Long id) { SkuDO s = getById(id); s.setStatus(1); updateById(new SkuDO().setId(id).setStatus(s.getStatus())); lambdaUpdate().set(SkuDO::getA, 1).update(); } }",
		".update(", ".updateById(x)", "update(null, new LambdaUpdateWrapper<", "\"abc\\", "'\\", "@", "\"\"\"\n\\", "@Select(", "x.append(", "String a = ", "import", "\xff\xfe@\xc3",
		"import javax.persistence.*; @Entity @Table(name = \"t\") class E extends B { @Id Long id; @Column(name = \"q\") int q; void dec(int n) { this.q -= n; } }",
		"import org.springframework.data.jpa.repository.*; interface R extends JpaRepository<E, Long> { @Modifying @Query(value = \"update t set q = q - ?1 where id like %?2%\", nativeQuery = true) void d(int n, Long id); @Query(\"update E e set e.q = 0\") int z(); @Lock(X) E findLockedById(Long id); }",
		"import org.springframework.transaction.annotation.Transactional; class S { R r; @Transactional public void f(Long id) { E e = r.findById(id).orElseThrow(); e.dec(1); for (E x : r.findAllById(ids)) { x.setQ(x.getQ() - 1); } r.d(1, id); r.save(e); } }",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file := ExtractJava("F.java", src)
		if file == nil || file.Path != "F.java" {
			t.Fatal("no file")
		}
		if bytes.Contains(src, []byte("<script>")) {
			return // the XML renderer owns those positions
		}
		if msg := javaCheckPositions(src, file); msg != "" {
			t.Fatal(msg)
		}
	})
}
