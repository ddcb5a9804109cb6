package mybatisxml

import (
	"fmt"
	"testing"
)

// TestParamSources names the values a statement's placeholders bind: the
// caller's by their names, none for a <foreach> item, a <bind> variable or
// a ${…}, and none at all for a statement that adds nothing.
func TestParamSources(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`<update id="add">UPDATE t SET s = s + #{delta} WHERE id = #{id}</update>`,
			`[{0 -1 add 0  delta} {1 -1 add 0  id}]`},
		{`<update id="add">UPDATE t SET s = s + #{dto.delta, jdbcType=INTEGER} WHERE id = ${tenant} AND k = #{dto.id}</update>`,
			`[{0 -1 add 0  dto.delta} {2 -1 add 0  dto.id}]`},
		{`<update id="add"><bind name="d" value="delta * 2"/>UPDATE t SET s = s + #{d} WHERE id IN <foreach collection="ids" item="i" open="(" separator="," close=")">#{i}</foreach> AND v = #{v}</update>`,
			`[{2 -1 add 0  v}]`},
		{`<update id="add">UPDATE t SET s = s + #{delta} WHERE name LIKE '%'#{name}'%' AND id = #{id}</update>`,
			`[{0 -1 add 0  delta} {1 -1 add 0  id}]`},
		{`<update id="sub">UPDATE t SET s = s - #{n} WHERE id = #{id}</update>`, `[]`},
	} {
		f := ExtractXML("m.xml", []byte(mapperOf(tc.body)))
		if len(f.Fragments) != 1 || f.Fragments[0].Unchecked != "" {
			t.Fatalf("%s: fragments %+v", tc.body, f.Fragments)
		}
		if got := fmt.Sprint(f.Fragments[0].ParamSources); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.body, got, tc.want)
		}
	}
}
