// Command guard keeps MySQL and MariaDB data correct under concurrency: it
// lints schemas and the SQL inside code for writes that rely on a lock alone.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
