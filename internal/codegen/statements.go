package codegen

import "strings"

// The statements are built here, once, rather than in the templates: the
// same text is then linted (every UPDATE conditional and bumping the
// version), tested, and shared by a customised template set.

func (d *Data) statements() Statements {
	table := quoteIdent(d.Table)
	pk := quoteIdent(d.PK.Column)
	var cols []string
	for _, f := range d.Fields {
		cols = append(cols, quoteIdent(f.Column))
	}
	var ins, marks []string
	for _, f := range d.InsertFields {
		ins = append(ins, quoteIdent(f.Column))
		marks = append(marks, "?")
	}
	var sets []string
	for _, f := range d.UpdateFields {
		sets = append(sets, quoteIdent(f.Column)+" = ?")
	}
	sets = append(sets, d.bumpVersion())
	return Statements{
		Get:       "SELECT " + strings.Join(cols, ", ") + " FROM " + table + " WHERE " + pk + " = ?",
		Exists:    "SELECT 1 FROM " + table + " WHERE " + pk + " = ?",
		Insert:    "INSERT INTO " + table + " (" + strings.Join(ins, ", ") + ") VALUES (" + strings.Join(marks, ", ") + ")",
		UpdateCAS: "UPDATE " + table + " SET " + strings.Join(sets, ", ") + " WHERE " + pk + " = ? AND " + quoteIdent(d.Version.Column) + " = ?",
	}
}

// bumpVersion is the SET item every UPDATE of the DAO carries: on a
// versioned table a write that leaves the version alone is a lost update
// for the compare-and-set writer that read before it.
func (d *Data) bumpVersion() string {
	v := quoteIdent(d.Version.Column)
	return v + " = " + v + " + 1"
}

// counter returns the statements of one counter. Arguments: n, id, n for
// the guarded UPDATE; n, id, version, n for the compare-and-set.
func (d *Data) counter(f *Field) *Counter {
	table, pk, c := quoteIdent(d.Table), quoteIdent(d.PK.Column), quoteIdent(f.Column)
	update := "UPDATE " + table + " SET " + c + " = " + c + " - ?, " + d.bumpVersion() + " WHERE " + pk + " = ?"
	return &Counter{
		Field:        f,
		SQLRead:      "SELECT " + c + ", " + quoteIdent(d.Version.Column) + " FROM " + table + " WHERE " + pk + " = ?",
		SQLDeduct:    update + " AND " + c + " >= ?",
		SQLDeductCAS: update + " AND " + quoteIdent(d.Version.Column) + " = ? AND " + c + " >= ?",
	}
}

// transitionSQL moves a state column: arguments to, id, from.
func (d *Data) transitionSQL(f *Field) string {
	c := quoteIdent(f.Column)
	return "UPDATE " + quoteIdent(d.Table) + " SET " + c + " = ?, " + d.bumpVersion() +
		" WHERE " + quoteIdent(d.PK.Column) + " = ? AND " + c + " = ?"
}
