package main

import (
	"bytes"
	"encoding/json"
)

// encodeIndented encodes v as JSON indented by two spaces, HTML escaping
// off (SQL is full of < and >), with a trailing newline.
func encodeIndented(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
