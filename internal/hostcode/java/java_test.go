package java

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/stmt"
)

// javaSrc joins lines into a Java file, so that a case's line numbers are its
// index + 1.
func javaSrc(lines ...string) string {
	return strings.Join(lines, "\n") + "\n"
}

// javaView is what the tests compare of a fragment.
type javaView struct {
	Line, EndLine, Col int
	ID                 string
	SQL                string
	Unchecked          string
	Dollar             []stmt.Dollar
}

func javaViews(f *File) []javaView {
	var out []javaView
	for _, fr := range f.Fragments {
		out = append(out, javaView{Line: fr.Line, EndLine: fr.EndLine, Col: fr.Col, ID: fr.ID, SQL: fr.SQL, Unchecked: fr.Unchecked, Dollar: fr.Dollar})
	}
	return out
}

type javaCase struct {
	name string
	src  string
	want []javaView
}

func runJavaCases(t *testing.T, cases []javaCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := ExtractJava("Dao.java", []byte(tc.src))
			if f.Path != "Dao.java" || f.Lang != stmt.LangJava {
				t.Errorf("file = %q %q, want Dao.java java", f.Path, f.Lang)
			}
			for _, fr := range f.Fragments {
				if fr.File != "Dao.java" || fr.Lang != stmt.LangJava {
					t.Errorf("fragment file = %q %q", fr.File, fr.Lang)
				}
			}
			if diff := cmp.Diff(tc.want, javaViews(f)); diff != "" {
				t.Errorf("fragments (-want +got):\n%s", diff)
			}
			if msg := javaCheckPositions([]byte(tc.src), f); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// javaMapper wraps annotated methods in a mapper interface that imports
// MyBatis; the methods start on line 3.
func javaMapper(lines ...string) string {
	head := []string{"import org.apache.ibatis.annotations.*;", "interface StockMapper {"}
	return javaSrc(append(append(head, lines...), "}")...)
}

func TestExtractJavaAnnotations(t *testing.T) {
	runJavaCases(t, []javaCase{
		{"literal", javaMapper(
			`  @Select("SELECT * FROM t_stock WHERE id = #{id}")`,
			`  Stock get(@Param("id") long id);`,
		), []javaView{{Line: 3, EndLine: 3, Col: 3, ID: "get", SQL: "SELECT * FROM t_stock WHERE id = ?"}}},
		{"fully qualified without import", javaSrc(
			`interface M {`,
			`  @org.apache.ibatis.annotations.Update("UPDATE t SET a = 1 WHERE id = #{id}")`,
			`  int touch(long id);`,
			`}`,
		), []javaView{{Line: 2, EndLine: 2, Col: 3, ID: "touch", SQL: "UPDATE t SET a = 1 WHERE id = ?"}}},
		{"value and databaseId", javaMapper(
			`  @Delete(databaseId = "mysql", value = "DELETE FROM t WHERE id = #{id}")`,
			`  int remove(long id);`,
		), []javaView{{Line: 3, EndLine: 3, Col: 3, ID: "remove", SQL: "DELETE FROM t WHERE id = ?"}}},
		{"array joined with spaces", javaMapper(
			`  @Update({"UPDATE t_stock SET qty = qty - #{n}",`,
			`           "WHERE id = #{id}", "AND qty >= #{n}",})`,
			`  @Options(useGeneratedKeys = false)`,
			`  int deduct(long id, int n);`,
		), []javaView{{Line: 3, EndLine: 4, Col: 3, ID: "deduct", SQL: "UPDATE t_stock SET qty = qty - ? WHERE id = ? AND qty >= ?"}}},
		{"concatenation across lines with comments", javaMapper(
			`  @Insert("INSERT INTO t (a, b) " + // columns`,
			`      /* values */ "VALUES (#{a}, " +`,
			`      "#{b})")`,
			`  int add(T t);`,
		), []javaView{{Line: 3, EndLine: 5, Col: 3, ID: "add", SQL: "INSERT INTO t (a, b) VALUES (?, ?)"}}},
		{"text block", javaMapper(
			`  @Update("""`,
			`      UPDATE t_stock`,
			`         SET qty = qty - #{n}`,
			`       WHERE id = #{id}`,
			`      """)`,
			`  int deduct(long id, int n);`,
		), []javaView{{Line: 3, EndLine: 7, Col: 3, ID: "deduct", SQL: "UPDATE t_stock\n   SET qty = qty - ?\n WHERE id = ?\n"}}},
		{"constants of the interface", javaMapper(
			`  String COLS = "id, qty";`,
			`  String FROM = " FROM t_stock";`,
			`  @Select("SELECT " + COLS + FROM + " WHERE id = #{id}")`,
			`  Stock get(long id);`,
		), []javaView{{Line: 5, EndLine: 5, Col: 3, ID: "get", SQL: "SELECT id, qty FROM t_stock WHERE id = ?"}}},
		{"constant used whole is reported at the annotation only", javaMapper(
			`  String DEDUCT = "UPDATE t SET qty = qty - #{n} WHERE id = #{id}";`,
			`  @Update(DEDUCT)`,
			`  int deduct(long id, int n);`,
		), []javaView{{Line: 4, EndLine: 4, Col: 3, ID: "deduct", SQL: "UPDATE t SET qty = qty - ? WHERE id = ?"}}},
		{"dollar substitution", javaMapper(
			`  @Select("SELECT * FROM t ORDER BY ${ col } LIMIT #{n}")`,
			`  List<T> page(String col, int n);`,
		), []javaView{{Line: 3, EndLine: 3, Col: 3, ID: "page", SQL: "SELECT * FROM t ORDER BY ? LIMIT ?",
			Dollar: []stmt.Dollar{{Expr: "col", Line: 3, Col: 37}}}}},
		{"escaped placeholder stays", javaMapper(
			`  @Select("SELECT '\\#{x}' FROM t WHERE id = #{id}")`,
			`  String get(long id);`,
		), []javaView{{Line: 3, EndLine: 3, Col: 3, ID: "get", SQL: "SELECT '#{x}' FROM t WHERE id = ?"}}},
		{"unterminated placeholder stays", javaMapper(
			`  @Select("SELECT * FROM t WHERE id = #{id")`,
			`  T get(long id);`,
		), []javaView{{Line: 3, EndLine: 3, Col: 3, ID: "get", SQL: "SELECT * FROM t WHERE id = #{id"}}},
		{"constant of another file", javaMapper(
			`  @Select("SELECT " + Columns.STOCK + " FROM t_stock")`,
			`  List<T> all();`,
		), []javaView{{Line: 3, EndLine: 3, Col: 3, ID: "all", Unchecked: "MyBatis SQL uses constants not defined in this file: Columns.STOCK"}}},
		{"provider", javaMapper(
			`  @UpdateProvider(type = StockSql.class, method = "deduct")`,
			`  int deduct(long id);`,
		), []javaView{{Line: 3, EndLine: 3, Col: 3, ID: "deduct", Unchecked: "SQL built at run time: @UpdateProvider builds the statement in Java"}}},
		{"MyBatis Dynamic SQL adapter: one finding for the mapper", javaMapper(
			`  @UpdateProvider(type=SqlProviderAdapter.class, method="update")`,
			`  int update(UpdateStatementProvider updateStatement);`,
			`  @DeleteProvider(type = org.mybatis.dynamic.sql.util.SqlProviderAdapter.class, method = "delete")`,
			`  int delete(DeleteStatementProvider deleteStatement);`,
			`  @SelectProvider(type=SqlProviderAdapter.class, method="select")`,
			`  long count(SelectStatementProvider selectStatement);`,
		), []javaView{{Line: 3, EndLine: 3, Col: 3, ID: "update", Unchecked: "SQL built at run time: 3 methods of this mapper run the statement MyBatis Dynamic SQL's SqlProviderAdapter renders from the DSL of their callers"}}},
		{"another framework's annotation", javaSrc(
			`import io.micronaut.http.annotation.Delete;`,
			`class C {`,
			`  @Delete("/stock/{id}")`,
			`  void remove(long id) {}`,
			`}`,
		), nil},
		{"no MyBatis import: only SQL-looking values", javaSrc(
			`interface M {`,
			`  @Delete("/stock/{id}") void a();`,
			`  @Delete("DELETE FROM t WHERE id = #{id}") void b(long id);`,
			`}`,
		), []javaView{{Line: 3, EndLine: 3, Col: 3, ID: "b", SQL: "DELETE FROM t WHERE id = ?"}}},
		{"method after other annotations", javaMapper(
			`  @Select("SELECT 1")`,
			`  @Results({@Result(column = "a", property = "b")})`,
			`  @ResultType(Integer.class)`,
			`  Integer one();`,
		), []javaView{{Line: 3, EndLine: 3, Col: 3, ID: "one", SQL: "SELECT 1"}}},
	})
}

func TestExtractJavaScriptAnnotation(t *testing.T) {
	src := javaMapper(
		`  @Select({"<script>",`,
		`           "SELECT * FROM t_stock",`,
		`           "<where><if test='sku != null'>sku = #{sku}</if></where>",`,
		`           "</script>"})`,
		`  List<Stock> find(String sku);`,
	)
	f := ExtractJava("M.java", []byte(src))
	var got []string
	for _, fr := range f.Fragments {
		if fr.ID != "find" || fr.Line != 3 || fr.EndLine != 6 || fr.Unchecked != "" {
			t.Errorf("fragment %+v: want ID find, lines 3-6, checked", fr)
		}
		got = append(got, strings.Join(strings.Fields(fr.SQL), " "))
	}
	want := []string{"SELECT * FROM t_stock WHERE sku = ?", "SELECT * FROM t_stock"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SQL (-want +got):\n%s", diff)
	}
	if len(f.Fragments) == 2 {
		fr := f.Fragments[0]
		off := strings.Index(fr.SQL, "sku =")
		if line, col := fr.Pos(off); line != 5 || col != 43 {
			t.Errorf("Pos(sku) = %d:%d, want 5:43", line, col)
		}
	}
}

func TestExtractJavaJDBC(t *testing.T) {
	runJavaCases(t, []javaCase{
		{"JdbcTemplate literal", javaSrc(
			`class Dao {`,
			`  int deduct(long id, int n) {`,
			`    return jdbc.update("UPDATE t SET qty = qty - ? WHERE id = ? AND qty >= ?", n, id, n);`,
			`  }`,
			`}`,
		), []javaView{{Line: 3, EndLine: 3, Col: 12, ID: "deduct", SQL: "UPDATE t SET qty = qty - ? WHERE id = ? AND qty >= ?"}}},
		{"connection first", javaSrc(
			`class Dao {`,
			`  void f(Connection conn) { run.update(conn, "DELETE FROM t WHERE id = ?", 1); }`,
			`}`,
		), []javaView{{Line: 2, EndLine: 2, Col: 29, ID: "f", SQL: "DELETE FROM t WHERE id = ?"}}},
		{"prepareStatement on a chain across lines", javaSrc(
			`class Dao {`,
			`  void f() throws SQLException {`,
			`    PreparedStatement ps = this.conn`,
			`        .prepareStatement("UPDATE t SET v = v + 1 " +`,
			`                          "WHERE id = ?");`,
			`  }`,
			`}`,
		), []javaView{{Line: 3, EndLine: 5, Col: 28, ID: "f", SQL: "UPDATE t SET v = v + 1 WHERE id = ?"}}},
		{"constants: whole, piece, resolved, unused", javaSrc(
			`class Dao {`,
			`  private static final String DEDUCT = "UPDATE t SET qty = qty - ? WHERE id = ?";`,
			`  static final String BASE = "SELECT id, qty FROM t";`,
			`  static final String BY_ID = BASE + " WHERE id = ?";`,
			`  public static final String PURGE = "DELETE FROM t WHERE qty = 0";`,
			`  static final String NAME = "stock";`,
			`  void f() { jdbc.update(DEDUCT, 1, 2); jdbc.queryForObject(BY_ID, M, 1); }`,
			`}`,
		), []javaView{
			{Line: 2, EndLine: 2, Col: 3, ID: "DEDUCT", SQL: "UPDATE t SET qty = qty - ? WHERE id = ?"},
			{Line: 4, EndLine: 4, Col: 3, ID: "BY_ID", SQL: "SELECT id, qty FROM t WHERE id = ?"},
			{Line: 5, EndLine: 5, Col: 3, ID: "PURGE", SQL: "DELETE FROM t WHERE qty = 0"},
		}},
		{"constant declared after its use, qualified", javaSrc(
			`class Dao {`,
			`  void f() { jdbc.update(Dao.SQL + " WHERE id = ?", 1); }`,
			`  static final String SQL = "DELETE FROM t";`,
			`}`,
		), []javaView{{Line: 2, EndLine: 2, Col: 14, ID: "f", SQL: "DELETE FROM t WHERE id = ?"}}},
		{"local variable reported at its declaration", javaSrc(
			`class Dao {`,
			`  void f() {`,
			`    String sql = "UPDATE t SET a = ? "`,
			`        + "WHERE id = ?";`,
			`    jdbc.update(sql, 1, 2);`,
			`    jdbc.update(sql, 3, 4);`,
			`  }`,
			`}`,
		), []javaView{{Line: 3, EndLine: 4, Col: 5, ID: "f", SQL: "UPDATE t SET a = ? WHERE id = ?"}}},
		{"variable chosen by branches", javaSrc(
			`class Dao {`,
			`  void f(boolean all) {`,
			`    String sql;`,
			`    if (all) sql = "DELETE FROM t";`,
			`    else sql = "DELETE FROM t WHERE id = ?";`,
			`    jdbc.update(sql);`,
			`  }`,
			`}`,
		), []javaView{
			{Line: 4, EndLine: 4, Col: 14, ID: "f", SQL: "DELETE FROM t"},
			{Line: 5, EndLine: 5, Col: 10, ID: "f", SQL: "DELETE FROM t WHERE id = ?"},
		}},
		{"variable extended with +=", javaSrc(
			`class Dao {`,
			`  void f(Long id) {`,
			`    String sql = "DELETE FROM t";`,
			`    if (id != null) sql += " WHERE id = ?";`,
			`    jdbc.update(sql);`,
			`  }`,
			`}`,
		), []javaView{{Line: 5, EndLine: 5, Col: 17, ID: "f", Unchecked: "SQL built at run time: sql is extended at line 4"}}},
		{"variable extended by assignment", javaSrc(
			`class Dao {`,
			`  void f(String order) {`,
			`    String sql = "SELECT * FROM t";`,
			`    sql = sql + " ORDER BY " + order;`,
			`    jdbc.query(sql, M);`,
			`  }`,
			`}`,
		), []javaView{{Line: 5, EndLine: 5, Col: 16, ID: "f", Unchecked: "SQL built at run time: sql is extended at line 4"}}},
		{"field shadowed by a local", javaSrc(
			`class Dao {`,
			`  private String sql = "SELECT a FROM t";`,
			`  void f() {`,
			`    String sql = "SELECT b FROM t";`,
			`    jdbc.query(sql, M);`,
			`  }`,
			`  void g() { jdbc.query(this.sql, M); }`,
			`}`,
		), []javaView{
			{Line: 2, EndLine: 2, Col: 3, ID: "sql", SQL: "SELECT a FROM t"},
			{Line: 4, EndLine: 4, Col: 5, ID: "f", SQL: "SELECT b FROM t"},
		}},
		{"parameter passed through is not SQL written here", javaSrc(
			`class Dao {`,
			`  String sql = "SELECT 1 FROM t";`,
			`  int run(String sql, Object... args) { return jdbc.update(sql, args); }`,
			`  int call() { return jdbc.update(Other.SQL); }`,
			`}`,
		), nil},
		{"native query, JPQL skipped", javaSrc(
			`class Repo {`,
			`  void f() {`,
			`    em.createNativeQuery("UPDATE t SET a = 1 WHERE id = ?").executeUpdate();`,
			`    em.createQuery("UPDATE Stock s SET s.a = 1").executeUpdate();`,
			`  }`,
			`}`,
		), []javaView{{Line: 3, EndLine: 3, Col: 5, ID: "f", SQL: "UPDATE t SET a = 1 WHERE id = ?"}}},
		{"non-SQL strings and declarations stay quiet", javaSrc(
			`class Dao {`,
			`  public int update(String sql) { return 0; }`,
			`  void f() {`,
			`    stmt.execute("SET NAMES utf8mb4");`,
			`    pool.execute(() -> work());`,
			`    cache.update("user:" + id, v);`,
			`    String msg = "Update complete";`,
			`  }`,
			`}`,
		), nil},
	})
}

func TestExtractJavaDynamic(t *testing.T) {
	runJavaCases(t, []javaCase{
		{"concatenation passed to JdbcTemplate", javaSrc(
			`class Dao {`,
			`  void f(long id) {`,
			`    jdbc.update("DELETE FROM t WHERE id = " + id);`,
			`  }`,
			`}`,
		), []javaView{{Line: 3, EndLine: 3, Col: 17, ID: "f", Unchecked: "SQL built at run time: concatenation with id"}}},
		{"concatenation in a variable, reported once", javaSrc(
			`class Dao {`,
			`  void f(String table, long id) {`,
			`    String sql = "UPDATE " + table`,
			`        + " SET a = 1 WHERE id = " + String.valueOf(id);`,
			`    jdbc.update(sql);`,
			`  }`,
			`}`,
		), []javaView{{Line: 3, EndLine: 4, Col: 18, ID: "f", Unchecked: "SQL built at run time: concatenation with table, String.valueOf(id)"}}},
		{"constant prefix and a value", javaSrc(
			`class Dao {`,
			`  static final String BASE = "SELECT * FROM t";`,
			`  List<T> f(String order) { return jdbc.query(BASE + " ORDER BY " + order, M); }`,
			`}`,
		), []javaView{{Line: 3, EndLine: 3, Col: 47, ID: "f", Unchecked: "SQL built at run time: concatenation with order"}}},
		{"JDBC-only method with an unknown prefix", javaSrc(
			`class Dao {`,
			`  void f(Connection c, String base) { c.prepareStatement(base + " WHERE id = ?"); }`,
			`}`,
		), []javaView{{Line: 2, EndLine: 2, Col: 58, ID: "f", Unchecked: "SQL built at run time: concatenation with base"}}},
		{"String.format and formatted", javaSrc(
			`class Dao {`,
			`  void f(String t) {`,
			`    String a = String.format("DELETE FROM %s WHERE id = ?", t);`,
			`    String b = String.format(Locale.ROOT, "SELECT * FROM %s", t);`,
			`    String c = "UPDATE %s SET a = 1".formatted(t);`,
			`  }`,
			`}`,
		), []javaView{
			{Line: 3, EndLine: 3, Col: 16, ID: "f", Unchecked: "SQL built at run time: String.format"},
			{Line: 4, EndLine: 4, Col: 16, ID: "f", Unchecked: "SQL built at run time: String.format"},
			{Line: 5, EndLine: 5, Col: 16, ID: "f", Unchecked: "SQL built at run time: String.formatted"},
		}},
		{"StringBuilder", javaSrc(
			`class Dao {`,
			`  void f(Long id) {`,
			`    StringBuilder sb = new StringBuilder();`,
			`    sb.append("UPDATE t SET a = 1");`,
			`    if (id != null) sb.append(" WHERE id = ").append(id);`,
			`    sb.append("DELETE FROM u");`,
			`    StringBuffer b2 = new StringBuffer("SELECT * FROM t");`,
			`  }`,
			`}`,
		), []javaView{
			{Line: 4, EndLine: 4, Col: 5, ID: "f", Unchecked: "SQL built at run time: StringBuilder.append"},
			{Line: 7, EndLine: 7, Col: 23, ID: "f", Unchecked: "SQL built at run time: StringBuffer starting with SQL"},
		}},
		{"messages stay quiet", javaSrc(
			`class Dao {`,
			`  void f(long id) {`,
			`    log.info("Update failed for " + id);`,
			`    log.warn("retry {}", "Delete of " + id);`,
			`    System.out.println(String.format("Select %d rows", id));`,
			`    throw new IllegalStateException("Update failed: " + id);`,
			`  }`,
			`}`,
		), nil},
		{"constant of another file", javaSrc(
			`class Dao {`,
			`  void f() { jdbc.update("DELETE FROM " + Tables.STOCK + " WHERE id = ?", 1); }`,
			`}`,
		), []javaView{{Line: 2, EndLine: 2, Col: 26, ID: "f", Unchecked: "SQL uses constants not defined in this file: Tables.STOCK"}}},
		{"other annotations hold constants", javaSrc(
			`interface Repo {`,
			`  @Query(value = "SELECT * FROM t_stock WHERE " + Where.ACTIVE, nativeQuery = true)`,
			`  List<Stock> active();`,
			`}`,
		), nil},
		{"ternary and a method result", javaSrc(
			`class Dao {`,
			`  void f(boolean all, long id) {`,
			`    jdbc.update(all ? "DELETE FROM t" : "DELETE FROM t WHERE id = ?");`,
			`    jdbc.update(buildSql(id));`,
			`  }`,
			`}`,
		), nil},
	})
}

func TestExtractJavaTestdata(t *testing.T) {
	cases := []struct {
		file string
		want []string // LINE ID SQL-or-Unchecked, SQL on one line
	}{
		{"StockMapper.java", []string{
			"23 findById SELECT id, sku, inventory, status, version FROM t_inventory WHERE id = ?",
			"27 lockBySku SELECT id, sku, inventory, status, version FROM t_inventory WHERE sku = ? FOR UPDATE",
			"32 deduct UPDATE t_inventory SET inventory = inventory - ?, version = version + 1 WHERE id = ? AND inventory >= ?",
			"41 overwrite UPDATE t_inventory SET inventory = ? WHERE id = ?",
			"44 insert INSERT INTO t_inventory (sku, inventory, status, version) VALUES (?, ?, 'ACTIVE', 0)",
			"49 listOrdered SELECT id, sku, inventory, status, version FROM t_inventory ORDER BY ?",
			"52 updateSelective UPDATE t_inventory SET status = ?, version = version + 1 WHERE id = ?",
			"52 updateSelective UPDATE t_inventory SET version = version + 1 WHERE id = ?",
			"62 delete DELETE FROM t_inventory WHERE id = ? AND version = ?",
			"65 search unchecked: SQL built at run time: @SelectProvider builds the statement in Java",
		}},
		{"JdbcStockDao.java", []string{
			"14 DEDUCT UPDATE t_inventory SET inventory = inventory - ?, version = version + 1 WHERE id = ? AND inventory >= ?",
			"19 BY_ID SELECT id, inventory, version FROM t_inventory WHERE id = ?",
			"22 RESET UPDATE t_inventory SET inventory = ? WHERE id = ?",
			"43 release UPDATE t_inventory SET inventory = inventory + ? WHERE id = ?",
			"52 markSold UPDATE t_inventory SET status = 'SOLD_OUT', version = version + 1 WHERE id = ? AND version = ?",
			"65 purge unchecked: SQL built at run time: concatenation with table",
			"70 search unchecked: SQL built at run time: StringBuilder.append",
			"78 archive unchecked: SQL built at run time: String.format",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			src := javaReadTestdata(t, tc.file)
			f := ExtractJava(tc.file, src)
			var got []string
			for _, fr := range f.Fragments {
				what := strings.Join(strings.Fields(fr.SQL), " ")
				if fr.Unchecked != "" {
					what = "unchecked: " + fr.Unchecked
				}
				got = append(got, strings.Join([]string{strconv.Itoa(fr.Line), fr.ID, what}, " "))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("fragments (-want +got):\n%s", diff)
			}
			if msg := javaCheckPositions(src, f); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// TestExtractJavaOldMacLineEnds reads a file whose lines end in CR alone:
// a // comment ends at the CR, and lines count as the editor shows them.
// The same file with LF gives the same fragments.
func TestExtractJavaOldMacLineEnds(t *testing.T) {
	lines := []string{
		"package dao;",
		"// the stock mapper {",
		"public interface StockMapper {",
		`  @Update("UPDATE t_stock SET qty = qty - #{n} WHERE id = #{id}")`,
		"  int deduct(long id, int n);",
		"}",
	}
	lf := ExtractJava("StockMapper.java", []byte(strings.Join(lines, "\n")+"\n"))
	cr := ExtractJava("StockMapper.java", []byte(strings.Join(lines, "\r")+"\r"))
	crlf := ExtractJava("StockMapper.java", []byte(strings.Join(lines, "\r\n")+"\r\n"))
	want := javaViews(lf)
	if len(want) != 1 || want[0].Line != 4 || want[0].Unchecked != "" {
		t.Fatalf("LF file: %+v, want one checked fragment at line 4", want)
	}
	if d := cmp.Diff(want, javaViews(cr)); d != "" {
		t.Errorf("CR line ends (-LF +CR):\n%s", d)
	}
	if d := cmp.Diff(want, javaViews(crlf)); d != "" {
		t.Errorf("CR LF line ends (-LF +CR LF):\n%s", d)
	}
}
