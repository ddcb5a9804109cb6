package rules

import (
	"fmt"

	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/internal/stmt"
	"github.com/guard-sql/guard/lint"
)

// paramRead returns what the host code shows of the value bound to e, when
// e is a placeholder bound to a value computed from a record the function
// read (stmt.ParamRead); nil otherwise.
func paramRead(st *lint.Statement, e sqlparse.ExprNode) *stmt.ParamRead {
	fr := st.Fragment
	if fr == nil || len(fr.ParamReads) == 0 || st.Node == nil || !isParam(e) {
		return nil
	}
	ord, ok := sqlparse.ParamOrdinals(st.Node)[unparen(e).(sqlparse.ParamMarkerExpr)]
	if !ok {
		return nil
	}
	for i := range fr.ParamReads {
		if fr.ParamReads[i].Param == ord {
			return &fr.ParamReads[i]
		}
	}
	return nil
}

// boundFromRead describes the read a placeholder's value came from, ""
// when the host code does not show one.
func boundFromRead(st *lint.Statement, e sqlparse.ExprNode) string {
	r := paramRead(st, e)
	if r == nil {
		return ""
	}
	return fmt.Sprintf("; the value bound is %s, computed from %s", r.Text, readText(&r.Read))
}

// reportGormResult reports (GQ011) a conditional GORM update whose
// *gorm.DB result is used for its Error alone: a refused write has a nil
// Error and RowsAffected 0.
func reportGormResult(pass *lint.Pass, st *lint.Statement, cw conditional) {
	ex := st.Fragment.Exec
	outcome := "only its Error is checked, its RowsAffected never compared"
	if ex.ResultDiscarded {
		outcome = "the result is discarded"
	}
	want, cmp := "1", "res.RowsAffected != 1"
	if cw.batch {
		want, cmp = "the number of rows in the batch", "res.RowsAffected != <rows in the batch>"
	}
	fix := "keep the *gorm.DB and compare its count: `res := db.Model(…).Where(…)." + ex.Method + "(…)`, " +
		"`if res.Error != nil { return res.Error }`, then `if " + cmp + " { return " + cw.refusal + " }` (success is exactly " + want
	if cause := refusalCause(cw.refusal); cause != "" {
		fix += "; re-read the row to tell not found from " + cause
	}
	fix += ")"
	pass.ReportStatementFix(st, cw.table, cw.column, fix,
		"GORM %s runs %s but %s: a write that matched no row leaves Error nil, so RowsAffected must be "+
			"compared (== 1 is success, anything else is a refusal)", ex.Method, cw.why, outcome)
}
