package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// RowsAffectedIgnored flags Go code that runs a conditional write and never
// looks at how many rows it changed: the one place the guard's answer is.
var RowsAffectedIgnored = &lint.Rule{
	Code:    "GQ011",
	Name:    "rows-affected-ignored",
	Summary: "a conditional/CAS UPDATE whose result (RowsAffected, or the int/boolean a Java mapper returns) is never compared",
	Doc: "A guarded write refuses by matching no row, not by failing: `UPDATE … WHERE id = ? AND " +
		"inventory >= ?` with too little stock, a version CAS that lost the race, a transition from a " +
		"state the row already left all return err == nil with zero rows affected. Code that checks only " +
		"err treats every refusal as success, which is the oversell or lost update the guard was meant to " +
		"stop. Success is RowsAffected() == 1 (go-sql-driver/mysql counts changed rows unless " +
		"clientFoundRows=true), and anything else must be handled. A statement carrying the inventory hint " +
		"/*+ TARGET_AFFECT_ROW(n) */ of AliSQL (ApsaraDB RDS for MySQL 5.7 and 8.0) or PolarDB for MySQL " +
		"(5.7.1.0.17 and 8.0.1.1.1 or later) fails when it changes another number of rows, so its error " +
		"carries the refusal: it is not reported (on other servers the hint is ignored).",
	Fix: "keep the result and compare it: `res, err := db.ExecContext(ctx, \"UPDATE t_inventory SET " +
		"inventory = inventory - ? WHERE id = ? AND inventory >= ?\", n, id, n)`; then `n, err := " +
		"res.RowsAffected()` and `if n != 1 { return ErrInsufficient }` (re-read the row to tell not found, " +
		"insufficient and conflict apart)",
	Kind:         lint.KindQuery,
	Severity:     policy.SevError,
	Races:        true,
	PerStatement: true,
	Run:          runRowsAffectedIgnored,
}

func runRowsAffectedIgnored(pass *lint.Pass) error {
	plusResultsIgnored(pass)
	for _, st := range pass.Statements {
		fr := st.Fragment
		if fr == nil || fr.Exec == nil || fr.Exec.ResultChecked || serverCountsRows(st.SQL) {
			continue
		}
		w := writeTargets(st, pass.Schema)
		if w == nil {
			continue
		}
		cw := conditionalWrite(pass, w)
		if cw.why == "" {
			continue
		}
		switch fr.Exec.Returns {
		case stmt.ReturnsHandle:
			reportGormResult(pass, st, cw)
			continue
		case stmt.ReturnsNothing:
			pass.ReportStatementFix(st, cw.table, cw.column, javaVoidFix(fr.ID, cw),
				"%s runs %s but returns void: a write that matched no row raises no exception, so nobody "+
					"can tell a refusal from success", execName(fr.Exec.Method), cw.why)
			continue
		case stmt.ReturnsCount:
			javaResultIgnored(pass, st, cw)
			continue
		}
		outcome := "its RowsAffected() is never compared"
		if fr.Exec.ResultDiscarded {
			outcome = "the result is discarded"
		}
		pass.ReportStatementFix(st, cw.table, cw.column, resultFix(fr.Exec.Method, cw),
			"%s runs %s but %s: a write that matched no row returns err == nil, so the result's "+
				"RowsAffected() must be compared (== 1 is success, anything else is a refusal)",
			execName(fr.Exec.Method), cw.why, outcome)
	}
	discardedRepositoryResults(pass)
	return nil
}

// serverCountsRows reports whether the statement carries AliSQL's (and
// PolarDB's) TARGET_AFFECT_ROW(n) hint: the server then fails it when it
// changes another number of rows, so the refusal reaches the caller as an
// error and no count needs comparing.
func serverCountsRows(sql string) bool {
	for h := range sqlparse.Hints(sql) {
		h = strings.NewReplacer(" (", "(", "( ", "(", " )", ")").Replace(strings.Join(strings.Fields(h), " "))
		for _, word := range strings.Fields(h) {
			name, arg, ok := strings.Cut(word, "(")
			if ok && strings.EqualFold(name, "TARGET_AFFECT_ROW") && strings.HasSuffix(arg, ")") {
				if n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(arg, ")"))); err == nil && n > 0 {
					return true
				}
			}
		}
	}
	return false
}

// discardedRepositoryResults reports the calls of a Spring Data repository
// method, made as statements of their own, whose @Modifying @Query is a
// conditional write: the int it returns is the only sign of a refusal.
func discardedRepositoryResults(pass *lint.Pass) {
	for i := range pass.MapperCalls {
		c := &pass.MapperCalls[i]
		if c.Kind != stmt.CallRunsStatement || !c.ResultDiscarded {
			continue
		}
		for _, st := range pass.Mappers.Statements(c.Mapper, c.Method) {
			if st.Fragment.Exec != nil && st.Fragment.Exec.Returns == stmt.ReturnsNothing {
				break // a void method: its declaration is reported, its callers get nothing to compare
			}
			w := writeTargets(st, pass.Schema)
			if w == nil {
				continue
			}
			cw := conditionalWrite(pass, w)
			if cw.why == "" || serverCountsRows(st.SQL) {
				break
			}
			repo := c.Mapper[strings.LastIndexByte(c.Mapper, '.')+1:]
			pass.Report(lint.Finding{
				File: pass.File, Line: c.Line, Column: c.Col, EndLine: max(c.EndLine, c.Line),
				Table: cw.table, ColumnName: cw.column, SQL: lint.Compact(st.SQL),
				Message: fmt.Sprintf("%s.%s() runs %s (its @Query at %s:%d) but the count of rows it returns is "+
					"discarded: a write that matched no row raises no exception, so that count must be compared "+
					"(1 is success)", repo, c.Method, cw.why, st.File, st.Fragment.Line),
				Fix: "keep the count and compare it: `if (" + lowerFirst(repo) + "." + c.Method + "(…) != 1) { throw … }`" +
					javaRefusal(cw),
			})
			break
		}
	}
}

// javaRefusal says what a count of 0 means, for Java advice.
func javaRefusal(cw conditional) string {
	if cause := refusalCause(cw.refusal); cause != "" {
		return " (0 rows: the row is missing or " + cause + "; re-read it to tell which)"
	}
	return " (0 rows: the row is missing)"
}

// lowerFirst is name with its first letter in lower case, the usual name
// of a field of that type.
func lowerFirst(name string) string {
	if name == "" {
		return name
	}
	return strings.ToLower(name[:1]) + name[1:]
}

// javaVoidFix is the advice for a void @Modifying method whose statement is
// a conditional write.
func javaVoidFix(method string, cw conditional) string {
	return "declare it to return the count: `@Modifying @Query(…) int " + method + "(…)`, and compare it at each " +
		"call: `if (repository." + method + "(…) != 1) { throw … }`" + javaRefusal(cw)
}

// conditional says why a write's success only RowsAffected tells.
type conditional struct {
	// why names the guard ("a version CAS on version", …); "" for a plain write.
	why string
	// table and column are what the guard bears on.
	table, column string
	// refusal is the error a refused write should return, in the names of
	// the generated DAO (DESIGN §7).
	refusal string
	// batch is set for a batched decrement, which changes one row per branch.
	batch bool
}

// resultFix is the advice for the unchecked result of method: keep it and
// compare the count with the rows the statement must change.
func resultFix(method string, cw conditional) string {
	want, cmp := "1", "n != 1"
	if cw.batch {
		want, cmp = "the number of rows in the batch", "n != <rows in the batch>"
	}
	fix := "keep the result and compare it: `res, err := db." + execName(method) + "(…)`, then `n, err := " +
		"res.RowsAffected()` and `if " + cmp + " { return " + cw.refusal + " }` (success is exactly " + want
	if cause := refusalCause(cw.refusal); cause != "" {
		fix += "; re-read the row to tell not found from " + cause
	}
	return fix + ")"
}

// refusalCause says what else than a missing row a refused write of the
// kind means; "" when a missing row is the only cause.
func refusalCause(refusal string) string {
	switch refusal {
	case "ErrConflict":
		return "a version conflict"
	case "ErrStateChanged":
		return "a row that left the expected state"
	case "ErrInsufficient":
		return "insufficient stock"
	}
	return ""
}

// conditionalWrite says why w is a write whose success only RowsAffected
// tells; its why is "" for a plain write.
func conditionalWrite(pass *lint.Pass, w *write) conditional {
	if w.kind != writeUpdate && w.kind != writeDelete {
		return conditional{}
	}
	conds := w.filters()
	as := w.assignments()
	// A write of a counter that its WHERE bounds (the counter compared, a
	// version CAS): only the count of changed rows says whether the stock
	// moved. One that names the row alone (`SET stock = ? WHERE id = ?`, an
	// unguarded decrement, which GQ002 reports) or an increment nothing
	// bounds (a restock, a refund) is refused by nothing but a missing row.
	for _, a := range as {
		if !isCounter(pass, a.col) {
			continue
		}
		if !mentions(conds, a.col) && !hasVersionPredicate(conds, w.versionRef(pass, a.col.t)) {
			continue
		}
		cw := conditional{why: "a write of counter " + a.col.name, table: a.col.t.tableName(), column: a.col.name,
			refusal: "ErrNotFound"}
		for _, d := range w.decrements() {
			if d.node == a.node {
				cw.batch = d.batch != nil
				if d.fullyGuarded() {
					cw.why, cw.refusal = "a guarded decrement of "+a.col.name, "ErrInsufficient"
				}
			}
		}
		if cw.refusal == "ErrNotFound" && hasVersionPredicate(conds, w.versionRef(pass, a.col.t)) {
			cw.refusal = "ErrConflict"
		}
		return cw
	}
	for _, t := range w.targets {
		if v := w.versionRef(pass, t); hasVersionPredicate(conds, v) {
			return conditional{why: "a version CAS on " + v.name, table: t.tableName(), column: v.name, refusal: "ErrConflict"}
		}
	}
	// A state predicate bounds a transition; for a DELETE it bounds which
	// state a row may be removed from.
	if w.kind == writeDelete {
		for _, c := range referencedColumns(w, conds) {
			if isState(pass, c) && pinsRow(pass, w, c.t) {
				return conditional{why: "a DELETE conditional on " + c.name, table: c.t.tableName(), column: c.name,
					refusal: "ErrStateChanged"}
			}
		}
		return conditional{}
	}
	for _, a := range as {
		if isState(pass, a.col) && mentions(conds, a.col) && pinsRow(pass, w, a.col.t) {
			return conditional{why: "a state transition of " + a.col.name, table: a.col.t.tableName(), column: a.col.name,
				refusal: "ErrStateChanged"}
		}
	}
	return conditional{}
}
