package main

import (
	"github.com/urfave/cli/v2"

	"github.com/guard-sql/guard/internal/vitess"
	"github.com/guard-sql/guard/lint"
)

// vschemaFlag is --vschema of the commands that judge GS005.
func vschemaFlag() cli.Flag {
	return &cli.StringFlag{
		Name:      "vschema",
		Usage:     "Vitess VSchema (JSON of vtctldclient GetVSchema <keyspace> or GetSrvVSchema <cell>): GS005 says which UNIQUE indexes hold per shard only",
		TakesFile: true,
	}
}

// readVSchema reads --vschema; nil without it. A file that cannot be read
// or is no VSchema is bad input, exit 2, named with its line and column.
func readVSchema(c *cli.Context) (*vitess.VSchema, error) {
	path := c.String("vschema")
	if path == "" {
		return nil, nil
	}
	vs, err := vitess.Load(path)
	if err != nil {
		return nil, inputErrf("--vschema: %v", err)
	}
	return vs, nil
}

// sharding is what the schema rules need of --vschema.
func sharding(c *cli.Context) (*lint.Sharding, error) {
	vs, err := readVSchema(c)
	if vs == nil || err != nil {
		return nil, err
	}
	return vs.Sharding(), nil
}
