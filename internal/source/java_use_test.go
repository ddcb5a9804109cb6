package source

import "testing"

func TestExtractJavaOnlySQLIsSQL(t *testing.T) {
	runJavaCases(t, []javaCase{
		{"exception messages, loggers and assertions are not SQL; the JDBC statement beside them is", javaSrc(
			`class StockService {`,
			`  private static final String FAILED = "update stock fail";`,
			`  void deduct(long id, int n) {`,
			`    int rows = jdbcTemplate.update("UPDATE t SET q = q - ? WHERE id = ? AN q >= ?", n, id, n);`,
			`    if (rows != 1) {`,
			`      LOGGER.warn("update stock fail for " + id);`,
			`      logger.error(String.format("delete from %s failed, id = %d", "t", id));`,
			`      Preconditions.checkState(rows == 0, "delete from t where " + id);`,
			`      System.out.println(FAILED + id);`,
			`      throw new StockShortage("update stock fail: " + id);`,
			`    }`,
			`  }`,
			`}`,
		), []javaView{{Line: 4, EndLine: 4, Col: 16, ID: "deduct", SQL: "UPDATE t SET q = q - ? WHERE id = ? AN q >= ?"}}},
		{"of unknown use, a string is SQL when it parses", javaSrc(
			`class Dao {`,
			`  static final String PURGE = "DELETE FROM t WHERE qty = 0";`,
			`  static final String BROKEN = "DELETE FROM t WHERE qty = 0 AN x";`,
			`  static final String WHO = "select user failed";`,
			`  void f(long id) {`,
			`    cache.update("delete stock cache", id);`,
			`    runner.update("UPDATE t SET a = 1 WHERE id = ?", id);`,
			`    queue.execute("UPDATE t SET a = 1 WHERE id = ?", id);`,
			`  }`,
			`}`,
		), []javaView{
			{Line: 2, EndLine: 2, Col: 3, ID: "PURGE", SQL: "DELETE FROM t WHERE qty = 0"},
			{Line: 7, EndLine: 7, Col: 5, ID: "f", SQL: "UPDATE t SET a = 1 WHERE id = ?"},
			{Line: 8, EndLine: 8, Col: 5, ID: "f", SQL: "UPDATE t SET a = 1 WHERE id = ?"},
		}},
		{"a JdbcTemplate confirms SQL that does not parse", javaSrc(
			`class Dao {`,
			`  void f(long id) {`,
			`    getJdbcTemplate().update("update t st a = 1", id);`,
			`    stmt.execute("delete t");`,
			`    cache.update("update t st a = 1", id);`,
			`  }`,
			`}`,
		), []javaView{
			{Line: 3, EndLine: 3, Col: 5, ID: "f", SQL: "update t st a = 1"},
			{Line: 4, EndLine: 4, Col: 5, ID: "f", SQL: "delete t"},
		}},
		{"of unknown use, SQL built at run time needs a statement's skeleton", javaSrc(
			`class Dao {`,
			`  void f(String t, long id) {`,
			`    String reason = "delete reservation failed: " + id;`,
			`    String sql = "DELETE FROM " + t + " WHERE id = " + id;`,
			`    String label = String.format("select a %s from the list", t);`,
			`    String page = String.format("SELECT * FROM %s LIMIT 10", t);`,
			`    notify(reason, sql, label, page);`,
			`  }`,
			`}`,
		), []javaView{
			{Line: 4, EndLine: 4, Col: 18, ID: "f", Unchecked: "SQL built at run time: concatenation with t, id"},
			{Line: 6, EndLine: 6, Col: 19, ID: "f", Unchecked: "SQL built at run time: String.format"},
		}},
		{"a builder's later appends complete its statement", javaSrc(
			`class Dao {`,
			`  String a(Long id) {`,
			`    StringBuilder sb = new StringBuilder();`,
			`    sb.append("SELECT id ");`,
			`    sb.append("FROM t WHERE id = ").append(id);`,
			`    return sb.toString();`,
			`  }`,
			`  String b(Long id) {`,
			`    StringBuilder sb = new StringBuilder("update order ");`,
			`    sb.append(id).append(" failed");`,
			`    return sb.toString();`,
			`  }`,
			`  int c(String cols) {`,
			`    StringBuilder q = new StringBuilder("select ");`,
			`    q.append(cols).append(" from t");`,
			`    return jdbc.queryForObject(q.toString(), Integer.class);`,
			`  }`,
			`}`,
		), []javaView{
			{Line: 4, EndLine: 4, Col: 5, ID: "a", Unchecked: "SQL built at run time: StringBuilder.append"},
			{Line: 14, EndLine: 14, Col: 23, ID: "c", Unchecked: "SQL built at run time: StringBuilder starting with SQL"},
		}},
	})
}
