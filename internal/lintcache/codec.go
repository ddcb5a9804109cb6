package lintcache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"unsafe"
)

// errCorrupt is what a Reader says of a payload it cannot read back: a
// truncated, damaged or foreign entry, which the caller drops.
var errCorrupt = errors.New("lint cache: corrupt entry")

// Writer encodes values into a payload as it goes, through a buffer of
// its own, to an io.Writer: integers as varints, and each distinct string
// once, in a table after the values that refer to it by number. The
// findings of a file repeat their code, rule, file and message; the table
// keeps an entry small and its reading cheap (Reader slices every string
// out of one). A payload is the values, the table, and the table's offset
// in 8 bytes.
type Writer struct {
	dst   io.Writer
	buf   []byte
	n     int64 // bytes flushed to dst
	err   error
	crc   uint32
	index map[string]uint64
	table []string
}

// writerBuffer is how many bytes a Writer gathers before it writes them.
const writerBuffer = 64 << 10

// NewWriter returns a Writer that writes a payload to dst.
func NewWriter(dst io.Writer) *Writer {
	return &Writer{dst: dst, buf: make([]byte, 0, writerBuffer), index: map[string]uint64{}}
}

func (w *Writer) flush() {
	if w.err == nil && len(w.buf) > 0 {
		_, w.err = w.dst.Write(w.buf)
		w.crc = crc32.Update(w.crc, castagnoli, w.buf)
		w.n += int64(len(w.buf))
	}
	w.buf = w.buf[:0]
}

func (w *Writer) room(n int) {
	if len(w.buf)+n > cap(w.buf) {
		w.flush()
	}
}

// Uint appends v.
func (w *Writer) Uint(v uint64) {
	w.room(binary.MaxVarintLen64)
	w.buf = binary.AppendUvarint(w.buf, v)
}

// Int appends v.
func (w *Writer) Int(v int) { w.Int64(int64(v)) }

// Int64 appends v.
func (w *Writer) Int64(v int64) {
	w.room(binary.MaxVarintLen64)
	w.buf = binary.AppendVarint(w.buf, v)
}

// Bool appends b.
func (w *Writer) Bool(b bool) {
	w.room(1)
	if b {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 0)
	}
}

// Len appends the length of a list or a map, or -1 for a nil one, which
// reads back as nil: nil and empty are kept apart.
func (w *Writer) Len(n int, isNil bool) {
	if isNil {
		w.Int(-1)
		return
	}
	w.Int(n)
}

// String appends s: its number in the table, 0 for "".
func (w *Writer) String(s string) {
	if s == "" {
		w.Uint(0)
		return
	}
	i, ok := w.index[s]
	if !ok {
		w.table = append(w.table, s)
		i = uint64(len(w.table))
		w.index[s] = i
	}
	w.Uint(i)
}

// Text appends s in place, not in the table: for the long texts that
// seldom repeat (a fix quoting its statement), which the table would cost
// a hash of each to find out.
func (w *Writer) Text(s string) {
	w.Uint(uint64(len(s)))
	w.bytes(s)
}

func (w *Writer) bytes(s string) {
	for len(s) > 0 {
		w.room(1)
		n := min(len(s), cap(w.buf)-len(w.buf))
		w.buf = append(w.buf, s[:n]...)
		s = s[n:]
	}
}

// Strings appends a list of strings, nil kept apart from empty.
func (w *Writer) Strings(ss []string) {
	w.Len(len(ss), ss == nil)
	for _, s := range ss {
		w.String(s)
	}
}

// finish writes the table and its offset; it returns the payload's size
// and CRC-32C, and the first error of a write.
func (w *Writer) finish() (size int64, crc uint32, err error) {
	w.flush()
	at := w.n
	w.Uint(uint64(len(w.table)))
	for _, s := range w.table {
		w.Uint(uint64(len(s)))
	}
	for _, s := range w.table {
		w.bytes(s)
	}
	w.room(8)
	w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(at))
	w.flush()
	return w.n, w.crc, w.err
}

// encode returns the payload write writes.
func encode(write func(*Writer)) []byte {
	var b bytes.Buffer
	w := NewWriter(&b)
	write(w)
	w.finish()
	return b.Bytes()
}

// Reader decodes a payload a Writer made. Its first error sticks: every
// later read returns a zero value, and Err reports it. Lengths are checked
// against what is left of the payload before anything is allocated, so
// that no input, however damaged, makes it allocate more than the input's
// size or panic.
type Reader struct {
	body  []byte
	table []string
	err   error
	// all is the payload as one string, which every string read is a
	// slice of; end is the offset in it where the values end.
	all string
	end int
}

// NewReader reads the string table of payload. The strings it returns
// share payload's memory: the caller must not change payload afterwards.
func NewReader(payload []byte) *Reader {
	r := &Reader{}
	if len(payload) < 8 {
		r.fail()
		return r
	}
	at := binary.LittleEndian.Uint64(payload[len(payload)-8:])
	if at > uint64(len(payload)-8) {
		r.fail()
		return r
	}
	// Every string read is a slice of the payload, read as a string in
	// place: a payload is read once, from the buffer its file was read
	// into, which nothing writes to after.
	r.all = unsafe.String(unsafe.SliceData(payload), len(payload))
	r.body = payload[at : len(payload)-8]
	n := r.count(1)
	if r.err != nil {
		return r
	}
	lens := make([]int, n)
	total := 0
	for i := range lens {
		l := r.count(1)
		// Each string needs its length's byte and its own bytes.
		if r.err != nil || l > len(r.body)-total {
			r.fail()
			return r
		}
		lens[i] = l
		total += l
	}
	if total != len(r.body) {
		r.fail()
		return r
	}
	off := len(payload) - 8 - total // the strings end where the offset starts
	r.table = make([]string, n+1)
	for i, l := range lens {
		r.table[i+1] = r.all[off : off+l]
		off += l
	}
	r.body, r.end = payload[:at], int(at)
	return r
}

func (r *Reader) fail() {
	if r.err == nil {
		r.err = errCorrupt
	}
	r.body = nil
}

// Err returns the first error met, nil if every read worked.
func (r *Reader) Err() error { return r.err }

// Done returns the first error met, or one when the payload holds more
// than was read: an entry is read whole or not at all.
func (r *Reader) Done() error {
	if r.err == nil && len(r.body) > 0 {
		r.fail()
	}
	return r.err
}

// Uint reads an unsigned integer.
func (r *Reader) Uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.body)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.body = r.body[n:]
	return v
}

// Int64 reads an integer.
func (r *Reader) Int64() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.body)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.body = r.body[n:]
	return v
}

// Int reads an integer that fits an int.
func (r *Reader) Int() int {
	v := r.Int64()
	if v > math.MaxInt32 || v < math.MinInt32 {
		r.fail()
		return 0
	}
	return int(v)
}

// Bool reads a boolean.
func (r *Reader) Bool() bool {
	if r.err != nil {
		return false
	}
	if len(r.body) == 0 || r.body[0] > 1 {
		r.fail()
		return false
	}
	b := r.body[0] == 1
	r.body = r.body[1:]
	return b
}

// count reads a count of things each at least min bytes long, refusing one
// the rest of the payload cannot hold.
func (r *Reader) count(min int) int {
	v := r.Uint()
	if r.err != nil || v > uint64(len(r.body)/min) {
		r.fail()
		return 0
	}
	return int(v)
}

// Len reads what Writer.Len wrote, for a list of elements each at least
// min bytes long: -1 for nil.
func (r *Reader) Len(min int) int {
	v := r.Int64()
	if r.err != nil || v < -1 || v > int64(len(r.body)/min) {
		r.fail()
		return 0
	}
	return int(v)
}

// String reads a string.
func (r *Reader) String() string {
	i := r.Uint()
	if r.err != nil {
		return ""
	}
	if i >= uint64(len(r.table)) {
		r.fail()
		return ""
	}
	return r.table[i]
}

// Text reads what Writer.Text wrote.
func (r *Reader) Text() string {
	n := r.Uint()
	if r.err != nil || n > uint64(len(r.body)) {
		r.fail()
		return ""
	}
	off := r.end - len(r.body)
	r.body = r.body[n:]
	return r.all[off : off+int(n)]
}

// Strings reads a list of strings.
func (r *Reader) Strings() []string {
	n := r.Len(1)
	if n < 0 || r.err != nil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.String()
	}
	return out
}
