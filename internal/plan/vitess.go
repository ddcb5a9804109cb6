package plan

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// DDLStrategyVitess is the ddl strategy of the steps guard plan --vitess
// writes: Vitess's online DDL, which builds the new table as a shadow copy
// filled by VReplication while writes continue, and swaps it in with a
// brief lock at cut-over.
const DDLStrategyVitess = "vitess"

// AlgorithmVitess is the Algorithm of a step Vitess runs as online DDL.
const AlgorithmVitess = "vitess"

// ErrVitessTrigger is wrapped by the error of a plan whose steps hold a
// trigger: Vitess online DDL runs CREATE, ALTER and DROP of tables and
// views, and refuses CREATE TRIGGER.
var ErrVitessTrigger = errors.New("Vitess online DDL runs no CREATE TRIGGER")

// algorithmClause is the ", ALGORITHM=…[, LOCK=…]" that ends the ALTER
// TABLE statements Plan writes. Vitess chooses how to build its shadow
// table and runs no ALTER on the table itself, so the clause asks nothing
// of it.
var algorithmClause = regexp.MustCompile(`(?i),\s*ALGORITHM\s*=\s*[a-z]+(\s*,\s*LOCK\s*=\s*[a-z]+)?\s*$`)

// ForVitess returns the steps as Vitess online DDL runs them: each ALTER
// without its ALGORITHM and LOCK clause, blocking no writes, with a note of
// what Vitess does. The server-wide sql_mode step is no DDL, which
// ApplySchema refuses: it is returned apart, in server. A trigger step is an
// error (ErrVitessTrigger).
func ForVitess(steps []Step) (vitess, server []Step, err error) {
	for _, st := range steps {
		switch {
		case st.Guard == GuardSQLMode:
			server = append(server, st)
			continue
		case st.Guard == GuardTrigger:
			return nil, nil, fmt.Errorf("%w (%s): guard counters with CHECK constraints (--strategy check, on MySQL 8.0.16 or later)", ErrVitessTrigger, st.What)
		}
		st.Up = algorithmClause.ReplaceAllString(st.Up, "")
		st.Down = algorithmClause.ReplaceAllString(st.Down, "")
		st.Algorithm = AlgorithmVitess
		st.BlocksWrites = false
		st.OSC = ""
		st.Note = vitessNote(st)
		vitess = append(vitess, st)
	}
	return vitess, server, nil
}

// vitessNote says what a step does under Vitess online DDL, keeping what
// the step's own note says about the rows that make it fail.
func vitessNote(st Step) string {
	rest := st.Note
	for _, lead := range []string{
		"rebuilds the table in place, writes continue; ",
		"copies the table and validates every row: writes wait for the whole copy (reads continue); ",
		"validates every row in a table copy: writes wait for the whole copy (reads continue); ",
		"built in place, writes continue; ",
	} {
		rest = strings.TrimPrefix(rest, lead)
	}
	rest = strings.TrimSuffix(rest, "; run it in a quiet window")
	rest = strings.Replace(rest, "; run it in a quiet window;", ";", 1)
	note := "Vitess copies the table into a shadow table while writes continue and swaps it in with a brief lock at cut-over"
	if st.Guard == GuardCheck {
		note += "; a row the CHECK refuses fails the copy; Vitess renames the constraint (CHECK names are unique per schema, and the shadow table needs its own)"
		rest = strings.TrimPrefix(rest, "fails if a row is negative; ")
		rest = strings.TrimPrefix(rest, "fails if a row is negative")
		rest = strings.TrimPrefix(rest, "fails if a row breaks the check")
	}
	if rest = strings.TrimLeft(rest, "; "); rest != "" {
		note += "; " + rest
	}
	return note
}

// vitessName is a step's .sql file: NNNNNN_title.sql. No .up or .down:
// golang-migrate, guard migrate and guard lint do not take it for a
// migration, and guard lint reads its ALTER as any other .sql file.
var vitessName = regexp.MustCompile(`^([0-9]+)_(.+)\.sql$`)

// VitessScript is the name of the script of the steps numbered from first.
func VitessScript(first uint64) string {
	return fmt.Sprintf("apply_%0*d.sh", DefaultWidth, first)
}

// NextVitessNumber returns the number after the highest of the step files
// in dir (1 when there is none; a folder that does not exist has none).
func NextVitessNumber(dir string) (uint64, error) {
	var max uint64
	err := eachVitessFile(dir, func(n uint64, _ string) {
		if n > max {
			max = n
		}
	})
	return max + 1, err
}

// UnwrittenVitess returns the steps whose .sql file is not in dir yet: an
// offline plan replays migrations that do not hold what Vitess applied, so
// the steps an earlier plan wrote would otherwise be written again.
func UnwrittenVitess(steps []Step, dir string) ([]Step, error) {
	titles := map[string]bool{}
	if err := eachVitessFile(dir, func(_ uint64, title string) { titles[title] = true }); err != nil {
		return nil, err
	}
	var out []Step
	for _, st := range steps {
		if !titles[st.Name] {
			out = append(out, st)
		}
	}
	return out, nil
}

func eachVitessFile(dir string, f func(n uint64, title string)) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	for _, e := range entries {
		m := vitessName.FindStringSubmatch(e.Name())
		if e.IsDir() || m == nil {
			continue
		}
		if n, err := strconv.ParseUint(m[1], 10, 64); err == nil {
			f(n, m[2])
		}
	}
	return nil
}

// VitessFiles renders each step as a .sql file numbered from first on, and
// the POSIX shell script that submits them in order with vtctldclient
// ApplySchema --ddl-strategy "vitess" to keyspace (the script's $KEYSPACE
// when empty), waiting for each to complete on every shard before the next.
// The script comes last.
func VitessFiles(steps []Step, first uint64, keyspace string) []File {
	var files []File
	var b strings.Builder
	writeScriptHead(&b, VitessScript(first), keyspace)
	for i, st := range steps {
		name := fmt.Sprintf("%0*d_%s.sql", DefaultWidth, first+uint64(i), st.Name)
		files = append(files, File{Name: name, Data: vitessFile(st)})
		fmt.Fprintf(&b, "\n# %d. %s (%s %s)\n", i+1, st.What, st.Rule, ruleNames[st.Rule])
		fmt.Fprintf(&b, "uuid=$(vtctldclient --server \"$VTCTLD\" ApplySchema --ddl-strategy %q --sql-file %s \"$KEYSPACE\")\n", DDLStrategyVitess, name)
		fmt.Fprintf(&b, "wait_for \"$uuid\" %s\n", name)
	}
	b.WriteString("\necho \"guard: every step is complete on every shard of $KEYSPACE\"\n")
	return append(files, File{Name: VitessScript(first), Data: []byte(b.String()), Mode: 0o755})
}

func vitessFile(st Step) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "-- guard plan --vitess: %s\n", st.What)
	fmt.Fprintf(&b, "-- Fixes %s %s.\n", st.Rule, ruleNames[st.Rule])
	fmt.Fprintf(&b, "-- Run by vtctldclient ApplySchema --ddl-strategy %q: online DDL, writes continue; rows: %s.\n", DDLStrategyVitess, rowsText(st))
	if st.Note != "" {
		fmt.Fprintf(&b, "-- Note: %s.\n", st.Note)
	}
	b.WriteString(st.Up + ";\n")
	return []byte(b.String())
}

// writeScriptHead writes the script's header: what it needs, how it
// stops, and how a step is undone.
func writeScriptHead(b *strings.Builder, name, keyspace string) {
	b.WriteString(`#!/bin/sh
# Written by guard plan --vitess: the missing guards as Vitess online DDL
# (ddl strategy "vitess"), one migration per step, submitted in order with
# vtctldclient ApplySchema. Each step must complete on every shard before
# the next is submitted; a step that fails or is cancelled stops the script
# (fix the cause, then: vtctldclient --server "$VTCTLD" OnlineDDL retry
# "$KEYSPACE" UUID, and run the steps after it). A completed step is undone,
# without losing the writes made since, with:
#   vtctldclient --server "$VTCTLD" ApplySchema --ddl-strategy "vitess" \
#     --sql "revert vitess_migration 'UUID'" "$KEYSPACE"
#
# Run: VTCTLD=vtctld-host:15999 sh ` + name + `
set -eu
: "${VTCTLD:?set VTCTLD to the vtctld gRPC address, e.g. localhost:15999}"
`)
	if keyspace != "" {
		fmt.Fprintf(b, "KEYSPACE=\"${KEYSPACE:-%s}\"\n", keyspace)
	} else {
		b.WriteString(": \"${KEYSPACE:?set KEYSPACE to the keyspace the tables are in}\"\n")
	}
	b.WriteString(`POLL="${POLL:-5}"
cd "$(dirname "$0")"

# wait_for UUID FILE: poll the migration until it is complete on every
# shard; exit when it failed or was cancelled on any.
wait_for() {
	if [ -z "$1" ]; then
		echo "guard: $2: ApplySchema returned no migration UUID" >&2
		exit 1
	fi
	echo "guard: $2: migration $1 submitted"
	while :; do
		# Each listing is read whole first: a vtctldclient that fails stops
		# the script rather than reading as no row.
		for status in failed cancelled; do
			listed=$(vtctldclient --server "$VTCTLD" OnlineDDL show "$KEYSPACE" "$status")
			if printf '%s\n' "$listed" | grep -q -- "$1"; then
				echo "guard: $2: migration $1 is $status; see: vtctldclient --server \"$VTCTLD\" OnlineDDL show $KEYSPACE $1" >&2
				exit 1
			fi
		done
		listed=$(vtctldclient --server "$VTCTLD" OnlineDDL show "$KEYSPACE" "$1")
		shards=$(printf '%s\n' "$listed" | grep -c -- "$1" || true)
		listed=$(vtctldclient --server "$VTCTLD" OnlineDDL show "$KEYSPACE" complete)
		complete=$(printf '%s\n' "$listed" | grep -c -- "$1" || true)
		if [ "$shards" -gt 0 ] && [ "$complete" -ge "$shards" ]; then
			echo "guard: $2: migration $1 complete on every shard"
			return 0
		fi
		sleep "$POLL"
	done
}
`)
}
