package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/internal/schema"
	"github.com/guard-sql/guard/internal/sqlparse"
	"github.com/guard-sql/guard/lint"
)

// testSchema is a small shop: inventory with a version, orders without one.
func testSchema() *schema.Schema {
	s := schema.New()
	s.Add(&schema.Table{Name: "t_inventory", Columns: []*schema.Column{
		{Name: "id", Type: "bigint"},
		{Name: "inventory", Type: "int", Unsigned: true},
		{Name: "status", Type: "varchar"},
		{Name: "version", Type: "bigint"},
	}})
	s.Add(&schema.Table{Name: "t_order", Columns: []*schema.Column{
		{Name: "id", Type: "bigint"},
		{Name: "product_id", Type: "bigint"},
		{Name: "quantity", Type: "int"},
		{Name: "status", Type: "varchar"},
	}})
	return s
}

// parseWrite parses sql and returns its write shape against testSchema.
func parseWrite(t *testing.T, sql string) *write {
	t.Helper()
	node, err := sqlparse.NewParser().Parse(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	w := writeTargets(&lint.Statement{SQL: sql, Node: node}, testSchema())
	if w == nil {
		t.Fatalf("%q: not a write", sql)
	}
	return w
}

// firstAssignment returns the first SET item of w.
func firstAssignment(t *testing.T, w *write) assignment {
	t.Helper()
	as := w.assignments()
	if len(as) == 0 {
		t.Fatal("no assignment")
	}
	return as[0]
}

func TestWriteTargets(t *testing.T) {
	type tgt struct {
		Name, DB, Alias string
		Known           bool
	}
	type shape struct {
		Kind    string
		Targets []tgt
		Where   bool
		On      int
		Set     int
		Upsert  bool
	}
	tests := []struct {
		sql  string
		want shape
	}{
		{"UPDATE t_inventory SET inventory = 1 WHERE id = ?",
			shape{"UPDATE", []tgt{{"t_inventory", "", "", true}}, true, 0, 1, false}},
		{"UPDATE shop.t_inventory AS s SET s.inventory = 1",
			shape{"UPDATE", []tgt{{"t_inventory", "shop", "s", true}}, false, 0, 1, false}},
		{"UPDATE t_order o JOIN t_inventory s ON s.id = o.product_id SET s.inventory = s.inventory - o.quantity WHERE o.id = ?",
			shape{"UPDATE", []tgt{{"t_order", "", "o", true}, {"t_inventory", "", "s", true}}, true, 1, 1, false}},
		{"UPDATE t_order o LEFT JOIN t_inventory s ON s.id = o.product_id SET o.status = 'x'",
			shape{"UPDATE", []tgt{{"t_order", "", "o", true}, {"t_inventory", "", "s", true}}, false, 0, 1, false}},
		{"DELETE FROM t_unknown WHERE id = 1",
			shape{"DELETE", []tgt{{"t_unknown", "", "", false}}, true, 0, 0, false}},
		{"DELETE o FROM t_order o, t_inventory s WHERE o.product_id = s.id",
			shape{"DELETE", []tgt{{"t_order", "", "o", true}, {"t_inventory", "", "s", true}}, true, 0, 0, false}},
		{"INSERT INTO t_inventory (id, inventory) VALUES (?, ?) ON DUPLICATE KEY UPDATE inventory = inventory - 1",
			shape{"INSERT", []tgt{{"t_inventory", "", "", true}}, false, 0, 1, true}},
		{"REPLACE INTO t_order (id) VALUES (1)",
			shape{"INSERT", []tgt{{"t_order", "", "", true}}, false, 0, 0, false}},
	}
	for _, tt := range tests {
		w := parseWrite(t, tt.sql)
		got := shape{Kind: w.kind.String(), Where: w.where != nil, On: len(w.on), Set: len(w.set), Upsert: w.upsert}
		for _, x := range w.targets {
			got.Targets = append(got.Targets, tgt{x.name, x.db, x.alias, x.table != nil})
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.sql, d)
		}
	}
}

func TestWriteTargetsNotAWrite(t *testing.T) {
	for _, sql := range []string{"SELECT 1", "CREATE TABLE t (id INT)"} {
		node, err := sqlparse.NewParser().Parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		if w := writeTargets(&lint.Statement{Node: node}, nil); w != nil {
			t.Errorf("%s: got a write", sql)
		}
	}
	if w := writeTargets(&lint.Statement{}, nil); w != nil {
		t.Error("unparsed statement: got a write")
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		sql  string
		want string // table the first assigned column resolves to; "" for none
	}{
		{"UPDATE t_inventory SET inventory = 1", "t_inventory"},
		{"UPDATE t_inventory s SET s.inventory = 1", "t_inventory"},
		{"UPDATE shop.t_inventory SET shop.t_inventory.inventory = 1", "t_inventory"},
		{"UPDATE t_inventory s SET t_inventory.inventory = 1", ""}, // an aliased table is only named by its alias
		{"UPDATE t_order o JOIN t_inventory s ON s.id = o.product_id SET inventory = 1", "t_inventory"},
		{"UPDATE t_order o JOIN t_inventory s ON s.id = o.product_id SET status = 1", ""}, // ambiguous
		{"UPDATE t_order o JOIN t_other x ON x.id = o.id SET balance = 1", "t_other"},     // only unknown table
		{"UPDATE t_a a JOIN t_b b ON a.id = b.id SET balance = 1", ""},
	}
	for _, tt := range tests {
		w := parseWrite(t, tt.sql)
		a := firstAssignment(t, w)
		if got := a.col.t.tableName(); got != tt.want {
			t.Errorf("%s: resolved to %q, want %q", tt.sql, got, tt.want)
		}
	}
}

func TestConjuncts(t *testing.T) {
	tests := []struct {
		where string
		want  []string
	}{
		{"a = 1", []string{"`a`=1"}},
		{"a = 1 AND (b = 2 AND c > 3)", []string{"`a`=1", "`b`=2", "`c`>3"}},
		{"(a = 1 OR b = 2) AND c = 3", []string{"`a`=1 OR `b`=2", "`c`=3"}},
		{"((a = 1)) && b = 2", []string{"`a`=1", "`b`=2"}},
	}
	for _, tt := range tests {
		w := parseWrite(t, "DELETE FROM t WHERE "+tt.where)
		var got []string
		for _, c := range conjuncts(w.where) {
			got = append(got, exprText(c))
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.where, d)
		}
	}
	if conjuncts(nil) != nil {
		t.Error("conjuncts(nil) is not empty")
	}
}

func TestDecrementOf(t *testing.T) {
	tests := []struct {
		set    string
		amount string // "" when not a decrement
	}{
		{"inventory = inventory - ?", "?"},
		{"inventory = inventory - 2", "2"},
		{"inventory = (inventory - (?))", "?"},
		{"inventory = inventory + -1", "1"},
		{"inventory = inventory + (-?)", "?"},
		{"inventory = inventory - o.quantity", "`o`.`quantity`"},
		{"inventory = inventory + 1", ""},
		{"inventory = inventory - 0", ""},
		{"inventory = inventory - -1", ""},
		{"inventory = ? - inventory", ""},
		{"inventory = status - 1", ""},
		{"inventory = GREATEST(inventory - 1, 0)", ""},
	}
	for _, tt := range tests {
		w := parseWrite(t, "UPDATE t_inventory SET "+tt.set)
		a := firstAssignment(t, w)
		amount, ok := decrementOf(a.col, a.expr)
		got := ""
		if ok {
			got = exprText(amount)
		}
		if got != tt.amount {
			t.Errorf("%s: amount %q, want %q", tt.set, got, tt.amount)
		}
	}
}

func TestGuardsAtLeast(t *testing.T) {
	tests := []struct {
		set, where string
		want       bool
	}{
		{"inventory - ?", "id = ? AND inventory >= ?", true},
		{"inventory - ?", "id = ? AND ? <= inventory", true},
		{"inventory - ?", "id = ? AND inventory - ? >= 0", true},
		{"inventory - ?", "id = ? AND 0 <= inventory - ?", true},
		{"inventory - ?", "id = ? AND inventory - ? > -1", true},
		{"inventory - ?", "id = ? AND (inventory >= ?)", true},
		{"inventory - ?", "inventory BETWEEN ? AND 100", true},
		{"inventory - ?", "inventory NOT BETWEEN ? AND 100", false},
		{"inventory - ?", "id = ?", false},
		{"inventory - ?", "id = ? AND inventory > 0", false},
		{"inventory - ?", "id = ? AND inventory > ?", false},
		{"inventory - ?", "id = ? OR inventory >= ?", false},
		{"inventory - ?", "id = ? AND (inventory >= ? OR id = 2)", false},
		{"inventory - ?", "id = ? AND status >= ?", false},
		{"inventory - ?", "id = ? AND inventory - ? >= 1", true},
		{"inventory - ?", "id = ? AND inventory - ? > -2", false},
		{"inventory - 1", "id = ? AND inventory > 0", true},
		{"inventory - 1", "id = ? AND 0 < inventory", true},
		{"inventory - 1", "id = ? AND inventory >= 1", true},
		{"inventory - 2", "id = ? AND inventory > 0", false},
		{"inventory - 2", "id = ? AND inventory > 1", true},
		{"inventory - 2", "id = ? AND inventory >= 2", true},
		{"inventory - 2", "id = ? AND inventory >= 5", true},
		{"inventory - 2", "id = ? AND inventory >= 1", false},
		{"inventory - 2", "id = ? AND inventory - 2 >= 0", true},
		{"inventory - 2", "id = ? AND inventory - 3 >= 0", false},
		{"inventory + -1", "inventory > 0", true},
		{"inventory - o.quantity", "inventory >= o.quantity", true},
		{"inventory - o.quantity", "inventory >= o.id", false},
		{"inventory - ?", "s.inventory >= ?", true},
		{"inventory - ?", "x.inventory >= ?", false},
	}
	for _, tt := range tests {
		sql := "UPDATE t_inventory s SET inventory = " + tt.set + " WHERE " + tt.where
		w := parseWrite(t, sql)
		a := firstAssignment(t, w)
		amount, ok := decrementOf(a.col, a.expr)
		if !ok {
			t.Fatalf("%s: not a decrement", sql)
		}
		if got := guardsAtLeast(w.filters(), a.col, amount); got != tt.want {
			t.Errorf("%s: guarded %v, want %v", sql, got, tt.want)
		}
	}
}

func TestGuardsAtLeastJoinOn(t *testing.T) {
	w := parseWrite(t, "UPDATE t_order o JOIN t_inventory s ON s.id = o.product_id AND s.inventory >= o.quantity "+
		"SET s.inventory = s.inventory - o.quantity WHERE o.id = ?")
	a := firstAssignment(t, w)
	amount, _ := decrementOf(a.col, a.expr)
	if !guardsAtLeast(w.filters(), a.col, amount) {
		t.Error("guard in the ON condition of an inner join not seen")
	}
}

func TestHasVersionPredicate(t *testing.T) {
	tests := []struct {
		where string
		want  bool
	}{
		{"id = ? AND version = ?", true},
		{"? = version AND id = ?", true},
		{"id = ? AND s.version = 3", true},
		{"id = ? AND version >= ?", false},
		{"id = ? OR version = ?", false},
		{"id = ?", false},
		{"id = ? AND other.version = ?", false},
	}
	pass := &lint.Pass{Policy: policy.Default()}
	for _, tt := range tests {
		w := parseWrite(t, "UPDATE t_inventory s SET inventory = ? WHERE "+tt.where)
		v := w.versionRef(pass, w.targets[0])
		if got := hasVersionPredicate(w.filters(), v); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.where, got, tt.want)
		}
	}
}

func TestBumpsVersion(t *testing.T) {
	tests := []struct {
		set  string
		want bool
	}{
		{"inventory = ?, version = version + 1", true},
		{"version = 1 + version", true},
		{"version = (version + ?)", true},
		{"s.version = s.version + 2", true},
		{"version = version + 0", false},
		{"version = version - 1", false},
		{"version = ?", false},
		{"version = other.version + 1", false},
		{"inventory = inventory + 1", false},
	}
	pass := &lint.Pass{Policy: policy.Default()}
	for _, tt := range tests {
		w := parseWrite(t, "UPDATE t_inventory s SET "+tt.set+" WHERE id = ?")
		if got := bumpsVersion(w.assignments(), w.versionRef(pass, w.targets[0])); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.set, got, tt.want)
		}
	}
}

func TestMentionsAndRelative(t *testing.T) {
	tests := []struct {
		sql      string
		mentions bool
		relative bool
	}{
		{"UPDATE t_order SET status = ? WHERE id = ? AND status = ?", true, false},
		{"UPDATE t_order SET status = ? WHERE id = ? AND status IN ('a', 'b')", true, false},
		{"UPDATE t_order SET status = ? WHERE id = ? AND NOT (status <=> 'x')", true, false},
		{"UPDATE t_order SET status = ? WHERE id = ? OR status = ?", false, false},
		{"UPDATE t_order SET status = ? WHERE (id = ? AND status = 1) OR status = 2", true, false},
		{"UPDATE t_order SET status = ? WHERE id IN (SELECT id FROM t_x WHERE status = 1)", false, false},
		{"UPDATE t_order SET status = CONCAT(status, 'x') WHERE id = ?", false, true},
		{"UPDATE t_order SET status = (SELECT status FROM t_x) WHERE id = ?", false, false},
	}
	for _, tt := range tests {
		w := parseWrite(t, tt.sql)
		a := firstAssignment(t, w)
		if got := mentions(w.filters(), a.col); got != tt.mentions {
			t.Errorf("%s: mentions %v, want %v", tt.sql, got, tt.mentions)
		}
		if got := relativeTo(a.col, a.expr); got != tt.relative {
			t.Errorf("%s: relative %v, want %v", tt.sql, got, tt.relative)
		}
	}
}

func TestCounterStateVersioned(t *testing.T) {
	pass := &lint.Pass{Policy: policy.Default()}
	tests := []struct {
		sql                       string
		counter, state, versioned bool
	}{
		{"UPDATE t_inventory SET inventory = 1", true, false, true},
		{"UPDATE t_inventory SET status = 1", false, true, true},
		{"UPDATE t_order SET quantity = 1", true, false, false},
		{"UPDATE t_order SET balance = 1", false, false, false}, // not a column of the known table
		{"UPDATE t_unknown SET balance = 1", true, false, false},
		{"UPDATE t_unknown SET state = 1", false, true, false},
	}
	for _, tt := range tests {
		w := parseWrite(t, tt.sql)
		a := firstAssignment(t, w)
		got := []bool{isCounter(pass, a.col), isState(pass, a.col), versioned(pass, a.col.t)}
		if d := cmp.Diff([]bool{tt.counter, tt.state, tt.versioned}, got); d != "" {
			t.Errorf("%s: counter/state/versioned (-want +got):\n%s", tt.sql, d)
		}
	}
}

func TestTruth(t *testing.T) {
	tests := []struct {
		where        string
		value, known bool
	}{
		{"1", true, true},
		{"TRUE", true, true},
		{"0", false, true},
		{"1 = 1", true, true},
		{"(1 = 1)", true, true},
		{"'a' = 'a'", true, true},
		{"'a' = 'b'", false, true},
		{"'a' = 'A'", false, false},
		{"'a' <> 'b'", true, true},
		{"2 > 1", true, true},
		{"1 OR id = ?", true, true},
		{"id = ? OR 1 = 1", true, true},
		{"1 = 1 AND 2 = 2", true, true},
		{"1 = 1 AND id = ?", false, false},
		{"NOT 0", true, true},
		{"'1'", true, true},
		{"NULL", false, true},
		{"id = id", false, false},
		{"? = ?", false, false},
		{"id = ?", false, false},
		{"0 AND id = ?", false, true},
		{"id = ? AND 0", false, true},
		{"0 OR 0", false, true},
		{"0 OR id = ?", false, false},
		{"NOT (1 = 1 AND id = ?)", true, false},
		{"NOT (0 AND id = ?)", true, true},
		{"NOT (id = ? OR 1)", false, true},
		{"NOT NOT 1", true, true},
		{"1 = 1 AND (2 = 2 OR id = ?) AND NOT 0", true, true},
	}
	for _, tt := range tests {
		w := parseWrite(t, "DELETE FROM t WHERE "+tt.where)
		v, k := truth(w.where)
		if v != tt.value || k != tt.known {
			t.Errorf("%s: truth (%v, %v), want (%v, %v)", tt.where, v, k, tt.value, tt.known)
		}
		for _, want := range []bool{true, false} {
			if got := proven(w.where, want); got != (k && v == want) {
				t.Errorf("%s: proven(%v) = %v, but truth is (%v, %v)", tt.where, want, got, v, k)
			}
		}
	}
}

func TestClamped(t *testing.T) {
	tests := []struct {
		set  string
		want bool
	}{
		{"GREATEST(inventory - ?, 0)", true},
		{"GREATEST(0, inventory - ?)", true},
		{"IF(inventory >= ?, inventory - ?, 0)", true},
		{"IF(inventory - ? < 0, 0, inventory - ?)", true},
		{"CASE WHEN inventory >= ? THEN inventory - ? ELSE 0 END", true},
		{"inventory - LEAST(inventory, ?)", true},
		{"(GREATEST((inventory - 1), 0))", true},
		{"inventory - ?", false},
		{"GREATEST(quantity - ?, 0)", false},
		{"IF(inventory >= ?, inventory - ?, inventory)", false},
		{"IFNULL(inventory - ?, 0)", false},
		{"GREATEST(?, 0)", false},
	}
	for _, tt := range tests {
		w := parseWrite(t, "UPDATE t_inventory SET inventory = "+tt.set)
		a := firstAssignment(t, w)
		if _, got := clampedDecrement(a.col, a.expr); got != tt.want {
			t.Errorf("%s: clamped %v, want %v", tt.set, got, tt.want)
		}
	}
}

// TestDecrements checks the shared decrement analysis: the arms of a SET
// item, each with its amount, clamp and guard.
func TestDecrements(t *testing.T) {
	type arm struct {
		Amount  string // "" for no amount
		Clamp   string // "" for an arm that fails rather than clamps
		Guarded bool
	}
	type dec struct {
		Col   string
		Batch bool
		Arms  []arm
	}
	tests := []struct {
		sql  string
		want []dec
	}{
		{"UPDATE t_inventory SET inventory = inventory - ? WHERE id = ?",
			[]dec{{"inventory", false, []arm{{"?", "", false}}}}},
		{"UPDATE t_inventory SET inventory = inventory - ? WHERE id = ? AND inventory >= ?",
			[]dec{{"inventory", false, []arm{{"?", "", true}}}}},
		{"UPDATE t_inventory SET inventory = GREATEST(inventory - ?, 0) WHERE id = ?",
			[]dec{{"inventory", false, []arm{{"?", "GREATEST(`inventory`-?, 0)", false}}}}},
		{"UPDATE t_inventory SET inventory = inventory - LEAST(inventory, 2) WHERE id = ?",
			[]dec{{"inventory", false, []arm{{"LEAST(`inventory`, 2)", "`inventory`-LEAST(`inventory`, 2)", false}}}}},
		// The plain IF that keeps the column is not a decrement of one row.
		{"UPDATE t_inventory SET inventory = IF(inventory >= ?, inventory - ?, inventory) WHERE id = ?", nil},
		{"UPDATE t_inventory SET inventory = inventory + ? WHERE id = ?", nil},
		// Batches: one arm per lowering branch; increments, ELSE c and
		// absolute branches are none.
		{"UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? WHEN ? THEN inventory + ? WHEN ? THEN 3 ELSE inventory END WHERE id IN (?, ?, ?)",
			[]dec{{"inventory", true, []arm{{"?", "", false}}}}},
		{"UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - 1 WHEN ? THEN inventory - 2 END WHERE id IN (?, ?) AND inventory > 0",
			[]dec{{"inventory", true, []arm{{"1", "", true}, {"2", "", false}}}}},
		{"UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory - ? WHEN ? THEN inventory - ? END WHERE id IN (?, ?) AND inventory >= CASE id WHEN ? THEN ? WHEN ? THEN ? END",
			[]dec{{"inventory", true, []arm{{"?", "", true}, {"?", "", true}}}}},
		{"UPDATE t_inventory SET inventory = CASE id WHEN 1 THEN inventory - 2 WHEN 2 THEN inventory - 3 END WHERE id IN (1, 2) AND inventory >= CASE id WHEN 1 THEN 2 WHEN 2 THEN 1 END",
			[]dec{{"inventory", true, []arm{{"2", "", true}, {"3", "", false}}}}},
		{"UPDATE t_inventory SET inventory = CASE id WHEN 1 THEN inventory - 2 WHEN 2 THEN inventory - 3 END WHERE id IN (1, 2) AND inventory >= CASE id WHEN 2 THEN 2 WHEN 1 THEN 3 END",
			[]dec{{"inventory", true, []arm{{"2", "", false}, {"3", "", false}}}}},
		{"UPDATE t_inventory SET inventory = CASE id WHEN ? THEN inventory ELSE inventory - ? END WHERE id = ? AND inventory >= CASE id WHEN ? THEN ? END",
			[]dec{{"inventory", true, []arm{{"?", "", true}}}}},
		{"UPDATE t_inventory SET inventory = CASE WHEN id = ? THEN inventory - ? END WHERE id IN (?) AND CASE WHEN id = ? THEN inventory - ? >= 0 END",
			[]dec{{"inventory", true, []arm{{"?", "", true}}}}},
		{"UPDATE t_inventory SET inventory = CASE id WHEN ? THEN IF(inventory >= ?, inventory - ?, inventory) END WHERE id IN (?)",
			[]dec{{"inventory", true, []arm{{"?", "IF(`inventory`>=?, `inventory`-?, `inventory`)", false}}}}},
		{"UPDATE t_inventory SET inventory = CASE WHEN id = ? AND inventory >= ? THEN inventory - ? ELSE inventory END WHERE id IN (?)",
			[]dec{{"inventory", true, []arm{{"?", "`id`=? AND `inventory`>=?", false}}}}},
		{"UPDATE t_inventory SET inventory = CASE WHEN id = ? AND inventory >= ? THEN inventory - ? END WHERE id IN (?)", nil},
		// A CASE on the column itself is a clamp of one row, not a batch.
		{"UPDATE t_inventory SET inventory = CASE WHEN inventory >= ? THEN inventory - ? ELSE 0 END WHERE id = ?",
			[]dec{{"inventory", false, []arm{{"?", "CASE WHEN `inventory`>=? THEN `inventory`-? ELSE 0 END", false}}}}},
		{"UPDATE t_inventory SET inventory = CASE inventory WHEN 0 THEN 0 ELSE inventory - 1 END WHERE id = ?",
			[]dec{{"inventory", false, []arm{{"1", "CASE `inventory` WHEN 0 THEN 0 ELSE `inventory`-1 END", false}}}}},
		// Upserts: the filters of an INSERT guard nothing.
		{"INSERT INTO t_inventory (id, inventory) VALUES (?, ?) ON DUPLICATE KEY UPDATE inventory = inventory - 1",
			[]dec{{"inventory", false, []arm{{"1", "", false}}}}},
	}
	for _, tt := range tests {
		w := parseWrite(t, tt.sql)
		var got []dec
		for _, d := range w.decrements() {
			g := dec{Col: d.col.name, Batch: d.batch != nil}
			for _, a := range d.arms {
				g.Arms = append(g.Arms, arm{exprText(a.amount), exprText(a.clamp), a.guarded})
			}
			got = append(got, g)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.sql, diff)
		}
	}
}
