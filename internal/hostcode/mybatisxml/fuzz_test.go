package mybatisxml

import (
	"os"
	"testing"

	"github.com/guard-sql/guard/internal/stmt"
)

func FuzzExtractXML(f *testing.F) {
	seeds := []string{
		mapperOf(`<update id="u">UPDATE t SET a = 1 <where><if test="id != null">id = #{id}</if></where></update>`),
		mapperOf(`<sql id="w">${col} = #{v}</sql><update id="u">UPDATE t SET <set><if test="a">a = #{a},</if></set> WHERE <include refid="w"><property name="col" value="id"/></include></update>`),
		mapperOf(`<update id="u">UPDATE t SET s = 1 WHERE <choose><when test="a">a = 1</when><when test="b">b = 2</when><otherwise>c = 3</otherwise></choose></update>`),
		mapperOf(`<insert id="i">INSERT INTO t<trim prefix="(" suffix=")" suffixOverrides=","><if test="a">a,</if>b,</trim>VALUES (1, 2)</insert>`),
		mapperOf(`<delete id="d"><![CDATA[DELETE FROM t WHERE a < 1]]> AND b IN <foreach collection="x" open="(" close=")">#{i}</foreach> &amp; ${o}</delete>`),
		mapperOf(`<sql id="a"><include refid="a"/></sql><select id="s">SELECT <include refid="a"/></select>`),
		"<mapper><update id='x'>UPDATE t",
		"<script>UPDATE t <where><if test='x'>a = #{a}</if></where></script>",
		"<?xml version=\"1.0\" encoding=\"GBK\"?><mapper><!-- guard:ignore GQ001 r --><select id=\"s\">SELECT 1</select></mapper>",
		"\xef\xbb\xbf<mapper>&#x41;&#0;</mapper>",
	}
	for _, name := range []string{"testdata/xml/stock_mapper.xml", "testdata/xml/generated_mapper.xml"} {
		if src, err := os.ReadFile(name); err == nil {
			seeds = append(seeds, string(src))
		}
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		file := ExtractXML("f.xml", []byte(doc))
		frags := append(file.Fragments, ExtractMyBatisScript("F.java", doc, []stmt.Segment{{Off: 0, Line: 3, Col: 5}, {Off: len(doc) / 2, Line: 4, Col: 1}}, 3)...)
		checkSegments(t, frags)
		for _, fr := range frags {
			if fr.Unchecked != "" && fr.SQL != "" {
				t.Errorf("unchecked fragment with SQL: %+v", fr)
			}
			if fr.Line < 1 || fr.EndLine < fr.Line {
				t.Errorf("bad lines %d..%d: %+v", fr.Line, fr.EndLine, fr)
			}
			for off := 0; off <= len(fr.SQL); off++ {
				if line, col := fr.Pos(off); line < 1 || col < 1 {
					t.Fatalf("Pos(%d) = %d:%d", off, line, col)
				}
			}
		}
	})
}
