package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/stmt"
)

func TestExtractGoOnlySQLIsSQL(t *testing.T) {
	runGoCases(t, []goCase{
		{
			name: "error constructors, wrappers, loggers and test names take messages",
			src: goSrc(
				"package p",
				"import (",
				"	\"log/slog\"",
				"	\"testing\"",
				"	pkgerrors \"github.com/pkg/errors\"",
				"	\"github.com/zeromicro/go-zero/core/logx\"",
				"	\"go.uber.org/zap\"",
				"	\"google.golang.org/grpc/status\"",
				"	\"example.com/app/common/xerr\"",
				")",
				"func (l *Logic) f(err error) error {",
				"	logx.Errorf(\"delete soft failed: %v\", err)",
				"	l.Logger.Errorf(\"update stock fail %v\", err)",
				"	slog.Info(\"select failed\")",
				"	zap.L().Error(\"delete from cache failed\")",
				"	_ = status.Error(13, \"create order fail\")",
				"	_ = xerr.NewErrCodeMsg(1, \"update state fail\")",
				"	_ = newErrMsg(\"drop table t\")",
				"	return pkgerrors.Wrapf(xerr.NewErrMsg(\"update homestay order fail\"), \"update fail: %v\", err)",
				"}",
				"func TestF(t *testing.T) { t.Run(\"delete from t\", func(t *testing.T) {}) }",
			),
		},
		{
			name: "a value read only by messages is a message; the twin a database call runs is SQL",
			src: goSrc(
				"package p",
				"import (",
				"	\"fmt\"",
				"	\"log\"",
				")",
				"func f(key string) {",
				"	msg := fmt.Sprintf(\"delete from cache failed, key=%s\", key)",
				"	log.Println(msg)",
				"	const shown = \"DELETE FROM t WHERE id = 1\"",
				"	log.Println(shown)",
				"	q := fmt.Sprintf(\"delete from %s where key = ?\", key)",
				"	db.Exec(q, key)",
				"}",
			),
			want: []goView{{Line: 11, EndLine: 11, ID: "f", Unchecked: "SQL built at run time with fmt.Sprintf",
				Exec: &stmt.Exec{Method: "Exec", ResultDiscarded: true}}},
		},
		{
			name: "of unknown use, a string is SQL when it parses as a statement",
			src: goSrc(
				"package p",
				"const purge = \"DELETE FROM t WHERE qty = 0\"",
				"const broken = \"UPDATE t SET a = 1 WHERE id = ? AN b = 2\"",
				"const who = \"select user failed\"",
				"func f() {",
				"	notify(\"update stock failed\")",
				"	run(ctx, \"UPDATE t SET a = 1 WHERE id = ?\")",
				"	db.Exec(\"UPDATE t SET a = 1 WHERE id = ? AN b = 2\")",
				"}",
			),
			want: []goView{
				{Line: 2, EndLine: 2, ID: "purge", SQL: "DELETE FROM t WHERE qty = 0"},
				{Line: 7, EndLine: 7, ID: "f", SQL: "UPDATE t SET a = 1 WHERE id = ?"},
				{Line: 8, EndLine: 8, ID: "f", SQL: "UPDATE t SET a = 1 WHERE id = ? AN b = 2",
					Exec: &stmt.Exec{Method: "Exec", ResultDiscarded: true}},
			},
		},
		{
			name: "of unknown use, SQL built at run time needs a statement's skeleton",
			src: goSrc(
				"package p",
				"import (",
				"	\"fmt\"",
				"	\"strings\"",
				")",
				"func a(t string, err error) string { return fmt.Sprintf(\"update %s failed: %v\", t, err) }",
				"func b(t string) string { return fmt.Sprintf(\"update %s set a = ? where id = ?\", t) }",
				"func c(name string) string { return \"delete \" + name + \" from the list\" }",
				"func d(t string) string { return \"DELETE FROM \" + t + \" WHERE id = ?\" }",
				"func e(w []string) string {",
				"	var sb strings.Builder",
				"	sb.WriteString(\"SELECT id FROM t \")",
				"	sb.WriteString(\"WHERE \" + strings.Join(w, \" AND \"))",
				"	return sb.String()",
				"}",
				"func g(n int) string {",
				"	q := \"update state fail\"",
				"	q += fmt.Sprint(n)",
				"	return q",
				"}",
			),
			want: []goView{
				{Line: 7, EndLine: 7, ID: "b", Unchecked: "SQL built at run time with fmt.Sprintf"},
				{Line: 9, EndLine: 9, ID: "d", Unchecked: "SQL concatenated with non-constant expression `t`"},
				{Line: 12, EndLine: 12, ID: "e", Unchecked: "SQL built at run time with strings.Builder"},
			},
		},
		{
			name: "a holder or a function whose name says SQL confirms SQL that does not parse",
			src: goSrc(
				"package p",
				"import \"fmt\"",
				"const deductSQL = \"UPDATE t SET q = q - 1 WHERE id = ? AN q >= 1\"",
				"const deductFailed = \"update stock failed\"",
				"func f(cols, t string) {",
				"	query := fmt.Sprintf(\"select %s from %s\", cols, t)",
				"	label := fmt.Sprintf(\"select %s from %s\", cols, t)",
				"	_ = Stmt{SQL: \"delete t\", Msg: \"delete stock failed\"}",
				"	use(query, label)",
				"}",
				"func (b *Alter) ToSQL() string { return \"ALTER TABLE \" + b.name + \" \" + b.change }",
				"func (b *Alter) Describe() string { return \"ALTER TABLE \" + b.name + \" \" + b.change }",
			),
			want: []goView{
				{Line: 3, EndLine: 3, ID: "deductSQL", SQL: "UPDATE t SET q = q - 1 WHERE id = ? AN q >= 1"},
				{Line: 6, EndLine: 6, ID: "f", Unchecked: "SQL built at run time with fmt.Sprintf"},
				{Line: 8, EndLine: 8, ID: "f", SQL: "delete t"},
				{Line: 11, EndLine: 11, ID: "Alter.ToSQL", Unchecked: "SQL concatenated with non-constant expression `b.name`"},
			},
		},
		{
			name: "the patterns of a mocked database are not SQL, even under a name that says so",
			src: goSrc(
				"package p",
				"import \"regexp\"",
				"func TestGet(t *testing.T) {",
				"	query := \"SELECT id FROM t WHERE id = \\\\?\"",
				"	mock.ExpectQuery(query).WillReturnRows(rows)",
				"	mock.ExpectExec(regexp.QuoteMeta(\"UPDATE t SET a = 1 WHERE id = ?\"))",
				"}",
			),
		},
		{
			name: "a go-zero query method confirms SQL that neither parses nor shows its skeleton",
			src: goSrc(
				"package p",
				"import \"fmt\"",
				"func (m *model) find(ctx context.Context, id int64) error {",
				"	query := fmt.Sprintf(\"select %s from %s\", rows, m.table)",
				"	return m.conn.QueryRowCtx(ctx, &v, query, id)",
				"}",
				"func (m *model) find2(ctx context.Context, id int64) error {",
				"	return m.conn.QueryRowsNoCacheCtx(ctx, &v, \"select a frm t\", id)",
				"}",
				"func (m *model) get(id int64) error {",
				"	return m.cache.Get(\"select key\", id)",
				"}",
			),
			want: []goView{
				{Line: 4, EndLine: 4, ID: "model.find",
					Unchecked: "SQL built at run time with fmt.Sprintf: `rows` is declared in another file, which guard does not read with this one"},
				{Line: 8, EndLine: 8, ID: "model.find2", SQL: "select a frm t"},
			},
		},
	})
}

func TestExtractGoRecoversFromSyntaxErrors(t *testing.T) {
	src := goSrc(
		"package p",
		"func a(ids []int64) {",
		"	for _, id := range ids",
		"		db.Exec(\"DELETE FROM t WHERE id = ?\", id)",
		"	}",
		"}",
		"func b() error { return errors.New(\"update failed\") }",
		"func c() { db.Exec(\"UPDATE t SET a = 1\") }",
	)
	f := ExtractGo("dao.go", []byte(src))
	want := []goView{
		{Line: 3, EndLine: 3, Unchecked: "go: cannot parse file: expected '{', found newline"},
		{Line: 4, EndLine: 4, ID: "a", SQL: "DELETE FROM t WHERE id = ?", Exec: &stmt.Exec{Method: "Exec", ResultDiscarded: true}},
		{Line: 8, EndLine: 8, ID: "c", SQL: "UPDATE t SET a = 1", Exec: &stmt.Exec{Method: "Exec", ResultDiscarded: true}},
	}
	if diff := cmp.Diff(want, goViews(f)); diff != "" {
		t.Errorf("fragments (-want +got):\n%s", diff)
	}
}
