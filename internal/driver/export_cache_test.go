package driver

// KeepEveryEntry has the lint cache keep the entries of single files and
// of the host code for a tree of any size, for the tests that read them
// back, and returns the undo.
func KeepEveryEntry() (restore func()) {
	old := smallTree
	smallTree = 0
	return func() { smallTree = old }
}

// KeepSmallTreesWhole undoes KeepEveryEntry until the returned function
// is called: a small tree is kept by its result alone.
func KeepSmallTreesWhole() (restore func()) {
	old := smallTree
	smallTree = 512 << 10
	return func() { smallTree = old }
}
