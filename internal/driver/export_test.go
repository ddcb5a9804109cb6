package driver

// SetScriptPart sets how many statements of a script are parsed and judged
// at a time, for the tests of the parts, and returns the undo.
func SetScriptPart(n int) (restore func()) {
	old := scriptPart
	scriptPart = n
	return func() { scriptPart = old }
}

// KeepRowTrees keeps the trees of a script's row loads for the rules that
// judge the file as a whole, for the test that they do not need them, and
// returns the undo.
func KeepRowTrees() (restore func()) {
	keepRowTrees = true
	return func() { keepRowTrees = false }
}
