// Command guard keeps MySQL and MariaDB data correct under concurrency: it
// lints schemas and the SQL inside code for writes that rely on a lock alone.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals cancel a command the way Ctrl-C does: the drill drops its
// scratch table and releases its locks, migrate stops between two files,
// audit ends its connections. SIGTERM is what timeout(1), a cancelled CI
// job, Kubernetes and systemd send.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

func main() { os.Exit(runMain(os.Args)) }

// runMain is main without the exit: the command line on a context that the
// stop signals cancel.
func runMain(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	return run(ctx, args, os.Stdout, os.Stderr)
}
