package lintcache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io"
	"os"
)

// Key names one entry: a SHA-256 of everything its content depends on.
type Key [sha256.Size]byte

// String returns the key in hex, as the entry's file is named.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Hash is the SHA-256 of one file's content.
type Hash [sha256.Size]byte

// HashOf returns the hash of a file's content.
func HashOf(src []byte) Hash { return sha256.Sum256(src) }

// KeyBuilder makes a Key from the parts it depends on. Every part is
// written with its kind and length, so that no two lists of parts make
// the same key ("ab","c" and "a","bc" do not).
type KeyBuilder struct{ h hash.Hash }

// NewKey starts a key for what kind says it names ("file", "run", …).
func NewKey(kind string) *KeyBuilder {
	b := &KeyBuilder{h: sha256.New()}
	b.String(formatName)
	b.String(kind)
	return b
}

// String adds s.
func (b *KeyBuilder) String(s string) *KeyBuilder {
	b.prefix('s', len(s))
	b.h.Write([]byte(s))
	return b
}

// Bytes adds p.
func (b *KeyBuilder) Bytes(p []byte) *KeyBuilder {
	b.prefix('b', len(p))
	b.h.Write(p)
	return b
}

// Int adds v.
func (b *KeyBuilder) Int(v int) *KeyBuilder {
	b.prefix('i', v)
	return b
}

// Bool adds v.
func (b *KeyBuilder) Bool(v bool) *KeyBuilder {
	n := 0
	if v {
		n = 1
	}
	b.prefix('t', n)
	return b
}

// Hash adds a file's hash.
func (b *KeyBuilder) Hash(h Hash) *KeyBuilder { return b.Bytes(h[:]) }

// Key adds another key.
func (b *KeyBuilder) Key(k Key) *KeyBuilder { return b.Bytes(k[:]) }

func (b *KeyBuilder) prefix(kind byte, n int) {
	var buf [1 + binary.MaxVarintLen64]byte
	buf[0] = kind
	l := binary.PutVarint(buf[1:], int64(n))
	b.h.Write(buf[:1+l])
}

// Sum returns the key.
func (b *KeyBuilder) Sum() Key {
	var k Key
	b.h.Sum(k[:0])
	return k
}

// HashFile returns the hash of the content of file p, read through buf,
// and its size.
func HashFile(p string, buf []byte) (Hash, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return Hash{}, 0, err
	}
	defer f.Close()
	h := sha256.New()
	// Through buf: an *os.File given to io.CopyBuffer as itself copies
	// through a buffer of its own, made anew for every file.
	n, err := io.CopyBuffer(h, struct{ io.Reader }{f}, buf)
	if err != nil {
		return Hash{}, 0, err
	}
	var out Hash
	h.Sum(out[:0])
	return out, n, nil
}
