package dbtest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// redisCommand sends one command over a new connection and returns the
// reply: the text of a simple string, an integer or a bulk string. Health
// checks and FLUSHALL go through it rather than go-redis, whose retries and
// pool would blur what the server is doing at that moment.
func redisCommand(addr string, args ...string) (string, error) {
	return redisCommandAs(addr, "", args...)
}

// redisCommandAs is redisCommand on a server that asks for password: AUTH
// is sent first when password is not empty.
func redisCommandAs(addr, password string, args ...string) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	var req strings.Builder
	writeCommand := func(args ...string) {
		fmt.Fprintf(&req, "*%d\r\n", len(args))
		for _, arg := range args {
			fmt.Fprintf(&req, "$%d\r\n%s\r\n", len(arg), arg)
		}
	}
	if password != "" {
		writeCommand("AUTH", password)
	}
	writeCommand(args...)
	if _, err := io.WriteString(conn, req.String()); err != nil {
		return "", fmt.Errorf("send %s to redis %s: %w", args[0], addr, err)
	}
	rd := bufio.NewReader(conn)
	if password != "" {
		if _, err := readReply(rd); err != nil {
			return "", fmt.Errorf("AUTH on redis %s: %w", addr, err)
		}
	}
	reply, err := readReply(rd)
	if err != nil {
		return "", fmt.Errorf("%s on redis %s: %w", args[0], addr, err)
	}
	return reply, nil
}

// maxBulkLen is Redis's own limit on a bulk string (proto-max-bulk-len).
const maxBulkLen = 512 << 20

// errRedisNil is the reply to a missing key.
var errRedisNil = errors.New("nil reply")

// readReply reads one RESP2 reply that is not an array.
func readReply(rd *bufio.Reader) (string, error) {
	line, err := rd.ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("read reply: %w", err)
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return "", errors.New("read reply: empty line")
	}
	switch kind, body := line[0], line[1:]; kind {
	case '+', ':':
		return body, nil
	case '-':
		return "", fmt.Errorf("server error: %s", body)
	case '$':
		n, err := strconv.Atoi(body)
		if err != nil {
			return "", fmt.Errorf("read reply: bad bulk length %q", body)
		}
		if n < 0 {
			return "", errRedisNil
		}
		if n > maxBulkLen {
			return "", fmt.Errorf("read reply: bulk length %d over %d", n, maxBulkLen)
		}
		// Read what arrives rather than allocate what the length claims.
		buf, err := io.ReadAll(io.LimitReader(rd, int64(n)+2))
		if err != nil {
			return "", fmt.Errorf("read reply: %w", err)
		}
		if len(buf) < n+2 {
			return "", fmt.Errorf("read reply: %w", io.ErrUnexpectedEOF)
		}
		if string(buf[n:]) != "\r\n" {
			return "", errors.New("read reply: bulk string not ended by CRLF")
		}
		return string(buf[:n]), nil
	default:
		return "", fmt.Errorf("read reply: unsupported reply %q", line)
	}
}

// infoField returns the value of field in the text of an INFO reply.
func infoField(info, field string) string {
	for line := range strings.SplitSeq(info, "\n") {
		if value, ok := strings.CutPrefix(strings.TrimSpace(line), field+":"); ok {
			return value
		}
	}
	return ""
}
