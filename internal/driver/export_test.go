package driver

// SetScriptPart sets how many statements of a script are parsed and judged
// at a time, for the tests of the parts, and returns the undo.
func SetScriptPart(n int) (restore func()) {
	old := scriptPart
	scriptPart = n
	return func() { scriptPart = old }
}
