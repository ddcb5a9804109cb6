// Package driver runs guard lint: it walks the paths, reads each file once,
// hands every source to its reader (internal/hostcode) and every framework
// (internal/frameworks), parses the statements, learns the vocabulary,
// links the entity writes of host code to the statements they end in, and
// runs the rules (lint/rules) over the statement form (internal/stmt) and
// the schema model, in the phases phases.go declares. Run lints; Infer
// stops once the vocabulary is learned, for guard init and guard plan.
package driver
