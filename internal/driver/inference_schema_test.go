package driver_test

import (
	"path/filepath"
	"testing"

	"github.com/guard-sql/guard/internal/driver"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
	"github.com/guard-sql/guard/lint/rules"
)

// TestInferenceReadsDumpWithoutSchema: a project without migrations and
// without --schema keeps its tables in a dump under sql/. Its definitions
// still tell the inference a flag (a COMMENT listing two values) from a
// state machine (one listing three or more), as --schema would; the dump's
// tables are not the run's schema.
func TestInferenceReadsDumpWithoutSchema(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"sql/shop.sql": "CREATE TABLE sys_user (\n" +
			"  user_id BIGINT NOT NULL PRIMARY KEY,\n" +
			"  status CHAR(1) DEFAULT '0' COMMENT 'account status (0 normal 1 disabled)'\n" +
			");\n" +
			"CREATE TABLE t_order (\n" +
			"  id BIGINT NOT NULL PRIMARY KEY,\n" +
			"  status CHAR(1) DEFAULT '0' COMMENT 'order status: 0 new, 1 paid, 2 shipped, 3 closed'\n" +
			");\n",
		"src/main/resources/mapper/UserMapper.xml": `<?xml version="1.0" encoding="UTF-8"?>
<mapper namespace="x.UserMapper">
  <update id="changeStatus">
    update sys_user set status = #{status} where user_id = #{userId}
  </update>
  <update id="closeOrder">
    update t_order set status = #{status} where id = #{id}
  </update>
</mapper>
`,
	})
	run := func(paths ...string) *lint.Result {
		res, err := driver.Run(driver.Config{Paths: paths, Policy: policy.Default(), Rules: rules.All(), Learn: rules.Learn})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	gq005 := func(res *lint.Result) map[string]bool {
		out := map[string]bool{}
		for _, f := range res.Findings {
			if f.Code == "GQ005" {
				out[f.Table] = true
			}
		}
		return out
	}
	got := run(dir)
	if !gq005(got)["t_order"] {
		t.Errorf("t_order.status lists four states: want its GQ005, got %v", gq005(got))
	}
	if gq005(got)["sys_user"] {
		t.Errorf("sys_user.status lists two values, a flag: want no GQ005")
	}
	if got.Summary.Tables != 0 {
		t.Errorf("the dump became the run's schema: %d tables", got.Summary.Tables)
	}
	// Without the dump, the names alone decide: both are states.
	mapperOnly := run(filepath.Join(dir, "src"))
	if g := gq005(mapperOnly); !g["sys_user"] || !g["t_order"] {
		t.Errorf("without the dump: GQ005 on %v, want both tables", g)
	}
}
