package mybatisxml

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
)

// TestExtractXMLGenerated reads a mapper in MyBatis Generator's shape: every
// variant parses, the criteria are no substitutions, the ByExample
// statements take their WHERE from the caller and an empty <set> or <trim>
// is marked, with a twin that keeps it.
func TestExtractXMLGenerated(t *testing.T) {
	const path = "testdata/xml/generated_mapper.xml"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := ExtractXML(path, src)
	checkSegments(t, f.Fragments)
	type frag struct {
		ID, Variant     string
		WhereFromCaller bool
		Emptied         string
		Dollar          []stmt.Dollar
		SQL             string
	}
	var got []frag
	p := sqlparse.NewParser()
	for _, fr := range f.Fragments {
		if fr.Unchecked != "" {
			t.Errorf("%s %q unchecked: %s", fr.ID, fr.Variant, fr.Unchecked)
		}
		sql := strings.Join(strings.Fields(fr.SQL), " ")
		if _, err := p.Parse(fr.SQL); err != nil && fr.EmptiedClause == "" {
			t.Errorf("%s %q: %q does not parse: %v", fr.ID, fr.Variant, sql, err)
		}
		got = append(got, frag{fr.ID, fr.Variant, fr.WhereFromCaller, fr.EmptiedClause, fr.Dollar, sql})
	}
	orderBy := []stmt.Dollar{{Expr: "orderByClause", Line: 52, Col: 16, CallerSupplied: "orderByClause"}}
	want := []frag{
		{"selectByExample", variantPresent, true, "", orderBy, "select distinct id, code, stock, status from t_coupon WHERE ( ? ) order by ?"},
		{"selectByExample", variantAbsent, true, "", nil, "select id, code, stock, status from t_coupon"},
		{"deleteByExample", variantPresent, true, "", nil, "delete from t_coupon WHERE ( ? )"},
		{"deleteByExample", variantAbsent, true, "", nil, "delete from t_coupon"},
		{"insertSelective", variantPresent, false, "", nil, "insert into t_coupon ( code, stock ) values ( ?, ? )"},
		{"insertSelective", variantAbsent, false, "<trim> at line 63", nil, "insert into t_coupon"},
		{"updateByExampleSelective", variantPresent, true, "", nil, "update t_coupon SET stock = ?, status = ? WHERE ( ? )"},
		{"updateByExampleSelective", variantAbsent, true, "<set> at line 74", nil, "update t_coupon"},
		{"updateByExampleSelective", variantAbsent + " except inside <set> at line 74", true, "", nil, "update t_coupon SET stock = ?, status = ?"},
		{"updateByPrimaryKeySelective", variantPresent, false, "", nil, "update t_coupon SET stock = ? where id = ?"},
		{"updateByPrimaryKeySelective", variantAbsent, false, "<set> at line 84", nil, "update t_coupon where id = ?"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fragments (-want +got):\n%s", diff)
	}
}

func TestExtractXMLGeneratedSubstitutions(t *testing.T) {
	// exampleWhere wraps a criteria loop the way a generated mapper does.
	exampleWhere := func(whens string) string {
		return `<sql id="Example_Where_Clause"><where><foreach collection="oredCriteria" item="criteria">` +
			`<trim prefix="(" prefixOverrides="and" suffix=")"><foreach collection="criteria.criteria" item="criterion">` +
			`<choose>` + whens + `</choose></foreach></trim></foreach></where></sql>`
	}
	byExample := `<delete id="d">DELETE FROM t <include refid="Example_Where_Clause"/></delete>`
	filterDoc := mapperOf(`<sql id="Filter"><foreach collection="cs" item="criterion">AND ${criterion.condition} #{criterion.value}</foreach></sql>` +
		`<delete id="d">DELETE FROM t WHERE 1 = 1 <include refid="Filter"/></delete>`)
	plainDoc := mapperOf(`<select id="s">SELECT a FROM t ORDER BY ${orderByClause}</select>`)
	commentDoc := mapperOf(`<select id="s"><!-- @mbg.generated -->SELECT a FROM t ORDER BY ${example.orderByClause}, ${sortClause} LIMIT ${limit}</select>`)
	noForeachDoc := mapperOf(exampleWhere(``) + `<select id="s">SELECT ${column.escapedColumnName} FROM t</select>`)
	ognlDoc := mapperOf(`<update id="u">UPDATE t SET s = ${@com.x.Status@PAID.code} WHERE s = ${ @com.x.Outer$State@NEW } AND at &lt; ${@com.x.Clock@now()}</update>`)
	tests := []struct {
		name string
		doc  string
		want []xmlFrag
	}{{
		name: "a value criterion is a comparison of placeholders",
		doc:  mapperOf(exampleWhere(`<when test="criterion.singleValue">and ${criterion.condition} #{criterion.value}</when>`) + byExample),
		want: []xmlFrag{{ID: "d", Variant: variantPresent, SQL: "DELETE FROM t  WHERE (  ? = ? )"}, {ID: "d", Variant: variantAbsent, SQL: "DELETE FROM t  "}},
	}, {
		name: "a between criterion",
		doc:  mapperOf(exampleWhere(`<when test="criterion.betweenValue">and ${criterion.condition} #{criterion.value} and #{criterion.secondValue}</when>`) + byExample),
		want: []xmlFrag{{ID: "d", Variant: variantPresent, SQL: "DELETE FROM t  WHERE (  ? BETWEEN ? and ? )"}, {ID: "d", Variant: variantAbsent, SQL: "DELETE FROM t  "}},
	}, {
		name: "a list criterion",
		doc: mapperOf(exampleWhere(`<when test="criterion.listValue">and ${criterion.condition}<foreach collection="criterion.value" item="v" open="(" close=")" separator=",">#{v}</foreach></when>`) +
			byExample),
		want: []xmlFrag{{ID: "d", Variant: variantPresent, SQL: "DELETE FROM t  WHERE (  ? IN(?) )"}, {ID: "d", Variant: variantAbsent, SQL: "DELETE FROM t  "}},
	}, {
		name: "the choose of the criteria adds no variant",
		doc: mapperOf(exampleWhere(`<when test="criterion.noValue">and ${criterion.condition}</when>`+
			`<when test="criterion.singleValue">and ${criterion.condition} #{criterion.value}</when>`) + byExample),
		want: []xmlFrag{{ID: "d", Variant: variantPresent, SQL: "DELETE FROM t  WHERE (  ? )"}, {ID: "d", Variant: variantAbsent, SQL: "DELETE FROM t  "}},
	}, {
		name: "criteria outside a generated where clause are substitutions",
		doc:  filterDoc,
		want: []xmlFrag{{ID: "d", SQL: "DELETE FROM t WHERE 1 = 1  AND ? ?", Dollar: []stmt.Dollar{{Expr: "criterion.condition", Line: 1, Col: col1(filterDoc, "${")}}}},
	}, {
		name: "orderByClause of a mapper that is not generated is a plain substitution",
		doc:  plainDoc,
		want: []xmlFrag{{ID: "s", SQL: "SELECT a FROM t ORDER BY ?", Dollar: []stmt.Dollar{{Expr: "orderByClause", Line: 1, Col: col1(plainDoc, "${")}}}},
	}, {
		name: "a generator comment marks the mapper generated",
		doc:  commentDoc,
		want: []xmlFrag{{ID: "s", SQL: "SELECT a FROM t ORDER BY ?, ? LIMIT ?", Dollar: []stmt.Dollar{
			{Expr: "example.orderByClause", Line: 1, Col: col1(commentDoc, "${example"), CallerSupplied: "orderByClause"},
			{Expr: "sortClause", Line: 1, Col: col1(commentDoc, "${sort"), CallerSupplied: "sortClause"},
			{Expr: "limit", Line: 1, Col: col1(commentDoc, "${limit")},
		}}},
	}, {
		name: "a column enum of a generated mapper is a column name",
		doc: mapperOf(exampleWhere(``) + `<insert id="i">INSERT INTO t (<foreach collection="selective" item="column" separator=",">${column.escapedColumnName}</foreach>) ` +
			`VALUES (<foreach collection="selective" item="column" separator=",">#{record.${column.javaProperty}}</foreach>)</insert>`),
		want: []xmlFrag{{ID: "i", SQL: "INSERT INTO t ( `column.escapedColumnName` ) VALUES ( ? )"}},
	}, {
		name: "a column enum needs its foreach",
		doc:  noForeachDoc,
		want: []xmlFrag{{ID: "s", SQL: "SELECT ? FROM t", Dollar: []stmt.Dollar{{Expr: "column.escapedColumnName", Line: 1, Col: col1(noForeachDoc, "${column")}}}},
	}, {
		name: "OGNL static fields are constants anywhere, static calls are not",
		doc:  ognlDoc,
		want: []xmlFrag{{ID: "u", SQL: "UPDATE t SET s = ? WHERE s = ? AND at < ?", Dollar: []stmt.Dollar{{Expr: "@com.x.Clock@now()", Line: 1, Col: col1(ognlDoc, "${@com.x.Clock")}}}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ExtractXML("m.xml", []byte(tt.doc))
			if diff := cmp.Diff(tt.want, xmlFrags(f.Fragments)); diff != "" {
				t.Errorf("fragments (-want +got):\n%s", diff)
			}
			checkSegments(t, f.Fragments)
		})
	}
}

func TestExtractXMLEmptiedClauses(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string // variant, emptied clause, SQL
	}{{
		name: "an empty <set> gets a twin that keeps it",
		doc:  mapperOf(`<update id="u">UPDATE t <set><if test="a">a = #{a},</if></set> <where><if test="id">id = #{id}</if></where></update>`),
		want: []string{
			variantPresent + "||UPDATE t SET a = ? WHERE id = ?",
			variantAbsent + "|<set> at line 1|UPDATE t",
			variantAbsent + " except inside <set> at line 1||UPDATE t SET a = ?",
		},
	}, {
		name: "a <where> or a WHERE <trim> may be empty",
		doc:  mapperOf(`<delete id="d">DELETE FROM t <trim prefix="where" prefixOverrides="and"><if test="a">and a = #{a}</if></trim></delete>`),
		want: []string{
			variantPresent + "||DELETE FROM t where a = ?",
			variantAbsent + "||DELETE FROM t",
		},
	}, {
		name: "a <set> with a fixed part is never empty",
		doc:  mapperOf(`<update id="u">UPDATE t <set>v = v + 1, <if test="a">a = #{a},</if></set> WHERE id = #{id}</update>`),
		want: []string{
			variantPresent + "||UPDATE t SET v = v + 1, a = ? WHERE id = ?",
			variantAbsent + "||UPDATE t SET v = v + 1 WHERE id = ?",
		},
	}, {
		name: "an <if> holding the SET keyword leaves it out when absent",
		doc:  mapperOf(`<update id="u">UPDATE t <if test="x != null"> set a = #{x}</if> <where><if test="id">id = #{id}</if></where></update>`),
		want: []string{
			variantPresent + "||UPDATE t set a = ? WHERE id = ?",
			variantAbsent + "|<if> at line 1|UPDATE t",
			variantAbsent + " except inside <if> at line 1||UPDATE t set a = ?",
		},
	}, {
		name: "an <if> inside the SET list is not the SET keyword",
		doc:  mapperOf(`<update id="u">UPDATE t SET <if test="x != null">settled = #{x}</if> WHERE id = #{id}</update>`),
		want: []string{
			variantPresent + "||UPDATE t SET settled = ? WHERE id = ?",
			variantAbsent + "||UPDATE t SET WHERE id = ?",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, fr := range ExtractXML("m.xml", []byte(tt.doc)).Fragments {
				got = append(got, fr.Variant+"|"+fr.EmptiedClause+"|"+strings.Join(strings.Fields(fr.SQL), " "))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("variants (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtractXMLErrorAtElement checks that a statement that cannot be
// rendered stays at its element, where its other variants and a
// guard:ignore stand, and says where the problem is.
func TestExtractXMLErrorAtElement(t *testing.T) {
	doc := `<mapper namespace="ns">
  <!-- guard:ignore GQ009 the fragment lives in another mapper -->
  <delete id="d">
    DELETE FROM t WHERE
    <choose>
      <when test="a">a = 1</when>
      <otherwise><include refid="nope"/></otherwise>
    </choose>
  </delete>
</mapper>`
	f := ExtractXML("m.xml", []byte(doc))
	type pos struct {
		Variant, Unchecked string
		Line, Col, EndLine int
	}
	var got []pos
	for _, fr := range f.Fragments {
		got = append(got, pos{fr.Variant, fr.Unchecked, fr.Line, fr.Col, fr.EndLine})
	}
	want := []pos{
		{variantPresent, "", 3, 3, 9},
		{variantAbsent, `include refid="nope" not found at 7:18`, 3, 3, 9},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fragments (-want +got):\n%s", diff)
	}
}

func TestExampleCriterion(t *testing.T) {
	for _, tc := range []struct {
		method, prop, op string
		ok               bool
	}{
		{"andLockStockGreaterThanOrEqualTo", "lockStock", "GreaterThanOrEqualTo", true},
		{"andStatusEqualTo", "status", "EqualTo", true},
		{"andIdIn", "id", "In", true},
		{"andEqualTo", "", "", false}, // tk.mybatis names the property in a string
		{"orStatusEqualTo", "", "", false},
	} {
		c, ok := ExampleCriterion(tc.method)
		if ok != tc.ok || c.Property != tc.prop || c.Op != tc.op {
			t.Errorf("ExampleCriterion(%q) = %+v, %v", tc.method, c, ok)
		}
	}
	if !CriterionOp("EqualTo") || CriterionOp("Equal") {
		t.Error("CriterionOp")
	}
}
