package rules

import (
	"strings"

	"github.com/guard-sql/guard/lint"
)

// MyBatis-Plus returns the rows a write changed as its result, an int from
// a mapper (BaseMapper.update, updateById) and a boolean from a service
// (IService.update, updateById, a lambdaUpdate() chain); a write that
// matched no row returns 0 or false and throws nothing. A conditional
// write whose result the code drops is GQ011 at the call.

// booleanResult reports whether the MyBatis-Plus method returns a boolean
// (an IService method) rather than an int (a BaseMapper method).
func booleanResult(method string) bool {
	return strings.HasPrefix(method, "IService.")
}

// javaResultIgnored reports (GQ011) the rendered wrapper update st, a
// conditional write cw whose result the Java code drops.
func javaResultIgnored(pass *lint.Pass, st *lint.Statement, cw conditional) {
	method := st.Fragment.Exec.Method
	pass.ReportStatementFix(st, cw.table, cw.column, javaResultFix(method, cw),
		"%s runs %s but %s: a write that matched no row returns %s without an exception, so the result "+
			"must be compared (%s)",
		method, cw.why, javaOutcome(method), javaRefused(method), javaSuccess(method))
}

// plusResultsIgnored reports (GQ011) MyBatis-Plus updateById calls that are
// a version compare-and-set (@Version holding the version read) and drop
// their result: a write that lost the race changed nothing, unnoticed.
func plusResultsIgnored(pass *lint.Pass) {
	for _, mw := range mapperWrites(pass) {
		c := mw.call
		if c.Result == "" || !c.VersionCAS || !c.ResultDiscarded {
			continue
		}
		method := c.Result
		vc := pass.Policy.VersionColumn()
		cw := conditional{why: "a version CAS on " + vc, table: mw.t.tableName(), column: vc, refusal: "ErrConflict"}
		why := ""
		if c.RecordRead != nil {
			why = " (" + readText(c.RecordRead) + ")"
		}
		pass.Report(lint.Finding{
			File: pass.File, Line: c.Line, Column: c.Col, EndLine: max(c.EndLine, c.Line),
			Table: cw.table, ColumnName: vc, Fix: javaResultFix(method, cw), SQL: c.Method,
			Message: mw.statement + " is " + cw.why + " through @Version" + why + " but " + javaOutcome(method) +
				": a write that lost the race matches no row and returns " + javaRefused(method) +
				" without an exception, so the result must be compared (" + javaSuccess(method) + ")",
		})
	}
}

func javaOutcome(method string) string {
	if booleanResult(method) {
		return "its boolean result is discarded"
	}
	return "its int result is discarded"
}

func javaRefused(method string) string {
	if booleanResult(method) {
		return "false"
	}
	return "0"
}

func javaSuccess(method string) string {
	if booleanResult(method) {
		return "true is success, false a refusal"
	}
	return "1 is success, 0 a refusal"
}

// javaResultFix is the advice for the dropped result of a MyBatis-Plus
// write: test it and turn a refusal into an error.
func javaResultFix(method string, cw conditional) string {
	test := "if (mapper.update(null, wrapper) != 1) { throw new IllegalStateException(\"…\"); }"
	if booleanResult(method) {
		test = "if (!service.update(wrapper)) { throw new IllegalStateException(\"…\"); }"
	}
	if strings.HasSuffix(method, "updateById") {
		test = strings.Replace(test, "update(null, wrapper)", "updateById(entity)", 1)
		test = strings.Replace(test, "update(wrapper)", "updateById(entity)", 1)
	}
	fix := "keep the result and test it: `" + test + "`"
	switch cause := refusalCause(cw.refusal); {
	case cw.refusal == "ErrConflict":
		fix += " (a conflict: read the row again and retry, or report it)"
	case cause != "":
		fix += " (re-read the row to tell not found from " + cause + ")"
	}
	return fix
}
