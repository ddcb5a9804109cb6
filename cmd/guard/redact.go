package main

import "github.com/guard-sql/guard/internal/target"

// oneTarget is target.One with the redactor of the target's password. A
// command that works on one database builds its redactor here, once, and
// sends every message and writer it prints through that one, so that no
// path of the command can forget a secret another path redacts.
func oneTarget(dsn, env string) (*target.Target, *target.Redactor, error) {
	tg, err := target.One(dsn, env)
	if err != nil {
		return nil, nil, err
	}
	return tg, target.NewRedactor(tg), nil
}

// collectTargets is target.Collect with the redactor of every target's
// password, built once for the whole fleet: an error of one target may
// echo the DSN of another, so every text of the command is redacted with
// all of them.
func collectTargets(src target.Sources) ([]*target.Target, *target.Redactor, error) {
	ts, err := target.Collect(src)
	if err != nil {
		return nil, nil, err
	}
	return ts, target.RedactorOf(ts), nil
}
