package main

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/target"
)

// connectTimeoutFlag is --connect-timeout of every command that connects.
func connectTimeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "connect-timeout", Value: target.DialTimeout,
		Usage: "how long each server has to accept a connection and answer (MySQL's greeting, Redis's reply, the TLS handshake) before the command fails naming it"}
}

// checkConnectTimeout refuses a --connect-timeout no connection could be
// made within.
func checkConnectTimeout(d time.Duration) error {
	if d <= 0 {
		return inputErrf("--connect-timeout %s: want a positive duration", d)
	}
	return nil
}

// setConnectTimeout checks the command's --connect-timeout and sets it on
// the target it connects to.
func setConnectTimeout(c *cli.Context, tg *target.Target) error {
	d := c.Duration("connect-timeout")
	if err := checkConnectTimeout(d); err != nil {
		return err
	}
	tg.SetConnectTimeout(d)
	return nil
}
