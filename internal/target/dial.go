package target

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Every connection guard makes goes through one of the dialers of this
// file: each returns once the server has said something, within the connect
// timeout. Without them a server that accepts and never answers held a
// command for as long as the drivers' read timeouts (60 s for an audit, no
// bound at all for migrate, whose connection has no read timeout), since
// go-sql-driver's timeout= bounds the TCP connect only and go-redis's
// DialTimeout the TCP connect and the TLS handshake, retried five times.

// The stages of a connection a NoAnswerError may stop at.
const (
	stageConnect  = "connect"  // the TCP connect
	stageGreeting = "greeting" // accepted, then nothing (MySQL's greeting, Redis's reply to PING)
	stageTLS      = "tls"      // the TLS handshake
	stageLogin    = "login"    // MySQL greeted, then did not let the login through
)

// NoAnswerError is a server that gave no answer within the connect
// timeout. It is never retried: the timeout is the wait the user chose.
type NoAnswerError struct {
	// Addr is the host:port (or socket) dialled.
	Addr string
	// Within is the connect timeout the server had.
	Within time.Duration
	stage  string
}

func (e *NoAnswerError) Error() string {
	what := ""
	switch e.stage {
	case stageConnect:
		what = " to connect"
	case stageGreeting:
		what = " (it accepted the connection and sent nothing)"
	case stageTLS:
		what = " to the TLS handshake"
	case stageLogin:
		what = " to the login, after its greeting"
	}
	return fmt.Sprintf("%s: no answer within %s%s", e.Addr, e.Within, what)
}

// NotTLSError is a server given as TLS (rediss://) that does not speak it.
type NotTLSError struct {
	Addr string
	// Plain says the server answered a plain Redis PING.
	Plain bool
	// Err is what the TLS handshake met.
	Err error
}

func (e *NotTLSError) Error() string {
	if e.Plain {
		return fmt.Sprintf("%s is not speaking TLS: it answers plain Redis", e.Addr)
	}
	return fmt.Sprintf("%s is not speaking TLS: %v", e.Addr, e.Err)
}

func (e *NotTLSError) Unwrap() error { return e.Err }

// plainProbeTimeout bounds the plain PING that tells a Redis that is not
// speaking TLS from one that is not answering at all.
const plainProbeTimeout = time.Second

// longAgo is a deadline already gone, to wake a blocked read.
var longAgo = time.Unix(1, 0)

// dialWithin connects to addr by deadline. A connect that did not complete
// in time is a NoAnswerError; a cancelled ctx returns its error.
func dialWithin(ctx context.Context, network, addr string, deadline time.Time, within time.Duration) (net.Conn, error) {
	dctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(dctx, network, addr)
	if err != nil {
		if cerr := cancelled(ctx); cerr != nil {
			return nil, cerr
		}
		if dctx.Err() != nil {
			return nil, &NoAnswerError{Addr: addr, Within: within, stage: stageConnect}
		}
		return nil, err
	}
	return conn, nil
}

// cancelled returns ctx's error when ctx was cancelled rather than timed
// out: an interrupted command is not a server that did not answer.
func cancelled(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return ctx.Err()
	}
	return nil
}

// readWithin reads what conn sends first, up to and including a byte of
// end when end is not 0, by deadline or until ctx is cancelled.
func readWithin(ctx context.Context, conn net.Conn, addr string, deadline time.Time, within time.Duration, end byte) ([]byte, error) {
	if err := conn.SetReadDeadline(deadline); err != nil {
		return nil, err
	}
	woken := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		conn.SetReadDeadline(longAgo)
		close(woken)
	})
	var got []byte
	buf := make([]byte, 4096)
	var err error
	for {
		var n int
		n, err = conn.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil || end == 0 && len(got) > 0 || end != 0 && bytes.IndexByte(got, end) >= 0 || len(got) > 1<<16 {
			break
		}
	}
	if !stop() {
		// ctx ended meanwhile: the deadline is set once and for all.
		<-woken
	}
	if cerr := cancelled(ctx); cerr != nil {
		return nil, cerr
	}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded) && len(got) == 0:
		return nil, &NoAnswerError{Addr: addr, Within: within, stage: stageGreeting}
	case errors.Is(err, io.EOF) && len(got) == 0:
		return nil, fmt.Errorf("%s: closed the connection before answering: %w", addr, err)
	case err != nil && (end == 0 || bytes.IndexByte(got, end) < 0):
		return nil, err
	}
	return got, conn.SetReadDeadline(time.Time{})
}

// connectDeadline is when a connection begun now must have been answered:
// within the timeout, or by ctx's deadline when that comes first. within
// is how long that leaves, as the error of a server that did not answer
// says it.
func connectDeadline(ctx context.Context, timeout time.Duration) (deadline time.Time, within time.Duration) {
	now := time.Now()
	deadline, within = now.Add(timeout), timeout
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
		// A caller's deadline well before the timeout is what the
		// server had; one a moment before it is the timeout's own.
		if left := d.Sub(now); left < timeout-timeout/10 {
			within = left.Round(time.Millisecond)
		}
	}
	return deadline, within
}

// mysqlDialer is the DialFunc of every MySQL connection: it returns once
// the server has sent the first bytes of its greeting (MySQL speaks first),
// which the driver then reads as if from the socket.
func mysqlDialer(timeout time.Duration) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		deadline, within := connectDeadline(ctx, timeout)
		conn, err := dialWithin(ctx, network, addr, deadline, within)
		if err != nil {
			return nil, err
		}
		first, err := readWithin(ctx, conn, addr, deadline, within, 0)
		if err != nil {
			conn.Close()
			return nil, err
		}
		return &greetedConn{Conn: conn, pending: first}, nil
	}
}

// greetedConn is a connection whose first bytes were read by the dialer:
// they are read again first.
type greetedConn struct {
	net.Conn
	pending []byte
}

func (c *greetedConn) Read(p []byte) (int, error) {
	if len(c.pending) > 0 {
		n := copy(p, c.pending)
		c.pending = c.pending[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// SyscallConn gives the driver's check of a pooled connection (is it
// closed? has it unread data?) the socket, as it has without the dialer.
func (c *greetedConn) SyscallConn() (syscall.RawConn, error) {
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return nil, errors.New("no raw connection")
	}
	return sc.SyscallConn()
}

// redisPing is the inline command a plain Redis connection is proved with:
// Redis speaks only when spoken to, and PING is answered before any login
// (+PONG, or -NOAUTH on a server with a password).
var redisPing = []byte("PING\r\n")

// redisDialer is the Dialer of every Redis connection: it returns a plain
// connection once the server answered a PING, a TLS one once its handshake
// is done, both within timeout; each failed attempt is counted in fails.
func (r *Redis) redisDialer(timeout time.Duration, fails *DialFailures) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := r.dialRedis(ctx, network, addr, timeout)
		if err != nil {
			fails.add(addr, err)
		}
		return conn, err
	}
}

func (r *Redis) dialRedis(ctx context.Context, network, addr string, timeout time.Duration) (net.Conn, error) {
	deadline, within := connectDeadline(ctx, timeout)
	conn, err := dialWithin(ctx, network, addr, deadline, within)
	if err != nil {
		return nil, err
	}
	if r.tls {
		tc := tls.Client(conn, tlsConfig(addr))
		hctx, cancel := context.WithDeadline(ctx, deadline)
		err := tc.HandshakeContext(hctx)
		cancel()
		if err == nil {
			return tc, nil
		}
		conn.Close()
		if cerr := cancelled(ctx); cerr != nil {
			return nil, cerr
		}
		return nil, notTLS(ctx, network, addr, within, err)
	}
	if err := pingWithin(ctx, conn, addr, deadline, within); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// pingWithin sends PING on a fresh connection and reads the reply's line.
func pingWithin(ctx context.Context, conn net.Conn, addr string, deadline time.Time, within time.Duration) error {
	if err := conn.SetWriteDeadline(deadline); err != nil {
		return err
	}
	if _, err := conn.Write(redisPing); err != nil {
		return err
	}
	if err := conn.SetWriteDeadline(time.Time{}); err != nil {
		return err
	}
	line, err := readWithin(ctx, conn, addr, deadline, within, '\n')
	if err != nil {
		return err
	}
	if !strings.ContainsRune("+-", rune(line[0])) {
		return fmt.Errorf("%s: the answer to PING is not Redis's protocol", addr)
	}
	return nil
}

// notTLS tells why the TLS handshake with addr failed. A plain Redis does
// not answer a TLS hello at all, as a silent server does: a plain PING on
// a second connection tells them apart.
func notTLS(ctx context.Context, network, addr string, within time.Duration, err error) error {
	var rec tls.RecordHeaderError
	if errors.As(err, &rec) {
		return &NotTLSError{Addr: addr, Plain: strings.ContainsRune("+-", rune(rec.RecordHeader[0])), Err: err}
	}
	// A certificate refused or an alert: the server speaks TLS.
	var cert *tls.CertificateVerificationError
	var alert tls.AlertError
	if errors.As(err, &cert) || errors.As(err, &alert) {
		return fmt.Errorf("%s: TLS handshake: %w", addr, err)
	}
	deadline, _ := connectDeadline(ctx, plainProbeTimeout)
	if conn, derr := dialWithin(ctx, network, addr, deadline, plainProbeTimeout); derr == nil {
		perr := pingWithin(ctx, conn, addr, deadline, plainProbeTimeout)
		conn.Close()
		if perr == nil {
			return &NotTLSError{Addr: addr, Plain: true, Err: err}
		}
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return &NoAnswerError{Addr: addr, Within: within, stage: stageTLS}
	}
	return fmt.Errorf("%s: TLS handshake: %w", addr, err)
}

// DialFailures counts the connections that Redis clients could not open,
// by address, so that a server gone for a while is one line with a count
// rather than a line per attempt. Its zero value is ready; a nil one counts
// nothing.
type DialFailures struct {
	mu     sync.Mutex
	addrs  []string // in the order they first failed
	byAddr map[string]*dialFailure
}

type dialFailure struct {
	n     int
	first error
}

func (f *DialFailures) add(addr string, err error) {
	if f == nil || errors.Is(err, context.Canceled) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byAddr == nil {
		f.byAddr = map[string]*dialFailure{}
	}
	d := f.byAddr[addr]
	if d == nil {
		d = &dialFailure{first: err}
		f.byAddr[addr] = d
		f.addrs = append(f.addrs, addr)
	}
	d.n++
}

// Lines returns one line per address that failed, in the order they first
// did: "redis HOST:PORT: failed to dial ×N (first: ERROR)".
func (f *DialFailures) Lines() []string {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, addr := range f.addrs {
		d := f.byAddr[addr]
		out = append(out, fmt.Sprintf("redis %s: failed to dial ×%d (first: %v)", addr, d.n, d.first))
	}
	return out
}
