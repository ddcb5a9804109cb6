package drill

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// seedColumn is a column of the scratch table that the seed must fill:
// NOT NULL without a default, or part of a unique index or business key
// (where a shared default would collide).
type seedColumn struct {
	name     string
	dataType string // information_schema DATA_TYPE, lower case
	maxChars int64  // CHARACTER_MAXIMUM_LENGTH; 0 when not a string
	unique   bool
}

// queryColumns reads what the seed needs of each column; the schema model
// does not keep generated columns nor string lengths.
const queryColumns = `SELECT COLUMN_NAME, LOWER(DATA_TYPE), IS_NULLABLE, COLUMN_DEFAULT IS NULL, EXTRA, COALESCE(CHARACTER_MAXIMUM_LENGTH, 0)
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?
ORDER BY ORDINAL_POSITION`

// seedColumns lists the columns of the scratch table, other than the key,
// the counter and the version, that the seed gives a value.
func (s *scratch) seedColumns(ctx context.Context) ([]seedColumn, error) {
	rows, err := s.db.QueryContext(ctx, queryColumns, s.table)
	if err != nil {
		return nil, fmt.Errorf("read the columns of %s: %w", s.table, err)
	}
	defer rows.Close()
	var out []seedColumn
	for rows.Next() {
		var c seedColumn
		var nullable, extra string
		var noDefault bool
		if err := rows.Scan(&c.name, &c.dataType, &nullable, &noDefault, &extra, &c.maxChars); err != nil {
			return nil, fmt.Errorf("read the columns of %s: %w", s.table, err)
		}
		switch {
		case strings.EqualFold(c.name, s.tg.pk), strings.EqualFold(c.name, s.tg.counter), strings.EqualFold(c.name, s.tg.version):
			continue
		case generatedColumn(extra):
			continue
		}
		c.unique = s.tg.unique[strings.ToLower(c.name)]
		if c.unique || (nullable == "NO" && noDefault && !strings.Contains(strings.ToLower(extra), "auto_increment")) {
			out = append(out, c)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the columns of %s: %w", s.table, err)
	}
	for _, c := range out {
		if _, err := seedValue(c, 1, time.Now()); err != nil {
			return nil, &RefusedError{Table: s.tg.table.Name, Reason: err.Error()}
		}
	}
	return out, nil
}

// generatedColumn reads information_schema's EXTRA: "VIRTUAL GENERATED",
// "STORED GENERATED" (MySQL, MariaDB), "PERSISTENT GENERATED" (older
// MariaDB). MySQL's DEFAULT_GENERATED marks an expression default instead.
func generatedColumn(extra string) bool {
	for _, w := range strings.Fields(strings.ToUpper(extra)) {
		switch w {
		case "VIRTUAL", "STORED", "PERSISTENT":
			return true
		}
	}
	return false
}

// seedValue returns the value of column c in row id: distinct per row,
// of the column's type. now anchors dates and times.
func seedValue(c seedColumn, id int64, now time.Time) (any, error) {
	switch c.dataType {
	case "tinyint", "smallint", "mediumint", "int", "integer", "bigint",
		"decimal", "numeric", "float", "double", "real":
		return id, nil
	case "bit":
		if c.unique {
			return id, nil
		}
		return 0, nil
	case "year":
		return 1901 + (id-1)%255, nil
	case "char", "varchar", "binary", "varbinary":
		if v := "drill-" + strconv.FormatInt(id, 10); c.maxChars == 0 || int64(len(v)) <= c.maxChars {
			return v, nil
		}
		return strconv.FormatInt(id, 36), nil
	case "tinytext", "text", "mediumtext", "longtext", "tinyblob", "blob", "mediumblob", "longblob":
		// A JSON string, so that MariaDB's JSON (a LONGTEXT with a
		// json_valid CHECK) takes it too.
		return `"drill-` + strconv.FormatInt(id, 10) + `"`, nil
	case "date":
		return now.AddDate(0, 0, int(id%100000)).Format(time.DateOnly), nil
	case "datetime", "timestamp":
		return now.Add(time.Duration(id) * time.Second).Format(time.DateTime), nil
	case "time":
		return fmt.Sprintf("%d:%02d:%02d", id/3600%800, id/60%60, id%60), nil
	case "json":
		return fmt.Sprintf(`{"drill": %d}`, id), nil
	case "enum", "set":
		// The index of a member: 1 is the first.
		if c.unique {
			return id, nil
		}
		return 1, nil
	case "uuid":
		return fmt.Sprintf("00000000-0000-4000-8000-%012x", id), nil
	case "inet4":
		return fmt.Sprintf("10.%d.%d.%d", id>>16&0xff, id>>8&0xff, id&0xff), nil
	case "inet6":
		return fmt.Sprintf("fd00::%x", id), nil
	}
	return nil, fmt.Errorf("column %s is %s, which the drill cannot seed: give it a default", c.name, c.dataType)
}

// seed inserts rows 1..rows, each holding the full stock at version 0.
func (s *scratch) seed(ctx context.Context) error {
	cols, err := s.seedColumns(ctx)
	if err != nil {
		return err
	}
	names := []string{quoteIdent(s.tg.pk), quoteIdent(s.tg.counter), quoteIdent(s.tg.version)}
	for _, c := range cols {
		names = append(names, quoteIdent(c.name))
	}
	// Batches stay far below the 65535 placeholders of one statement.
	batch := max(1, min(500, 30000/len(names)))
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(names)), ", ") + ")"
	now := time.Now()
	for first := 1; first <= s.rows; first += batch {
		n := min(batch, s.rows-first+1)
		args := make([]any, 0, n*len(names))
		for id := int64(first); id < int64(first+n); id++ {
			args = append(args, id, s.stock, 0)
			for _, c := range cols {
				v, err := seedValue(c, id, now)
				if err != nil {
					return err
				}
				args = append(args, v)
			}
		}
		stmt := "INSERT INTO " + quoteIdent(s.table) + " (" + strings.Join(names, ", ") + ") VALUES " +
			strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
		if _, err := s.db.ExecContext(ctx, stmt, args...); err != nil {
			if code, ok := mysqlErrno(err); ok && seedRefusals[code] {
				return &RefusedError{Table: s.tg.table.Name, Reason: fmt.Sprintf(
					"the copy refused the rows the drill seeds (%v): check that --stock fits the counter, and give the other columns a default", err)}
			}
			return fmt.Errorf("seed %s: %w", s.table, err)
		}
	}
	return nil
}

// seedRefusals are the errors of values that do not fit the table: a CHECK
// (3819 MySQL, 4025 MariaDB), a duplicate (1062), too long (1406), out of
// range (1264), truncated or incorrect (1265, 1292, 1366).
var seedRefusals = map[uint16]bool{3819: true, 4025: true, 1062: true, 1406: true, 1264: true, 1265: true, 1292: true, 1366: true}
