package lintcache

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

var buildOnce struct {
	sync.Once
	id string
}

// buildIdentity names the program that runs so that no two builds that
// may judge differently share entries: a version string does not (a
// development build says "dev" or a revision with "+dirty", whatever its
// sources hold). It is the Go build ID the linker writes into every
// binary, a hash of the build's inputs and output, read from the
// executable's header; without one (a binary built with -buildid=), the
// SHA-256 of the whole executable; without the executable, the module's
// build information, and nothing is shared with another such build's
// entries (see noIdentity).
func buildIdentity() string {
	buildOnce.Do(func() { buildOnce.id = readBuildIdentity() })
	return buildOnce.id
}

// noIdentity is a fresh value for a program that cannot tell what it is:
// its entries are its own.
func noIdentity() string {
	var b [16]byte
	rand.Read(b[:])
	return "unknown:" + hex.EncodeToString(b[:])
}

func readBuildIdentity() string {
	exe, err := os.Executable()
	if err != nil {
		return noIdentity()
	}
	var info string
	if bi, ok := debug.ReadBuildInfo(); ok {
		info = bi.String()
	}
	if id := goBuildID(exe); id != "" {
		return "go-build-id:" + id + "\x00" + info
	}
	f, err := os.Open(exe)
	if err != nil {
		return noIdentity()
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return noIdentity()
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)) + "\x00" + info
}

// goBuildID returns the Go build ID of executable p, "" when it has none
// that can be read: the ELF note the linker writes (Linux), or the string
// it puts at the start of the text on other systems.
func goBuildID(p string) string {
	if f, err := elf.Open(p); err == nil {
		defer f.Close()
		if s := f.Section(".note.go.buildid"); s != nil {
			if data, err := s.Data(); err == nil {
				return noteBuildID(data)
			}
		}
		return ""
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	return textBuildID(head[:n])
}

// noteBuildID reads an ELF note of type 4 named "Go".
func noteBuildID(data []byte) string {
	if len(data) < 16 {
		return ""
	}
	namesz := binary.LittleEndian.Uint32(data)
	descsz := binary.LittleEndian.Uint32(data[4:])
	typ := binary.LittleEndian.Uint32(data[8:])
	if namesz != 4 || typ != 4 || !bytes.Equal(data[12:16], []byte("Go\x00\x00")) || uint64(descsz) > uint64(len(data)-16) {
		return ""
	}
	return string(data[16 : 16+descsz])
}

// textBuildID finds `\xff Go build ID: "…"` in the start of a binary.
func textBuildID(head []byte) string {
	const prefix = "\xff Go build ID: \""
	i := bytes.Index(head, []byte(prefix))
	if i < 0 {
		return ""
	}
	rest := head[i+len(prefix):]
	j := bytes.IndexByte(rest, '"')
	if j <= 0 || strings.ContainsAny(string(rest[:j]), "\n\x00") {
		return ""
	}
	return string(rest[:j])
}
