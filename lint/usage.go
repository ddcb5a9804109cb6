package lint

import (
	"sort"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// Use is one place the code reads or writes a table or a column: a
// statement of a query source, by its first line.
type Use struct {
	File string
	Line int
	// Verb is the statement's kind: SELECT, INSERT, UPDATE, DELETE, REPLACE.
	Verb string
}

// maxUses is how many places Usage keeps of each table and column: a
// finding names the first few, and counts the rest.
const maxUses = 3

// Uses are the first places of one table or column, and how many there are.
type Uses struct {
	First []Use
	N     int
}

func (u *Uses) add(x Use) {
	for _, y := range u.First {
		if y == x {
			return
		}
	}
	u.N++
	if len(u.First) < maxUses {
		u.First = append(u.First, x)
	}
}

func (u *Uses) merge(o Uses) {
	for _, x := range o.First {
		u.add(x)
	}
	if extra := o.N - len(o.First); extra > 0 {
		u.N += extra
	}
}

// Usage says where the code uses the tables the migrations change: the
// migration rules (GM004, GM006) tell a change nothing reads from one that
// breaks the running code. Only the watched tables are recorded, so that a
// run whose migrations drop or rename nothing pays nothing.
type Usage struct {
	tables map[string]*tableUsage
}

type tableUsage struct {
	// all are the statements naming the table.
	all Uses
	// columns are the statements naming each column (lower case);
	// written those that write it (an INSERT's column list, SET c = …).
	columns, written map[string]*Uses
	// positional are the INSERTs and REPLACEs without a column list: they
	// write every column by position, so adding or dropping any breaks them.
	positional Uses
	// inserts are the INSERTs and REPLACEs with a column list, each with the
	// columns it names.
	inserts []insertUse
}

type insertUse struct {
	Use
	columns map[string]bool
}

// maxInserts bounds the inserts kept per table: enough to name the ones
// that leave a new column out.
const maxInserts = 64

// Table returns the places that name table t (lower case).
func (u *Usage) Table(t string) Uses {
	if u == nil || u.tables[t] == nil {
		return Uses{}
	}
	return u.tables[t].all
}

// Column returns the places that name column c of table t (both lower
// case), and the INSERTs that write it by position.
func (u *Usage) Column(t, c string) Uses {
	if u == nil || u.tables[t] == nil {
		return Uses{}
	}
	tu := u.tables[t]
	var out Uses
	if cu := tu.columns[c]; cu != nil {
		out.merge(*cu)
	}
	out.merge(tu.positional)
	return out
}

// Written returns the places that write column c of table t, and the
// INSERTs that write it by position.
func (u *Usage) Written(t, c string) Uses {
	if u == nil || u.tables[t] == nil {
		return Uses{}
	}
	tu := u.tables[t]
	var out Uses
	if cu := tu.written[c]; cu != nil {
		out.merge(*cu)
	}
	out.merge(tu.positional)
	return out
}

// Positional returns the INSERTs into t that name no column.
func (u *Usage) Positional(t string) Uses {
	if u == nil || u.tables[t] == nil {
		return Uses{}
	}
	return u.tables[t].positional
}

// InsertsWithout returns the INSERTs into t whose column list leaves out c.
func (u *Usage) InsertsWithout(t, c string) Uses {
	var out Uses
	if u == nil || u.tables[t] == nil {
		return out
	}
	for _, in := range u.tables[t].inserts {
		if !in.columns[c] {
			out.add(in.Use)
		}
	}
	return out
}

// Merge adds the places of o to u.
func (u *Usage) Merge(o *Usage) {
	if o == nil {
		return
	}
	if u.tables == nil {
		u.tables = map[string]*tableUsage{}
	}
	names := make([]string, 0, len(o.tables))
	for t := range o.tables {
		names = append(names, t)
	}
	sort.Strings(names)
	for _, t := range names {
		ot := o.tables[t]
		tu := u.table(t)
		tu.all.merge(ot.all)
		tu.positional.merge(ot.positional)
		for c, cu := range ot.columns {
			tu.column(c).merge(*cu)
		}
		for c, cu := range ot.written {
			tu.writes(c).merge(*cu)
		}
		for _, in := range ot.inserts {
			if len(tu.inserts) < maxInserts {
				tu.inserts = append(tu.inserts, in)
			}
		}
	}
}

func (u *Usage) table(t string) *tableUsage {
	if u.tables == nil {
		u.tables = map[string]*tableUsage{}
	}
	tu := u.tables[t]
	if tu == nil {
		tu = &tableUsage{columns: map[string]*Uses{}, written: map[string]*Uses{}}
		u.tables[t] = tu
	}
	return tu
}

func (tu *tableUsage) writes(c string) *Uses {
	cu := tu.written[c]
	if cu == nil {
		cu = &Uses{}
		tu.written[c] = cu
	}
	return cu
}

func (tu *tableUsage) column(c string) *Uses {
	cu := tu.columns[c]
	if cu == nil {
		cu = &Uses{}
		tu.columns[c] = cu
	}
	return cu
}

// Watch names the tables whose uses Usage records, and the columns the
// migrations remove from them (drop or rename), all lower case.
type Watch map[string]map[string]bool

// Add watches table t and, when c is not "", its column c.
func (w Watch) Add(t, c string) {
	cols := w[t]
	if cols == nil {
		cols = map[string]bool{}
		w[t] = cols
	}
	if c != "" {
		cols[c] = true
	}
}

// plain tells whether every watched table's name is one word of
// identifier characters, as Mentioner needs.
func (w Watch) plain() bool {
	for t := range w {
		if t == "" {
			return false
		}
		for i := 0; i < len(t); i++ {
			if !sqlparse.NameByte(t[i]) {
				return false
			}
		}
	}
	return true
}

// Mentioner tells whether a word of a statement's text is the name of a
// watched table: a statement in which none is cannot use one, and Observe
// need not walk its tree. It knows the lengths and first letters of the
// watched names, and looks a word up only when it has both, so that the
// keywords and columns of a statement cost a scan of their bytes and no
// hash.
type Mentioner struct {
	w Watch
	// lens has bit n set for a watched name of n bytes (n < 64); long
	// says one is longer. first holds the names' first bytes.
	lens  uint64
	long  bool
	first [256]bool
}

// Mentioner returns the Mentioner of w; nil when a watched name is not
// one word (a quoted name with a space), which no word can be.
func (w Watch) Mentioner() *Mentioner {
	if !w.plain() {
		return nil
	}
	m := &Mentioner{w: w}
	for t := range w {
		if len(t) < 64 {
			m.lens |= 1 << len(t)
		} else {
			m.long = true
		}
		if t != "" {
			m.first[t[0]] = true
		}
	}
	return m
}

// Mentions tells whether a word of sql, read as a statement's text, is
// the name of a watched table.
func (m *Mentioner) Mentions(sql string) bool {
	var buf [64]byte
	for i := 0; i < len(sql); {
		if !sqlparse.NameByte(sql[i]) {
			i++
			continue
		}
		j := i
		ascii := true
		for j < len(sql) && sqlparse.NameByte(sql[j]) {
			ascii = ascii && sql[j] < 0x80
			j++
		}
		word := sql[i:j]
		i = j
		if !ascii {
			// Lower case may change a character's length: looked up whole.
			if m.w[strings.ToLower(word)] != nil {
				return true
			}
			continue
		}
		c := word[0]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if !m.first[c] || (len(word) < 64 && m.lens&(1<<len(word)) == 0) || (len(word) >= 64 && !m.long) {
			continue
		}
		if len(word) > len(buf) {
			if m.w[strings.ToLower(word)] != nil {
				return true
			}
			continue
		}
		b := buf[:len(word)]
		for k := 0; k < len(word); k++ {
			c := word[k]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b[k] = c
		}
		if m.w[string(b)] != nil {
			return true
		}
	}
	return false
}

// Observe records what st, a parsed statement of a query source, uses of
// the watched tables. A column written without a table in a statement of
// several tables is given to the one that has it in s or that a migration
// removes it from; when that is not one table, or a table s does not know
// could be it, the column is not recorded: a use guard cannot place is not
// claimed.
func (u *Usage) Observe(st *Statement, watch Watch, s *schema.Schema) {
	if st.Node == nil || len(watch) == 0 {
		return
	}
	verb := dmlVerb(st.Node)
	if verb == "" {
		return
	}
	v := &useFinder{aliases: map[string]string{}, writes: map[*sqlparse.ColumnName]bool{}}
	st.Node.Accept(v)
	at := Use{File: st.File, Line: st.Line, Verb: verb}
	watched := false
	for _, t := range v.tables {
		if watch[t] != nil {
			watched = true
			u.table(t).all.add(at)
		}
	}
	if !watched {
		return
	}
	for _, c := range v.columns {
		t := v.place(c, watch, s)
		if t == "" || watch[t] == nil {
			continue
		}
		u.table(t).column(c.Name.L).add(at)
		if v.writes[c] {
			u.table(t).writes(c.Name.L).add(at)
		}
	}
	if in, ok := st.Node.(*sqlparse.InsertStmt); ok {
		u.observeInsert(in, at, watch)
	}
}

func (u *Usage) observeInsert(in *sqlparse.InsertStmt, at Use, watch Watch) {
	if in.Table == nil {
		return
	}
	ts, ok := in.Table.TableRefs.Left.(*sqlparse.TableSource)
	if !ok {
		return
	}
	tn, ok := ts.Source.(*sqlparse.TableName)
	if !ok || watch[tn.Name.L] == nil {
		return
	}
	tu := u.table(tn.Name.L)
	if len(in.Columns) == 0 { // INSERT … SET lists its columns here too
		tu.positional.add(at)
		return
	}
	cols := map[string]bool{}
	for _, c := range in.Columns {
		cols[c.Name.L] = true
	}
	if len(tu.inserts) < maxInserts {
		tu.inserts = append(tu.inserts, insertUse{Use: at, columns: cols})
	}
}

// dmlVerb names the kind of a statement that reads or writes rows; "" for
// any other.
func dmlVerb(n sqlparse.StmtNode) string {
	switch n := n.(type) {
	case *sqlparse.SelectStmt, *sqlparse.SetOprStmt:
		return "SELECT"
	case *sqlparse.InsertStmt:
		if n.IsReplace {
			return "REPLACE"
		}
		return "INSERT"
	case *sqlparse.UpdateStmt:
		return "UPDATE"
	case *sqlparse.DeleteStmt:
		return "DELETE"
	}
	return ""
}

// useFinder collects the tables a statement names, their aliases, and the
// columns it names.
type useFinder struct {
	tables  []string
	aliases map[string]string // alias or name (lower case) -> table
	columns []*sqlparse.ColumnName
	// writes marks the columns an assignment or an INSERT's list writes.
	writes map[*sqlparse.ColumnName]bool
	// ctes are the names of the statement's common table expressions,
	// which are not tables.
	ctes map[string]bool
}

func (v *useFinder) Enter(n sqlparse.Node) (sqlparse.Node, bool) {
	switch n := n.(type) {
	case *sqlparse.CommonTableExpression:
		if v.ctes == nil {
			v.ctes = map[string]bool{}
		}
		v.ctes[n.Name.L] = true
	case *sqlparse.TableSource:
		if tn, ok := n.Source.(*sqlparse.TableName); ok && !v.ctes[tn.Name.L] {
			v.addTable(tn.Name.L)
			if n.AsName.L != "" {
				v.aliases[n.AsName.L] = tn.Name.L
			}
		}
	case *sqlparse.TableName:
		// A table named outside a table source: DELETE t FROM …, the
		// target of a multi-table delete.
		if !v.ctes[n.Name.L] {
			v.addTable(n.Name.L)
		}
	case *sqlparse.Assignment:
		v.writes[n.Column] = true
	case *sqlparse.InsertStmt:
		for _, c := range n.Columns {
			v.writes[c] = true
		}
	case *sqlparse.ColumnName:
		v.columns = append(v.columns, n)
	}
	return n, false
}

func (v *useFinder) Leave(n sqlparse.Node) (sqlparse.Node, bool) { return n, true }

func (v *useFinder) addTable(t string) {
	if _, ok := v.aliases[t]; !ok {
		v.aliases[t] = t
		v.tables = append(v.tables, t)
	}
}

// place returns the table column c belongs to; "" when guard cannot tell.
func (v *useFinder) place(c *sqlparse.ColumnName, watch Watch, s *schema.Schema) string {
	if q := c.Table.L; q != "" {
		return v.aliases[q]
	}
	if len(v.tables) == 1 {
		return v.tables[0]
	}
	// Several tables: the column is the one table's that has it, or that
	// a migration removes it from; a table guard does not know could be
	// the one.
	owner := ""
	for _, t := range v.tables {
		tab := s.Table(t)
		switch {
		case tab != nil && tab.Column(c.Name.L) != nil, watch[t][c.Name.L]:
		case tab != nil:
			continue
		default:
			return ""
		}
		if owner != "" && owner != t {
			return ""
		}
		owner = t
	}
	return owner
}

// AddModel records an ORM model type mapped to table t (lower case): the
// ORM selects, inserts and updates its columns, so each is used and
// written, and a create names exactly those columns.
func (u *Usage) AddModel(t string, columns []string, at Use) {
	tu := u.table(t)
	tu.all.add(at)
	named := map[string]bool{}
	for _, c := range columns {
		c = strings.ToLower(c)
		named[c] = true
		tu.column(c).add(at)
		tu.writes(c).add(at)
	}
	if len(tu.inserts) < maxInserts {
		tu.inserts = append(tu.inserts, insertUse{Use: at, columns: named})
	}
}
