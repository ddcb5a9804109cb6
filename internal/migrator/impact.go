package migrator

import (
	"fmt"
	"slices"
	"strings"

	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
)

// ExactCountBelow is the table size (information_schema's estimate, in
// rows) under which the rows of a table are counted exactly: a COUNT(*) of
// that many rows takes well under a second, and the estimate of InnoDB can
// be far off, most of all right after a bulk load.
const ExactCountBelow = 1_000_000

// Impact is what one pending statement will do to the server: the
// algorithm and lock it runs with, whether writes to its table wait for it,
// how big the table is, and the preflight's verdict on it.
type Impact struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Table is the table the statement changes; empty for a statement on
	// the server or the database (SET, a routine).
	Table string `json:"table,omitempty"`
	// Statement is the statement on one line, shortened.
	Statement string `json:"statement"`
	// Algorithm is INSTANT, INPLACE, COPY, or "-" (not an ALTER).
	Algorithm string `json:"algorithm"`
	// Lock is NONE, SHARED, EXCLUSIVE, or "-" (not an ALTER).
	Lock string `json:"lock"`
	// BlocksWrites is set when writes to the table wait for the whole
	// statement.
	BlocksWrites bool `json:"blocks_writes"`
	// Why says what decides the algorithm: "ADD CHECK validates every row".
	Why string `json:"why,omitempty"`
	// ServerRefuses is set when the server refuses the statement as
	// written: its explicit ALGORITHM or LOCK asks for less than the
	// operation needs.
	ServerRefuses string `json:"server_refuses,omitempty"`
	// Tool is the program that runs the file instead (pt-online-schema-change).
	Tool string `json:"tool,omitempty"`
	// Rows is the table's row count, -1 when the table does not exist
	// (yet); RowsExact tells a COUNT(*) from information_schema's estimate.
	Rows      int64 `json:"rows"`
	RowsExact bool  `json:"rows_exact"`
	// Bytes is the table's data and indexes (DATA_LENGTH + INDEX_LENGTH).
	Bytes int64 `json:"bytes"`
	// SizeStale is set when the exact count is far above the estimate:
	// the statistics Bytes comes from are out of date (a bulk load since
	// the last ANALYZE TABLE), and the table is bigger than Bytes says.
	SizeStale bool `json:"size_stale,omitempty"`
	// Preflight is the preflight's verdict on the statement's guards and
	// narrowings: "ok", "FAIL: …", "not checked: …", "-" when there is
	// nothing to count.
	Preflight string `json:"preflight"`
}

// cost is what an operation needs at least: an algorithm and a lock rank
// (see algorithms and locks), and what decides them.
type cost struct {
	alg, lock int
	why       string
}

var (
	algorithms = []string{schema.AlgorithmInstant, schema.AlgorithmInplace, schema.AlgorithmCopy}
	locks      = []string{schema.LockNone, schema.LockShared, schema.LockExclusive}
)

const (
	algInstant = iota
	algInplace
	algCopy
)

const (
	lockNone = iota
	lockShared
	lockExclusive
)

// worse keeps the more expensive of two costs, and the reason of the one
// that decides.
func (c cost) worse(o cost) cost {
	out := c
	if o.alg > c.alg || (o.alg == c.alg && o.lock > c.lock) {
		out = o
	}
	out.lock = max(c.lock, o.lock)
	return out
}

// impacts describes every statement of the steps: stmts are the parsed
// statements, osc the files handed to pt-online-schema-change, live the
// schema before the run, sizes the tables' rows and bytes.
func impacts(srv schema.Server, database string, stmts []Stmt, osc map[string]*oscPlan, live *schema.Schema, sizes map[string]tableSize) []Impact {
	out := make([]Impact, 0, len(stmts))
	for i := range stmts {
		s := &stmts[i]
		im := statementImpact(srv, database, s, live)
		im.Rows = -1
		if im.Table != "" {
			if sz, ok := sizes[strings.ToLower(im.Table)]; ok {
				im.Rows, im.RowsExact, im.Bytes, im.SizeStale = sz.rows, sz.exact, sz.bytes, sz.stale
			}
		}
		if p := osc[s.File]; p != nil {
			im.Tool = PTOSCBinary
			im.Algorithm, im.Lock, im.BlocksWrites, im.ServerRefuses = schema.AlgorithmCopy, schema.LockNone, false, ""
			im.Why = "the rows are copied in chunks behind triggers while writes go on"
			if p.PreserveTriggers {
				im.Why += " (--preserve-triggers: the table's own triggers are kept)"
			}
		}
		out = append(out, im)
	}
	return out
}

// statementImpact is the algorithm and lock of one statement.
func statementImpact(srv schema.Server, database string, s *Stmt, live *schema.Schema) Impact {
	im := Impact{File: s.File, Line: s.Line, Column: s.Col, Statement: shorten(s.SQL), Algorithm: schema.AlgorithmNone, Lock: schema.AlgorithmNone}
	inDB := func(tn *sqlparse.TableName) bool {
		return tn != nil && (tn.Schema.O == "" || strings.EqualFold(tn.Schema.O, database))
	}
	if s.Program != nil {
		im.Table = s.Program.Table
		im.Why = "a metadata change: a moment's exclusive metadata lock"
		return im
	}
	switch n := s.Node.(type) {
	case *sqlparse.AlterTableStmt:
		if !inDB(n.Table) {
			im.Why = "a table of another database"
			return im
		}
		im.Table = n.Table.Name.O
		var t *schema.Table
		if live != nil {
			t = live.Table(im.Table)
		}
		need, alg, lock := alterCost(srv, n, t)
		im.settle(srv, need, alg, lock)
	case *sqlparse.CreateIndexStmt:
		if !inDB(n.Table) {
			return im
		}
		im.Table = n.Table.Name.O
		alg, lock := sqlparse.AlgorithmTypeDefault, sqlparse.LockTypeDefault
		if n.LockAlg != nil {
			alg, lock = n.LockAlg.AlgorithmTp, n.LockAlg.LockTp
		}
		im.settle(srv, indexCost(srv, n.KeyType), alg, lock)
	case *sqlparse.DropIndexStmt:
		if inDB(n.Table) {
			im.Table = n.Table.Name.O
		}
		alg, lock := sqlparse.AlgorithmTypeDefault, sqlparse.LockTypeDefault
		if n.LockAlg != nil {
			alg, lock = n.LockAlg.AlgorithmTp, n.LockAlg.LockTp
		}
		im.settle(srv, cost{algInplace, lockNone, "DROP INDEX changes metadata only"}, alg, lock)
	case *sqlparse.CreateTableStmt:
		if inDB(n.Table) {
			im.Table = n.Table.Name.O
		}
		im.Why = "a new table"
	case *sqlparse.DropTableStmt:
		if len(n.Tables) > 0 && inDB(n.Tables[0]) {
			im.Table = n.Tables[0].Name.O
		}
		im.Why = "drops the table: a moment's exclusive metadata lock"
	case *sqlparse.TruncateTableStmt:
		if inDB(n.Table) {
			im.Table = n.Table.Name.O
		}
		im.Why = "empties the table: a moment's exclusive metadata lock"
	case *sqlparse.RenameTableStmt:
		if len(n.TableToTables) > 0 && inDB(n.TableToTables[0].OldTable) {
			im.Table = n.TableToTables[0].OldTable.Name.O
		}
		im.Why = "a metadata change: a moment's exclusive metadata lock"
	case *sqlparse.InsertStmt, *sqlparse.UpdateStmt, *sqlparse.DeleteStmt, *sqlparse.LoadDataStmt:
		var c tableCollector
		s.Node.Accept(&c)
		for _, tn := range c.tables {
			if inDB(tn) {
				im.Table = tn.Name.O
				break
			}
		}
		im.Why = "DML: row locks on the rows it writes, held until it ends"
	}
	return im
}

// settle chooses the algorithm and lock of an ALTER from what the
// operation needs and the explicit ALGORITHM and LOCK clauses: a clause
// asking for less than the operation needs makes the server refuse the
// statement (the error it gives is ServerRefuses); one asking for more is
// obeyed.
func (im *Impact) settle(srv schema.Server, need cost, alg sqlparse.AlgorithmType, lock sqlparse.LockType) {
	a := need.alg
	im.Why = need.why
	if want, ok := explicitAlgorithm(alg); ok {
		if want < need.alg {
			im.ServerRefuses = fmt.Sprintf("ALGORITHM=%s is not supported for this operation (%s needs %s)", algorithms[want], need.why, algorithms[need.alg])
		} else {
			a = want
			if want > need.alg {
				im.Why = fmt.Sprintf("ALGORITHM=%s asks for it (%s could be %s)", algorithms[want], need.why, algorithms[need.alg])
			}
		}
	}
	// The least lock the algorithm allows: a copy always blocks writes.
	l := need.lock
	if a == algCopy {
		l = max(l, lockShared)
	}
	if want, ok := explicitLock(lock); ok {
		switch {
		case a == algInstant && srv.RejectsLockWithInstant() && alg == sqlparse.AlgorithmTypeInstant:
			if im.ServerRefuses == "" {
				im.ServerRefuses = fmt.Sprintf("%s accepts no LOCK=%s clause with ALGORITHM=INSTANT", srv.Flavor, locks[want])
			}
		case a == algInstant && srv.RejectsLockWithInstant():
			// Without ALGORITHM=INSTANT, a LOCK clause makes MySQL choose
			// INPLACE, which takes one.
			a = algInplace
			l = max(l, want)
		case want < l:
			if im.ServerRefuses == "" {
				im.ServerRefuses = fmt.Sprintf("LOCK=%s is not supported with ALGORITHM=%s (%s)", locks[want], algorithms[a], need.why)
			}
		default:
			l = want
		}
	}
	im.Algorithm, im.Lock = algorithms[a], locks[l]
	if a == algInstant {
		l = lockNone
		im.Lock = schema.LockNone
	}
	im.BlocksWrites = im.ServerRefuses == "" && l >= lockShared
}

func explicitAlgorithm(a sqlparse.AlgorithmType) (int, bool) {
	switch a {
	case sqlparse.AlgorithmTypeInstant:
		return algInstant, true
	case sqlparse.AlgorithmTypeInplace:
		return algInplace, true
	case sqlparse.AlgorithmTypeCopy:
		return algCopy, true
	}
	return 0, false
}

func explicitLock(l sqlparse.LockType) (int, bool) {
	switch l {
	case sqlparse.LockTypeNone:
		return lockNone, true
	case sqlparse.LockTypeShared:
		return lockShared, true
	case sqlparse.LockTypeExclusive:
		return lockExclusive, true
	}
	return 0, false
}

// alterCost is what the specifications of an ALTER TABLE need together,
// and its explicit ALGORITHM and LOCK clauses. t is the live table, nil
// when it does not exist (yet).
func alterCost(srv schema.Server, n *sqlparse.AlterTableStmt, t *schema.Table) (cost, sqlparse.AlgorithmType, sqlparse.LockType) {
	alg, lock := sqlparse.AlgorithmTypeDefault, sqlparse.LockTypeDefault
	addsPrimary := false
	for _, sp := range n.Specs {
		if sp.Tp == sqlparse.AlterTableAddConstraint && sp.Constraint != nil && sp.Constraint.Tp == sqlparse.ConstraintPrimaryKey {
			addsPrimary = true
		}
	}
	total := cost{algInstant, lockNone, "a metadata change"}
	first := true
	add := func(c cost) {
		if first {
			total, first = c, false
			return
		}
		total = total.worse(c)
	}
	for _, sp := range n.Specs {
		switch sp.Tp {
		case sqlparse.AlterTableAlgorithm:
			alg = sp.Algorithm
			continue
		case sqlparse.AlterTableLock:
			lock = sp.LockType
			continue
		}
		add(specCost(srv, sp, t, addsPrimary))
	}
	return total, alg, lock
}

// specCost is what one ALTER TABLE specification needs on srv.
func specCost(srv schema.Server, sp *sqlparse.AlterTableSpec, t *schema.Table, addsPrimary bool) cost {
	unknown := cost{algCopy, lockShared, "guard does not know what this operation needs: counted as a table copy"}
	switch sp.Tp {
	case sqlparse.AlterTableAddConstraint:
		c := sp.Constraint
		if c == nil {
			return unknown
		}
		switch c.Tp {
		case sqlparse.ConstraintCheck:
			if !c.Enforced {
				return cost{algInplace, lockNone, "ADD CHECK ... NOT ENFORCED changes metadata only"}
			}
			if srv.AddCheckNeedsCopy() {
				return cost{algCopy, lockShared, "ADD CHECK validates every row"}
			}
			return unknown
		case sqlparse.ConstraintPrimaryKey:
			return cost{algInplace, lockNone, "ADD PRIMARY KEY rebuilds the table in place"}
		case sqlparse.ConstraintForeignKey:
			return cost{algCopy, lockShared, "ADD FOREIGN KEY with foreign_key_checks on validates every row"}
		case sqlparse.ConstraintFulltext:
			return indexCost(srv, sqlparse.IndexKeyTypeFulltext)
		case sqlparse.ConstraintUniq, sqlparse.ConstraintUniqKey, sqlparse.ConstraintUniqIndex:
			return indexCost(srv, sqlparse.IndexKeyTypeUnique)
		case sqlparse.ConstraintIndex, sqlparse.ConstraintKey:
			if c.Option != nil && c.Option.Tp == sqlparse.IndexTypeRtree {
				return indexCost(srv, sqlparse.IndexKeyTypeSpatial)
			}
			return indexCost(srv, sqlparse.IndexKeyTypeNone)
		}
		return unknown
	case sqlparse.AlterTableAddColumns:
		out := cost{algInstant, lockNone, "ADD COLUMN"}
		for i, def := range sp.NewColumns {
			c := addColumnCost(srv, def, sp.Position)
			if i == 0 {
				out = c
			} else {
				out = out.worse(c)
			}
		}
		return out
	case sqlparse.AlterTableDropColumn:
		if srv.SupportsInstantDropColumn() {
			return cost{algInstant, lockNone, "DROP COLUMN"}
		}
		return cost{algInplace, lockNone, "DROP COLUMN rebuilds the table in place"}
	case sqlparse.AlterTableModifyColumn, sqlparse.AlterTableChangeColumn:
		return modifyCost(srv, sp, t)
	case sqlparse.AlterTableAlterColumn:
		return cost{algInstant, lockNone, "SET/DROP DEFAULT changes metadata only"}
	case sqlparse.AlterTableRenameColumn, sqlparse.AlterTableRenameIndex, sqlparse.AlterTableRenameTable, sqlparse.AlterTableIndexInvisible:
		return cost{algInplace, lockNone, "a rename changes metadata only"}
	case sqlparse.AlterTableDropIndex, sqlparse.AlterTableDropForeignKey, sqlparse.AlterTableDropCheck:
		return cost{algInplace, lockNone, "dropping an index or constraint changes metadata only"}
	case sqlparse.AlterTableAlterCheck:
		if sp.Constraint != nil && sp.Constraint.Enforced {
			return cost{algCopy, lockShared, "ALTER CHECK ... ENFORCED validates every row"}
		}
		return cost{algInplace, lockNone, "ALTER CHECK ... NOT ENFORCED changes metadata only"}
	case sqlparse.AlterTableDropPrimaryKey:
		if addsPrimary {
			return cost{algInplace, lockNone, "replacing the primary key rebuilds the table in place"}
		}
		return cost{algCopy, lockShared, "DROP PRIMARY KEY without a new one copies the table"}
	case sqlparse.AlterTableForce:
		return cost{algInplace, lockNone, "FORCE rebuilds the table in place"}
	case sqlparse.AlterTableOption:
		out := cost{algInplace, lockNone, "a table option changes metadata only"}
		for _, o := range sp.Options {
			switch {
			case o.Tp == sqlparse.TableOptionEngine:
				if t != nil && strings.EqualFold(engineOf(t), o.StrValue) {
					out = out.worse(cost{algInplace, lockNone, "ENGINE=" + o.StrValue + " (the same engine) rebuilds the table in place"})
				} else {
					out = out.worse(cost{algCopy, lockShared, "ENGINE=" + o.StrValue + " copies the table into the new engine"})
				}
			case o.Tp == sqlparse.TableOptionCharset && o.UintValue == sqlparse.TableOptionCharsetWithConvertTo:
				out = out.worse(cost{algCopy, lockShared, "CONVERT TO CHARACTER SET rewrites every row"})
			}
		}
		return out
	}
	return unknown
}

func engineOf(t *schema.Table) string {
	if t.Engine == "" {
		return "InnoDB"
	}
	return t.Engine
}

// indexCost is what adding an index of kind needs: InnoDB builds B-tree
// indexes online; a FULLTEXT or SPATIAL index lets reads go on only.
func indexCost(srv schema.Server, kind sqlparse.IndexKeyType) cost {
	switch kind {
	case sqlparse.IndexKeyTypeFulltext:
		return cost{algInplace, lockShared, "ADD FULLTEXT INDEX builds in place, with writes blocked"}
	case sqlparse.IndexKeyTypeSpatial:
		return cost{algInplace, lockShared, "ADD SPATIAL INDEX builds in place, with writes blocked"}
	}
	what := "ADD INDEX"
	if kind == sqlparse.IndexKeyTypeUnique {
		what = "ADD UNIQUE"
	}
	if srv.BuildsIndexOnline() {
		return cost{algInplace, lockNone, what + " builds the index online"}
	}
	return cost{algCopy, lockShared, what + " copies the table on this server"}
}

// addColumnCost is what adding the column def at pos needs.
func addColumnCost(srv schema.Server, def *sqlparse.ColumnDef, pos *sqlparse.ColumnPosition) cost {
	name := "ADD COLUMN " + def.Name.Name.O
	for _, o := range def.Options {
		switch o.Tp {
		case sqlparse.ColumnOptionCheck:
			if o.Enforced {
				return cost{algCopy, lockShared, name + " with a CHECK validates every row"}
			}
		case sqlparse.ColumnOptionAutoIncrement:
			return cost{algInplace, lockShared, name + " AUTO_INCREMENT rebuilds the table with writes blocked"}
		case sqlparse.ColumnOptionPrimaryKey, sqlparse.ColumnOptionUniqKey:
			return cost{algInplace, lockNone, name + " with a key rebuilds the table in place"}
		case sqlparse.ColumnOptionGenerated:
			if o.Stored {
				return cost{algCopy, lockShared, name + " STORED computes every row"}
			}
		}
	}
	placed := pos != nil && pos.Tp != sqlparse.ColumnPositionNone
	switch {
	case srv.SupportsInstantAddColumn() && (!placed || srv.SupportsInstantAddColumnAnywhere()):
		return cost{algInstant, lockNone, name}
	case placed && srv.SupportsInstantAddColumn():
		return cost{algInplace, lockNone, name + " FIRST/AFTER rebuilds the table in place on this server"}
	}
	return cost{algInplace, lockNone, name + " rebuilds the table in place"}
}

// modifyCost is what MODIFY or CHANGE COLUMN needs: a type change copies
// the table; the same type with another nullability rebuilds it in place;
// a rename, default or comment changes metadata.
func modifyCost(srv schema.Server, sp *sqlparse.AlterTableSpec, t *schema.Table) cost {
	if len(sp.NewColumns) == 0 {
		return cost{algCopy, lockShared, "MODIFY COLUMN"}
	}
	def := sp.NewColumns[0]
	old := def.Name.Name.O
	if sp.OldColumnName != nil {
		old = sp.OldColumnName.Name.O
	}
	verb := "MODIFY " + def.Name.Name.O
	if sp.Tp == sqlparse.AlterTableChangeColumn {
		verb = "CHANGE " + old
	}
	if sqlparse.HasEnforcedCheck(def) {
		return cost{algCopy, lockShared, verb + " with a CHECK validates every row"}
	}
	var col *schema.Column
	if t != nil {
		col = t.Column(old)
	}
	if col == nil {
		return cost{algCopy, lockShared, verb + ": the column's current type is unknown (counted as a type change, which copies the table)"}
	}
	was, now := liveType(col), sqlparse.TypeOfColumn(def)
	if !sameType(was, now) {
		if lengthensVarchar(was, now) {
			return cost{algInplace, lockNone, verb + " lengthens a VARCHAR within its length prefix"}
		}
		if srv.ChangesColumnTypeByCopy() {
			return cost{algCopy, lockShared, fmt.Sprintf("%s changes the type from %s to %s", verb, col.ColumnType, typeName(now))}
		}
	}
	if col.Nullable == declaresNotNull(def) {
		return cost{algInplace, lockNone, verb + " changes NULL/NOT NULL: rebuilds the table in place"}
	}
	return cost{algInplace, lockNone, verb + " changes metadata only"}
}

// intTypes are the integer types, whose length is a display width.
var intTypes = map[string]bool{"tinyint": true, "smallint": true, "mediumint": true, "int": true, "bigint": true}

// sameType reports whether a definition keeps the column's type. Integer
// display widths do not count; a length or scale not written takes the
// type's default, which is not compared.
func sameType(was, now sqlparse.ColumnType) bool {
	if was.Name != now.Name || was.Unsigned != now.Unsigned {
		return false
	}
	if intTypes[was.Name] {
		return true
	}
	if was.Name == "enum" || was.Name == "set" {
		return slices.Equal(was.Elems, now.Elems)
	}
	if now.Length >= 0 && was.Length >= 0 && now.Length != was.Length {
		return false
	}
	return now.Scale < 0 || was.Scale < 0 || now.Scale == was.Scale
}

// lengthensVarchar reports whether a VARCHAR grows without its length
// prefix growing from one byte to two, which InnoDB does in place: sure
// when the new length fits 255 bytes in any character set (63 characters
// of 4 bytes), or when the old one needed two bytes in any.
func lengthensVarchar(was, now sqlparse.ColumnType) bool {
	if was.Name != "varchar" || now.Name != "varchar" || now.Length <= was.Length || was.Length < 0 {
		return false
	}
	return now.Length*4 <= 255 || was.Length > 255
}

// typeName prints a parsed type: "varchar(10)", "int unsigned", "enum('a','b')".
func typeName(ct sqlparse.ColumnType) string {
	s := ct.Name
	switch {
	case ct.Length >= 0 && ct.Scale >= 0 && !intTypes[ct.Name]:
		s += fmt.Sprintf("(%d,%d)", ct.Length, ct.Scale)
	case ct.Name == "enum" || ct.Name == "set":
		quoted := make([]string, len(ct.Elems))
		for i, e := range ct.Elems {
			quoted[i] = sqlparse.QuoteString(e)
		}
		s += "(" + strings.Join(quoted, ",") + ")"
	case ct.Length >= 0 && !intTypes[ct.Name]:
		s += fmt.Sprintf("(%d)", ct.Length)
	}
	if ct.Unsigned {
		s += " unsigned"
	}
	return s
}

// shorten puts a statement on one line of at most 100 characters.
func shorten(sql string) string {
	s := strings.Join(strings.Fields(sql), " ")
	s = strings.TrimSuffix(s, ";")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:97]) + "..."
	}
	return s
}
