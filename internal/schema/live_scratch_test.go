package schema

import (
	"context"
	"testing"

	"github.com/guard-sql/guard/internal/dbtest"
)

func TestScratchWide(t *testing.T) {
	dir := "/tmp/h11/wide"
	db := dbtest.MySQL(t)
	if stmt, err := applyMigrations(db, dir); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	offline, errs, err := LoadMigrations(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("FromDDL: %v", e)
	}
	live, _, err := FromInformationSchema(context.Background(), db.SQL, db.Name)
	if err != nil {
		t.Fatal(err)
	}
	if diff := conformanceDiff(offline, live); diff != "" {
		t.Errorf("(-ddl +live):\n%s", diff)
	}
}
