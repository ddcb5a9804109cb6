package lintcache

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"math"
	"os"
	"time"
)

// ServeReport writes the report entry stored under k (StartReport and the
// report's writes made it): its notes to errOut, then its report to out.
// Every byte of the entry is checked first, as Get checks one, but the
// entry is read through a small buffer, never held whole: a report of
// tens of megabytes costs no memory of its size. It returns the entry's
// worst severity; ok is false, and nothing is written, when there is no
// whole, undamaged entry; err is a write's error.
func (c *Cache) ServeReport(k Key, out, errOut io.Writer) (worst int, ok bool, err error) {
	if c == nil {
		return 0, false, nil
	}
	p := c.path(KindReport, k)
	f, ferr := os.Open(p)
	if ferr != nil {
		return 0, false, nil
	}
	defer f.Close()
	r, ok := checkReport(f, k)
	if !ok {
		return 0, false, nil
	}
	if now := time.Now(); now.Sub(r.modTime) > touchAfter {
		_ = os.Chtimes(p, now, now)
	}
	if _, err := io.WriteString(errOut, r.notes); err != nil {
		return r.worst, true, err
	}
	_, err = io.Copy(out, io.NewSectionReader(f, r.from, r.to-r.from))
	return r.worst, true, err
}

// servedReport is where a report entry's parts stand in its file.
type servedReport struct {
	worst    int
	notes    string
	from, to int64 // the report's bytes
	modTime  time.Time
}

// checkReport checks the frame and checksum of the report entry f holds
// under k and finds its parts.
func checkReport(f *os.File, k Key) (servedReport, bool) {
	var r servedReport
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return r, false
	}
	r.modTime = info.ModTime()
	size := info.Size()
	if size < int64(headerLen+trailerLen+9) {
		return r, false
	}
	head := make([]byte, headerLen)
	tail := make([]byte, trailerLen)
	if _, err := f.ReadAt(head, 0); err != nil || !bytes.Equal(head, header(KindReport, k)) {
		return r, false
	}
	if _, err := f.ReadAt(tail, size-int64(trailerLen)); err != nil {
		return r, false
	}
	const hl = int64(headerLen)
	n := int64(binary.LittleEndian.Uint64(tail))
	if n != size-int64(headerLen+trailerLen) {
		return r, false
	}
	crc := uint32(0)
	buf := make([]byte, 256<<10)
	payload := io.NewSectionReader(f, hl, n)
	for {
		m, err := payload.Read(buf)
		crc = crc32.Update(crc, castagnoli, buf[:m])
		if err == io.EOF {
			break
		}
		if err != nil {
			return r, false
		}
	}
	if crc != binary.LittleEndian.Uint32(tail[8:]) {
		return r, false
	}
	// The payload: the worst severity, the notes, the report, then an
	// empty string table (one 0) and its offset.
	end := make([]byte, 9)
	if _, err := f.ReadAt(end, hl+n-9); err != nil {
		return r, false
	}
	if at := int64(binary.LittleEndian.Uint64(end[1:])); end[0] != 0 || at != n-9 {
		return r, false
	}
	first := make([]byte, min(n-9, 2*binary.MaxVarintLen64))
	if _, err := f.ReadAt(first, hl); err != nil {
		return r, false
	}
	worst, a := binary.Varint(first)
	if a <= 0 || worst > math.MaxInt32 || worst < math.MinInt32 {
		return r, false
	}
	notes, b := binary.Uvarint(first[a:])
	if b <= 0 || notes > uint64(n-9-int64(a+b)) {
		return r, false
	}
	r.worst = int(worst)
	r.from = hl + int64(a+b) + int64(notes)
	r.to = hl + n - 9
	text := make([]byte, notes)
	if _, err := f.ReadAt(text, hl+int64(a+b)); err != nil {
		return r, false
	}
	r.notes = string(text)
	return r, true
}
