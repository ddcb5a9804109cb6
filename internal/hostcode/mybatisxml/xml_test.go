package mybatisxml

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/hostcode"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// xmlFrag is the part of a Fragment the rendering tests compare.
type xmlFrag struct {
	ID, Variant, SQL, Unchecked string
	Dollar                      []stmt.Dollar
}

func xmlFrags(fs []*stmt.Fragment) []xmlFrag {
	var out []xmlFrag
	for _, f := range fs {
		out = append(out, xmlFrag{ID: f.ID, Variant: f.Variant, SQL: f.SQL, Unchecked: f.Unchecked, Dollar: f.Dollar})
	}
	return out
}

// checkSegments fails when a fragment's segments break the contract of
// Fragment.Segments: sorted, inside SQL, the first at offset 0.
func checkSegments(t *testing.T, fs []*stmt.Fragment) {
	t.Helper()
	for _, f := range fs {
		if f.SQL == "" {
			continue
		}
		if len(f.Segments) == 0 || f.Segments[0].Off != 0 {
			t.Errorf("%s %q: segments %v do not start at offset 0", f.ID, f.Variant, f.Segments)
		}
		for i, s := range f.Segments {
			if s.Off >= len(f.SQL) || (i > 0 && s.Off <= f.Segments[i-1].Off) || s.Line < 1 || s.Col < 1 {
				t.Errorf("%s %q: bad segment %d in %v (len %d)", f.ID, f.Variant, i, f.Segments, len(f.SQL))
			}
		}
	}
}

const xmlOpen = `<mapper namespace="ns">`

func mapperOf(body string) string { return xmlOpen + body + "</mapper>" }

// col1 returns the 1-based column of the first occurrence of sub in a
// one-line document.
func col1(doc, sub string) int { return strings.Index(doc, sub) + 1 }

func TestExtractXMLRendering(t *testing.T) {
	dollarDoc := mapperOf(`<select id="s">SELECT * FROM t ORDER BY ${ order }</select>`)
	includeDollarDoc := mapperOf(`<sql id="a">ORDER BY ${col}</sql><select id="s">SELECT x FROM t <include refid="a"/></select>`)
	tests := []struct {
		name string
		doc  string
		want []xmlFrag
	}{{
		name: "static statement is one fragment",
		doc:  mapperOf(`<update id="u">UPDATE t SET a = 1 WHERE id = #{id}</update>`),
		want: []xmlFrag{{ID: "u", SQL: "UPDATE t SET a = 1 WHERE id = ?"}},
	}, {
		name: "where around an if loses its WHERE when the condition is absent",
		doc:  mapperOf(`<update id="u">UPDATE t SET a = 1 <where><if test="id != null">id = #{id}</if></where></update>`),
		want: []xmlFrag{
			{ID: "u", Variant: variantPresent, SQL: "UPDATE t SET a = 1  WHERE id = ?"},
			{ID: "u", Variant: variantAbsent, SQL: "UPDATE t SET a = 1  "},
		},
	}, {
		name: "where strips a leading AND",
		doc:  mapperOf(`<delete id="d">DELETE FROM t<where><if test="a">AND a = 1</if><if test="b"> or b = 2</if></where></delete>`),
		want: []xmlFrag{
			{ID: "d", Variant: variantPresent, SQL: "DELETE FROM t WHERE  a = 1 or b = 2"},
			{ID: "d", Variant: variantAbsent, SQL: "DELETE FROM t "},
		},
	}, {
		name: "where strips a leading OR but not the start of a word",
		doc:  mapperOf(`<delete id="d">DELETE FROM t<where> OR b = 2</where></delete><delete id="e">DELETE FROM t<where>ORDER_ID = 1</where></delete>`),
		want: []xmlFrag{
			{ID: "d", SQL: "DELETE FROM t WHERE  b = 2"},
			{ID: "e", SQL: "DELETE FROM t WHERE ORDER_ID = 1"},
		},
	}, {
		name: "set strips the trailing comma",
		doc:  mapperOf(`<update id="u">UPDATE t<set><if test="a">a = #{a},</if><if test="b">b = #{b},</if></set>WHERE id = #{id}</update>`),
		want: []xmlFrag{
			{ID: "u", Variant: variantPresent, SQL: "UPDATE t SET a = ?,b = ? WHERE id = ?"},
			{ID: "u", Variant: variantAbsent, SQL: "UPDATE t  WHERE id = ?"},
		},
	}, {
		name: "trim prefix and case-insensitive prefixOverrides",
		doc:  mapperOf(`<update id="u">UPDATE t SET a = 1<trim prefix="WHERE" prefixOverrides="and |OR "><if test="x">AND x = #{x}</if> and y = 1</trim></update>`),
		want: []xmlFrag{
			{ID: "u", Variant: variantPresent, SQL: "UPDATE t SET a = 1 WHERE  x = ? and y = 1"},
			{ID: "u", Variant: variantAbsent, SQL: "UPDATE t SET a = 1 WHERE  y = 1"},
		},
	}, {
		name: "trim suffix and suffixOverrides",
		doc:  mapperOf(`<insert id="i">INSERT INTO t<trim prefix="(" suffix=")" suffixOverrides=","><if test="a">a,</if>b,</trim>VALUES (1, 2)</insert>`),
		want: []xmlFrag{
			{ID: "i", Variant: variantPresent, SQL: "INSERT INTO t ( a,b ) VALUES (1, 2)"},
			{ID: "i", Variant: variantAbsent, SQL: "INSERT INTO t ( b ) VALUES (1, 2)"},
		},
	}, {
		name: "trim that overrides everything away stays within bounds",
		doc:  mapperOf(`<update id="u">UPDATE t SET a = 1 WHERE id = 1<trim prefixOverrides="," suffixOverrides=",">,</trim></update>`),
		want: []xmlFrag{{ID: "u", SQL: "UPDATE t SET a = 1 WHERE id = 1 "}},
	}, {
		name: "foreach renders its body once between open and close",
		doc:  mapperOf(`<delete id="d">DELETE FROM t WHERE id IN<foreach collection="ids" item="id" open="(" separator="," close=")">#{id}</foreach></delete>`),
		want: []xmlFrag{{ID: "d", SQL: "DELETE FROM t WHERE id IN ( ? )"}},
	}, {
		name: "choose: first when, otherwise, then the other whens",
		doc:  mapperOf(`<update id="u">UPDATE t SET s = 1 WHERE <choose><when test="a">a = 1</when><when test="b">b = 2</when><otherwise>c = 3</otherwise></choose></update>`),
		want: []xmlFrag{
			{ID: "u", Variant: variantPresent, SQL: "UPDATE t SET s = 1 WHERE  a = 1"},
			{ID: "u", Variant: variantAbsent, SQL: "UPDATE t SET s = 1 WHERE  c = 3"},
			{ID: "u", Variant: `with <when test="b"> at line 1 chosen`, SQL: "UPDATE t SET s = 1 WHERE  b = 2"},
		},
	}, {
		name: "choose without otherwise renders nothing when absent",
		doc:  mapperOf(`<delete id="d">DELETE FROM t <where><choose><when test="a">a = 1</when></choose></where></delete>`),
		want: []xmlFrag{
			{ID: "d", Variant: variantPresent, SQL: "DELETE FROM t  WHERE a = 1"},
			{ID: "d", Variant: variantAbsent, SQL: "DELETE FROM t  "},
		},
	}, {
		name: "nested ifs",
		doc:  mapperOf(`<update id="u">UPDATE t SET a = 1<where><if test="a">a = 1<if test="b"> AND b = 2</if></if></where></update>`),
		want: []xmlFrag{
			{ID: "u", Variant: variantPresent, SQL: "UPDATE t SET a = 1 WHERE a = 1 AND b = 2"},
			{ID: "u", Variant: variantAbsent, SQL: "UPDATE t SET a = 1 "},
		},
	}, {
		name: "variants with the same SQL are kept once",
		doc:  mapperOf(`<update id="u">UPDATE t SET a = 1 WHERE id = 1<if test="x"></if></update>`),
		want: []xmlFrag{{ID: "u", Variant: variantPresent, SQL: "UPDATE t SET a = 1 WHERE id = 1"}},
	}, {
		name: "a statement made only of optional parts is empty when they are absent",
		doc:  mapperOf(`<update id="u"><if test="x">UPDATE t SET a = 1 WHERE id = 2</if></update>`),
		want: []xmlFrag{
			{ID: "u", Variant: variantPresent, SQL: "UPDATE t SET a = 1 WHERE id = 2"},
			{ID: "u", Variant: variantAbsent, Unchecked: "statement is empty when every optional condition is absent"},
		},
	}, {
		name: "empty static statement",
		doc:  mapperOf(`<select id="s"> </select>`),
		want: []xmlFrag{{ID: "s", Unchecked: "statement is empty"}},
	}, {
		name: "include by id",
		doc:  mapperOf(`<sql id="cols">a, b</sql><select id="s">SELECT <include refid="cols"/> FROM t</select>`),
		want: []xmlFrag{{ID: "s", SQL: "SELECT  a, b  FROM t"}},
	}, {
		name: "include by namespace-qualified id",
		doc:  mapperOf(`<sql id="cols">a, b</sql><select id="s">SELECT <include refid="ns.cols"/> FROM t</select>`),
		want: []xmlFrag{{ID: "s", SQL: "SELECT  a, b  FROM t"}},
	}, {
		name: "include of another namespace is not found",
		doc:  mapperOf(`<sql id="cols">a, b</sql><select id="s">SELECT <include refid="other.cols"/> FROM t</select>`),
		want: []xmlFrag{{ID: "s", Unchecked: `include refid="other.cols" not found at 1:71`}},
	}, {
		name: "include with a property",
		doc:  mapperOf(`<sql id="w">${col} = #{v}</sql><update id="u">UPDATE t SET a = 1 WHERE <include refid="w"><property name="col" value="id"/></include></update>`),
		want: []xmlFrag{{ID: "u", SQL: "UPDATE t SET a = 1 WHERE  id = ?"}},
	}, {
		name: "properties reach nested includes and their refid",
		doc: mapperOf(`<sql id="inner">${p}.x</sql><sql id="outer"><include refid="${r}"/></sql>` +
			`<select id="s">SELECT <include refid="outer"><property name="p" value="t"/><property name="r" value="inner"/></include> FROM t</select>`),
		want: []xmlFrag{{ID: "s", SQL: "SELECT  t.x  FROM t"}},
	}, {
		name: "circular include",
		doc:  mapperOf(`<sql id="a"><include refid="a"/></sql><select id="s">SELECT <include refid="a"/></select>`),
		want: []xmlFrag{{ID: "s", Unchecked: `include refid="a" includes itself at 1:36`}},
	}, {
		name: "missing include only in one variant",
		doc:  mapperOf(`<delete id="d">DELETE FROM t WHERE <choose><when test="a">a = 1</when><otherwise><include refid="nope"/></otherwise></choose></delete>`),
		want: []xmlFrag{
			{ID: "d", Variant: variantPresent, SQL: "DELETE FROM t WHERE  a = 1"},
			{ID: "d", Variant: variantAbsent, Unchecked: `include refid="nope" not found at 1:105`},
		},
	}, {
		name: "dollar becomes a placeholder and is recorded",
		doc:  dollarDoc,
		want: []xmlFrag{{ID: "s", SQL: "SELECT * FROM t ORDER BY ?", Dollar: []stmt.Dollar{{Expr: "order", Line: 1, Col: col1(dollarDoc, "${")}}}},
	}, {
		name: "dollar in an included sql not bound by a property",
		doc:  includeDollarDoc,
		want: []xmlFrag{{ID: "s", SQL: "SELECT x FROM t  ORDER BY ?", Dollar: []stmt.Dollar{{Expr: "col", Line: 1, Col: col1(includeDollarDoc, "${")}}}},
	}, {
		name: "placeholder with options",
		doc:  mapperOf(`<update id="u">UPDATE t SET a = #{a,jdbcType=INTEGER} WHERE id = #{ id }</update>`),
		want: []xmlFrag{{ID: "u", SQL: "UPDATE t SET a = ? WHERE id = ?"}},
	}, {
		name: "unterminated placeholder stays as written",
		doc:  mapperOf(`<update id="u">UPDATE t SET a = #{a WHERE id = 1</update>`),
		want: []xmlFrag{{ID: "u", SQL: "UPDATE t SET a = #{a WHERE id = 1"}},
	}, {
		name: "entities are decoded",
		doc:  mapperOf(`<update id="u">UPDATE t SET q = q - #{n} WHERE q &gt;= #{n} AND s &lt;&gt; &apos;x&apos; AND &#65;=&#x31;</update>`),
		want: []xmlFrag{{ID: "u", SQL: "UPDATE t SET q = q - ? WHERE q >= ? AND s <> 'x' AND A=1"}},
	}, {
		name: "CDATA keeps its text",
		doc:  mapperOf(`<update id="u"><![CDATA[UPDATE t SET q = q - #{n} WHERE q >= #{n}]]> AND id = 1</update>`),
		want: []xmlFrag{{ID: "u", SQL: "UPDATE t SET q = q - ? WHERE q >= ?  AND id = 1"}},
	}, {
		name: "bind and selectKey add nothing",
		doc:  mapperOf(`<insert id="i"><selectKey keyProperty="id" order="AFTER">SELECT 1</selectKey><bind name="p" value="'%' + n"/>INSERT INTO t (a) VALUES (#{p})</insert>`),
		want: []xmlFrag{{ID: "i", SQL: "INSERT INTO t (a) VALUES (?)"}},
	}, {
		name: "a comment separates words like a blank",
		doc:  mapperOf(`<update id="u">UPDATE t<!-- note -->SET a = 1 WHERE id = 1</update>`),
		want: []xmlFrag{{ID: "u", SQL: "UPDATE t SET a = 1 WHERE id = 1"}},
	}, {
		name: "sibling ifs whose tests exclude each other are never joined",
		doc:  mapperOf(`<select id="s">SELECT a FROM t<if test="sort == 0"> ORDER BY a</if><if test="sort == 1"> ORDER BY b</if><if test="up"> ASC</if><if test="!up"> DESC</if></select>`),
		want: []xmlFrag{
			{ID: "s", Variant: variantPresent, SQL: "SELECT a FROM t  ORDER BY a  ASC"},
			{ID: "s", Variant: variantAbsent, SQL: "SELECT a FROM t"},
			{ID: "s", Variant: `with <if test="sort == 1"> at line 1 chosen over the <if> siblings it excludes`, SQL: "SELECT a FROM t  ORDER BY b  ASC"},
			{ID: "s", Variant: `with <if test="!up"> at line 1 chosen over the <if> siblings it excludes`, SQL: "SELECT a FROM t  ORDER BY a  DESC"},
		},
	}, {
		name: "a test and its negation inside a where",
		doc:  mapperOf(`<delete id="d">DELETE FROM t<where><if test="id != null and id != ''">id = #{id}</if><if test="id == null">AND k = #{k}</if></where></delete>`),
		want: []xmlFrag{
			{ID: "d", Variant: variantPresent, SQL: "DELETE FROM t WHERE id = ?"},
			{ID: "d", Variant: variantAbsent, SQL: "DELETE FROM t "},
			{ID: "d", Variant: `with <if test="id == null"> at line 1 chosen over the <if> siblings it excludes`, SQL: "DELETE FROM t WHERE  k = ?"},
		},
	}, {
		name: "null tests that cover every case: the all-absent one is rendered",
		doc: mapperOf(`<update id="u">UPDATE t SET <if test="a != null and b != null">a = #{a}, b = #{b}</if>` +
			`<if test="a == null and b != null">b = #{b}</if><if test="a != null and b == null">a = #{a}</if>` +
			`<if test="a == null and b == null">a = NULL</if> WHERE id = #{id}</update>`),
		want: []xmlFrag{
			{ID: "u", Variant: variantPresent, SQL: "UPDATE t SET  a = ?, b = ?  WHERE id = ?"},
			{ID: "u", Variant: variantAbsent, SQL: "UPDATE t SET  a = NULL  WHERE id = ?"},
			{ID: "u", Variant: `with <if test="a == null and b != null"> at line 1 chosen over the <if> siblings it excludes`, SQL: "UPDATE t SET  b = ?  WHERE id = ?"},
			{ID: "u", Variant: `with <if test="a != null and b == null"> at line 1 chosen over the <if> siblings it excludes`, SQL: "UPDATE t SET  a = ?  WHERE id = ?"},
		},
	}, {
		name: "sibling ifs that may hold together are joined",
		doc:  mapperOf(`<select id="s">SELECT a FROM t WHERE 1 = 1<if test="a == 0"> AND a = 0</if><if test="b == 1"> AND b = 1</if><if test="c != 1"> AND c = 2</if><if test="c != 2"> AND c = 1</if></select>`),
		want: []xmlFrag{
			{ID: "s", Variant: variantPresent, SQL: "SELECT a FROM t WHERE 1 = 1  AND a = 0  AND b = 1  AND c = 2  AND c = 1"},
			{ID: "s", Variant: variantAbsent, SQL: "SELECT a FROM t WHERE 1 = 1"},
		},
	}, {
		name: "only statements are extracted",
		doc: mapperOf(`<cache/><resultMap id="m" type="T"><id column="id"/></resultMap><sql id="x">x</sql>` +
			`<select id="s">SELECT 1</select><insert id="i">INSERT INTO t VALUES (1)</insert>`),
		want: []xmlFrag{{ID: "s", SQL: "SELECT 1"}, {ID: "i", SQL: "INSERT INTO t VALUES (1)"}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ExtractXML("m.xml", []byte(tt.doc))
			if diff := cmp.Diff(tt.want, xmlFrags(f.Fragments)); diff != "" {
				t.Errorf("fragments (-want +got):\n%s", diff)
			}
			checkSegments(t, f.Fragments)
			for _, fr := range f.Fragments {
				if fr.File != "m.xml" || fr.Lang != stmt.LangXML {
					t.Errorf("fragment %s: file %q lang %q", fr.ID, fr.File, fr.Lang)
				}
			}
		})
	}
}

func TestExtractXMLVariantLimit(t *testing.T) {
	var whens strings.Builder
	for i := range 10 {
		whens.WriteString(`<when test="w` + string(rune('0'+i)) + `">a = ` + string(rune('0'+i)) + `</when>`)
	}
	doc := mapperOf(`<delete id="d">DELETE FROM t WHERE <choose>` + whens.String() + `</choose></delete>`)
	f := ExtractXML("m.xml", []byte(doc))
	var got []string
	for _, fr := range f.Fragments {
		got = append(got, fr.Variant+": "+fr.SQL)
	}
	want := []string{
		variantPresent + ": DELETE FROM t WHERE  a = 0",
		variantAbsent + ": DELETE FROM t WHERE ",
		`with <when test="w1"> at line 1 chosen: DELETE FROM t WHERE  a = 1`,
		`with <when test="w2"> at line 1 chosen: DELETE FROM t WHERE  a = 2`,
		`with <when test="w3"> at line 1 chosen: DELETE FROM t WHERE  a = 3`,
		`with <when test="w4"> at line 1 chosen: DELETE FROM t WHERE  a = 4`,
		`with <when test="w5"> at line 1 chosen: DELETE FROM t WHERE  a = 5`,
		`with <when test="w6"> at line 1 chosen: DELETE FROM t WHERE  a = 6`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
}

func TestExtractXMLExpansionLimits(t *testing.T) {
	// Each <sql> includes the previous one twice: 2^40 copies of the text
	// once expanded. Property values that repeat themselves grow the same way.
	var doubling, growing strings.Builder
	doubling.WriteString(`<mapper namespace="ns"><sql id="a0">x = #{x} AND </sql>`)
	growing.WriteString(`<mapper namespace="ns"><sql id="a0">${p}</sql>`)
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&doubling, `<sql id="a%d"><include refid="a%d"/><include refid="a%d"/></sql>`, i, i-1, i-1)
		fmt.Fprintf(&growing, `<sql id="a%d"><include refid="a%d"><property name="p" value="${p}${p}"/></include></sql>`, i, i-1)
	}
	doubling.WriteString("\n" + `<select id="s">SELECT 1 FROM t WHERE <include refid="a39"/> 1</select></mapper>`)
	growing.WriteString("\n" + `<select id="s">SELECT <include refid="a39"><property name="p" value="x"/></include></select></mapper>`)
	for name, doc := range map[string]string{"doubling includes": doubling.String(), "growing properties": growing.String()} {
		f := ExtractXML("m.xml", []byte(doc))
		if len(f.Fragments) != 1 || f.Fragments[0].Unchecked != mbTooLarge || f.Fragments[0].Line != 2 {
			t.Errorf("%s: got %+v, want one fragment unchecked as too large on line 2", name, f.Fragments)
		}
	}
}

func TestExtractXMLPositions(t *testing.T) {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">
<mapper namespace="ns">
  <sql id="tenant">tenant_id = #{tenant}</sql>
  <update id="move">
    UPDATE t_order
    SET status = #{to}
    <where>
      <if test="id != null">
        id = #{id} AND <include refid="tenant"/>
        <if test="from != null">AND status = #{from}</if>
      </if>
      AND qty &gt;= 1 AND ${x} = 1
    </where>
  </update>
</mapper>
`
	f := ExtractXML("m.xml", []byte(doc))
	checkSegments(t, f.Fragments)
	if len(f.Fragments) != 2 {
		t.Fatalf("got %d fragments, want 2: %v", len(f.Fragments), xmlFrags(f.Fragments))
	}
	fr := f.Fragments[0]
	if fr.Line != 5 || fr.EndLine != 15 || fr.Col != 3 {
		t.Errorf("Line, EndLine, Col = %d, %d, %d; want 5, 15, 3", fr.Line, fr.EndLine, fr.Col)
	}
	type pos struct{ Line, Col int }
	tests := []struct {
		find string // first occurrence in the fragment's SQL
		want pos
	}{
		{"UPDATE", pos{6, 5}},
		{"t_order", pos{6, 12}},
		{"status = ?", pos{7, 9}},
		{"?\n     WHERE", pos{7, 18}},           // the #{to}
		{"WHERE", pos{8, 5}},                    // generated by <where>
		{"id = ? AND", pos{10, 9}},              // inside the first <if>
		{"? AND tenant", pos{10, 14}},           // the #{id}
		{"AND tenant", pos{10, 20}},             // before the include
		{"tenant_id", pos{4, 20}},               // text of the included <sql>
		{"= ?\n        AND status", pos{4, 30}}, // end of the included text
		{"AND status", pos{11, 33}},             // inside the nested <if>
		{"status = ?\n      \n", pos{11, 37}},
		{"?\n      \n", pos{11, 46}}, // the #{from}
		{"qty >=", pos{13, 11}},      // after the nested <if>
		{">= 1", pos{13, 15}},        // &gt;
		{"= 1 AND", pos{13, 19}},     // after the entity
		{"? = 1", pos{13, 27}},       // the ${x}
	}
	for _, tt := range tests {
		off := strings.Index(fr.SQL, tt.find)
		if off < 0 {
			t.Errorf("%q not in %q", tt.find, fr.SQL)
			continue
		}
		line, col := fr.Pos(off)
		if got := (pos{line, col}); got != tt.want {
			t.Errorf("Pos(%q) = %v, want %v", tt.find, got, tt.want)
		}
	}
	if diff := cmp.Diff([]stmt.Dollar{{Expr: "x", Line: 13, Col: 27}}, fr.Dollar); diff != "" {
		t.Errorf("Dollar (-want +got):\n%s", diff)
	}
}

func TestExtractXMLInvalid(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		unchecked string
		line, col int
	}{
		{"unclosed statement", "<mapper>\n<update id='x'>\nUPDATE t", "xml: unexpected end of file: <update> at line 2 is not closed", 3, 9},
		{"mismatched end tag", "<mapper>\n  <update id='x'></delete></mapper>", "xml: element <update> closed by </delete>", 2, 18},
		{"unquoted attribute", "<mapper>\n <a b=c/></mapper>", "xml: unquoted or missing attribute value in element", 2, 8},
		{"unknown entity", "<mapper><update id='u'>a &nbsp; b</update></mapper>", "xml: invalid character entity &nbsp;", 1, 32},
		{"bad syntax before the root", "<?xml version='1.0'?>\n<mapper <update/>", "xml: expected attribute name in element", 2, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ExtractXML("bad.xml", []byte(tt.doc))
			want := []*stmt.Fragment{{File: "bad.xml", Lang: stmt.LangXML, Unchecked: tt.unchecked, Line: tt.line, Col: tt.col, EndLine: tt.line}}
			if diff := cmp.Diff(want, f.Fragments); diff != "" {
				t.Errorf("fragments (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExtractXMLNotMapper(t *testing.T) {
	for _, doc := range []string{
		"",
		"not xml at all",
		`<?xml version="1.0"?><project><!-- guard:ignore GQ001 not a mapper --><modelVersion>4.0.0</modelVersion></project>`,
		`<?xml version="1.0"?><!DOCTYPE configuration PUBLIC "-//mybatis.org//DTD Config 3.0//EN" "http://mybatis.org/dtd/mybatis-3-config.dtd"><configuration><mappers/></configuration><update id="x">UPDATE t SET a = 1</update>`,
	} {
		f := ExtractXML("pom.xml", []byte(doc))
		want := &hostcode.File{Path: "pom.xml", Lang: stmt.LangXML}
		if diff := cmp.Diff(want, f); diff != "" {
			t.Errorf("ExtractXML(%q) (-want +got):\n%s", doc, diff)
		}
	}
}

func TestExtractXMLSuppressions(t *testing.T) {
	doc := `<mapper namespace="ns">
  <!-- guard:ignore GQ001 nightly purge -->
  <delete id="purge">DELETE FROM t</delete>
  <!-- an ordinary comment -->
    <!--guard:ignore gq007 lock held
         by the batch job-->
  <select id="s">SELECT * FROM t FOR UPDATE</select>
  <update id="u"><!-- guard:ignore GQ002 --> UPDATE t SET a = a - 1</update>
</mapper>`
	f := ExtractXML("m.xml", []byte(doc))
	want := []stmt.Suppression{
		{Code: "GQ001", Reason: "nightly purge", Line: 2, Col: 3},
		{Code: "GQ007", Reason: "lock held by the batch job", Line: 5, Col: 5},
		{Code: "GQ002", Reason: "", Line: 8, Col: 18},
	}
	if diff := cmp.Diff(want, f.Suppressions); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
}

func TestExtractMyBatisScript(t *testing.T) {
	// As a Java extractor would pass it: the annotation's string starts on
	// line 10 at column 13, and a concatenated second literal on line 11.
	text := "<script>UPDATE t SET a = 1 " + "<where><if test='id != null'>id = #{id}</if></where></script>"
	second := len("<script>UPDATE t SET a = 1 ")
	segs := []stmt.Segment{{Off: 0, Line: 10, Col: 13}, {Off: second, Line: 11, Col: 9}}
	fs := ExtractMyBatisScript("M.java", text, segs, 9)
	want := []xmlFrag{
		{Variant: variantPresent, SQL: "UPDATE t SET a = 1  WHERE id = ?"},
		{Variant: variantAbsent, SQL: "UPDATE t SET a = 1  "},
	}
	if diff := cmp.Diff(want, xmlFrags(fs)); diff != "" {
		t.Fatalf("fragments (-want +got):\n%s", diff)
	}
	checkSegments(t, fs)
	fr := fs[0]
	if fr.Line != 9 || fr.EndLine != 11 || fr.Col != 13 || fr.Lang != stmt.LangJava || fr.File != "M.java" {
		t.Errorf("Line %d EndLine %d Col %d Lang %q File %q; want 9 11 13 java M.java", fr.Line, fr.EndLine, fr.Col, fr.Lang, fr.File)
	}
	for _, tt := range []struct {
		find      string
		line, col int
	}{
		{"UPDATE", 10, 21},
		{"WHERE", 11, 9},
		{"id = ?", 11, 38},
		{"?", 11, 43},
	} {
		line, col := fr.Pos(strings.Index(fr.SQL, tt.find))
		if line != tt.line || col != tt.col {
			t.Errorf("Pos(%q) = %d:%d, want %d:%d", tt.find, line, col, tt.line, tt.col)
		}
	}

	bad := ExtractMyBatisScript("M.java", "<script>UPDATE t <where>", []stmt.Segment{{Off: 0, Line: 4, Col: 20}}, 4)
	wantBad := []*stmt.Fragment{{File: "M.java", Lang: stmt.LangJava, Unchecked: "xml: unexpected end of file: <where> at line 4 is not closed", Line: 4, Col: 44, EndLine: 4}}
	if diff := cmp.Diff(wantBad, bad); diff != "" {
		t.Errorf("invalid script (-want +got):\n%s", diff)
	}
}

func TestExtractXMLTestdata(t *testing.T) {
	src, err := os.ReadFile("testdata/xml/stock_mapper.xml")
	if err != nil {
		t.Fatal(err)
	}
	f := ExtractXML("testdata/xml/stock_mapper.xml", src)
	checkSegments(t, f.Fragments)
	type frag struct {
		ID, Variant     string
		Line, EndLine   int
		Dollars, Checks int
	}
	var got []frag
	p := sqlparse.NewParser()
	for _, fr := range f.Fragments {
		if fr.Unchecked != "" {
			t.Errorf("%s %q unchecked: %s", fr.ID, fr.Variant, fr.Unchecked)
		}
		n := 0
		for _, piece := range sqlparse.Split(fr.SQL) {
			if _, err := p.Parse(piece.Text); err != nil {
				t.Errorf("%s %q: %q does not parse: %v", fr.ID, fr.Variant, piece.Text, err)
			}
			n++
		}
		got = append(got, frag{fr.ID, fr.Variant, fr.Line, fr.EndLine, len(fr.Dollar), n})
	}
	want := []frag{
		{"getById", "", 18, 22, 0, 1},
		{"listByIds", "", 24, 33, 1, 1},
		{"deduct", "", 36, 40, 0, 1},
		{"updateSelective", variantPresent, 42, 53, 0, 1},
		{"updateSelective", variantAbsent, 42, 53, 0, 1},
		{"transition", variantPresent, 55, 64, 0, 1},
		{"transition", variantAbsent, 55, 64, 0, 1},
		{"transition", `with <when test="version != null"> at line 60 chosen`, 55, 64, 0, 1},
		{"restock", "", 66, 72, 0, 1},
		{"purgeStaging", "", 75, 79, 0, 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fragments (-want +got):\n%s", diff)
	}
	wantSupp := []stmt.Suppression{{Code: "GQ001", Reason: "nightly purge of the whole staging table", Line: 74, Col: 5}}
	if diff := cmp.Diff(wantSupp, f.Suppressions); diff != "" {
		t.Errorf("suppressions (-want +got):\n%s", diff)
	}
	absent := f.Fragments[4]
	if got, want := strings.Join(strings.Fields(absent.SQL), " "), "UPDATE t_inventory SET version = version + 1"; got != want {
		t.Errorf("updateSelective without its conditions = %q, want %q", got, want)
	}
}

// nestedIfs returns n <if> elements, each inside the previous, one a line.
func nestedIfs(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "<if test=\"a%d != null\">AND a%d = #{a%d}\n", i, i, i)
	}
	b.WriteString(strings.Repeat("</if>", n))
	return b.String()
}

func TestExtractXMLDepthLimit(t *testing.T) {
	// 100,000 nested <if>: one unchecked fragment, and the statement after it
	// still rendered at its own line.
	doc := mapperOf("<update id=\"deep\">UPDATE t SET a = 1 WHERE id = 1\n" + nestedIfs(100_000) + "</update>\n" +
		`<update id="after">UPDATE t SET a = 1 WHERE id = 2</update>`)
	f := ExtractXML("m.xml", []byte(doc))
	want := []xmlFrag{
		{ID: "deep", Unchecked: mbTooDeep},
		{ID: "after", SQL: "UPDATE t SET a = 1 WHERE id = 2"},
	}
	if diff := cmp.Diff(want, xmlFrags(f.Fragments)); diff != "" {
		t.Errorf("fragments (-want +got):\n%s", diff)
	}
	if len(f.Fragments) == 2 && f.Fragments[1].Line != 100_003 {
		t.Errorf("statement after the deep one at line %d, want 100003", f.Fragments[1].Line)
	}
	if !strings.Contains(mbTooDeep, "more than 64 levels") {
		t.Errorf("message %q does not name the limit", mbTooDeep)
	}

	// The limit itself still renders.
	f = ExtractXML("m.xml", []byte(mapperOf(`<update id="u">UPDATE t SET a = 1 WHERE id = 1 `+nestedIfs(mbMaxDepth)+`</update>`)))
	for _, fr := range f.Fragments {
		if fr.Unchecked != "" {
			t.Errorf("%d levels: %s", mbMaxDepth, fr.Unchecked)
		}
	}

	// Includes count: a chain of <sql> elements each including the previous,
	// and a <sql> element that is too deep itself.
	var chain strings.Builder
	chain.WriteString(`<sql id="a0">x = 1</sql>`)
	for i := 1; i <= mbMaxDepth; i++ {
		fmt.Fprintf(&chain, `<sql id="a%d"><include refid="a%d"/></sql>`, i, i-1)
	}
	chain.WriteString(`<sql id="deep">` + nestedIfs(mbMaxDepth+1) + `</sql>`)
	chain.WriteString(fmt.Sprintf(`<delete id="chain">DELETE FROM t WHERE <include refid="a%d"/></delete>`, mbMaxDepth))
	chain.WriteString(`<delete id="inc">DELETE FROM t WHERE id = 1 <include refid="deep"/></delete>`)
	f = ExtractXML("m.xml", []byte(mapperOf(chain.String())))
	if len(f.Fragments) != 2 {
		t.Fatalf("got %d fragments, want 2: %+v", len(f.Fragments), xmlFrags(f.Fragments))
	}
	for _, fr := range f.Fragments {
		if !strings.HasPrefix(fr.Unchecked, mbTooDeep+" at ") {
			t.Errorf("%s: unchecked %q, want %q at its position", fr.ID, fr.Unchecked, mbTooDeep)
		}
	}

	// A <script> string in a Java annotation is the statement itself.
	frags := ExtractMyBatisScript("M.java", "<script>UPDATE t SET a = 1 "+nestedIfs(1000)+"</script>", nil, 7)
	if got := xmlFrags(frags); len(got) != 1 || got[0].Unchecked != mbTooDeep {
		t.Errorf("script: %+v, want one fragment %q", got, mbTooDeep)
	}
}

// TestExtractXMLOldMacLineEnds: a mapper whose lines end in CR alone gives
// the fragments, lines and columns of the same mapper with LF.
func TestExtractXMLOldMacLineEnds(t *testing.T) {
	lines := []string{
		`<?xml version="1.0" encoding="UTF-8"?>`,
		`<mapper namespace="x.OrderMapper">`,
		`  <update id="close">`,
		`    update t_order set status = 3 where id = #{id}`,
		`  </update>`,
		`</mapper>`,
	}
	lf := ExtractXML("OrderMapper.xml", []byte(strings.Join(lines, "\n")+"\n"))
	cr := ExtractXML("OrderMapper.xml", []byte(strings.Join(lines, "\r")+"\r"))
	if len(lf.Fragments) != 1 || lf.Fragments[0].Line != 3 {
		t.Fatalf("LF mapper: %d fragments, want one at line 3 (the <update>)", len(lf.Fragments))
	}
	if len(cr.Fragments) != 1 {
		t.Fatalf("CR mapper: %d fragments, want 1", len(cr.Fragments))
	}
	g, w := cr.Fragments[0], lf.Fragments[0]
	if g.Line != w.Line || g.Col != w.Col || g.EndLine != w.EndLine || g.SQL != w.SQL {
		t.Errorf("CR mapper: %q at %d:%d-%d, want %q at %d:%d-%d", g.SQL, g.Line, g.Col, g.EndLine, w.SQL, w.Line, w.Col, w.EndLine)
	}
}
