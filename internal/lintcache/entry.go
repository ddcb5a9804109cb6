package lintcache

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// formatName is the version of the entries' format and of the keys: a
// guard whose entries read differently changes it, and its keys name other
// files.
const formatName = "guard-lint-cache-1"

// Kind says what an entry holds.
type Kind byte

// The kinds of entry.
const (
	// KindFile is one query source's first judgement (FileEntry).
	KindFile Kind = 'f'
	// KindLinked is the judgement of the host code of a run, whose files
	// read one another (LinkedEntry).
	KindLinked Kind = 'l'
	// KindRun is a whole run's result (lint.Result).
	KindRun Kind = 'r'
	// KindReport is what a command printed of a run's result
	// (StartReport, Cache.ServeReport), under a key of its own that names
	// the run's.
	KindReport Kind = 'o'
)

// The frame of an entry's file: magic, kind and the key it was stored
// under, then the payload, its length and its CRC-32C. The key makes a file
// copied or renamed under another key's name a miss, the length a
// truncated file one, the checksum a damaged one.
var magic = []byte("guardlc2")

const (
	headerLen  = 8 + 1 + len(Key{})
	trailerLen = 8 + 4
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// header returns the start of an entry's file, which its payload follows.
func header(kind Kind, k Key) []byte {
	out := make([]byte, 0, headerLen)
	out = append(out, magic...)
	out = append(out, byte(kind))
	return append(out, k[:]...)
}

// trailer returns the end of an entry's file, after its payload.
func trailer(size int64, crc uint32) []byte {
	out := binary.LittleEndian.AppendUint64(make([]byte, 0, trailerLen), uint64(size))
	return binary.LittleEndian.AppendUint32(out, crc)
}

// unframe returns the payload of an entry's file content b, or false when
// b is not a whole, undamaged entry of kind stored under k.
func unframe(b []byte, kind Kind, k Key) ([]byte, bool) {
	if len(b) < headerLen+trailerLen || !bytes.Equal(b[:8], magic) || Kind(b[8]) != kind || !bytes.Equal(b[9:headerLen], k[:]) {
		return nil, false
	}
	payload := b[headerLen : len(b)-trailerLen]
	n := binary.LittleEndian.Uint64(b[len(b)-trailerLen:])
	sum := binary.LittleEndian.Uint32(b[len(b)-4:])
	if n != uint64(len(payload)) || crc32c(payload) != sum {
		return nil, false
	}
	return payload, true
}

// crc32c returns the CRC-32C of b.
func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }
