package redisrules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/guard-sql/guard/internal/policy"
	"github.com/guard-sql/guard/lint"
)

// LockWithoutTTL reports lock keys that never expire.
var LockWithoutTTL = &lint.Rule{
	Code:    "GR005",
	Name:    "lock-without-ttl",
	Summary: "a key matching the lock pattern ([lock] key_pattern, default lock:*) has no TTL: a crashed holder's lock never expires",
	Doc: "A lock set without an expiry (SET key token NX, or SETNX then an EXPIRE that never ran " +
		"because the holder died in between) outlives its holder: after a crash, a deploy or a lost " +
		"connection nobody deletes it, and every later attempt waits for a lock no one holds, until " +
		"someone deletes it by hand, often while the original holder is merely slow. The TTL is what " +
		"lets a lock recover; a watchdog renews it while the work goes on." + redisLockDoc,
	Fix: "acquire with SET key token NX PX <ttl> in one command ([lock] ttl; guard gen dao does this and renews it), " +
		"never SETNX then EXPIRE; for the keys already stuck, check their holder is gone and PEXPIRE or DEL them",
	Kind:     lint.KindRedis,
	Severity: policy.SevError,
	Live:     true,
	Run:      runLockWithoutTTL,
}

func runLockWithoutTTL(p *lint.Pass) error {
	r := p.Redis
	if r == nil {
		return nil
	}
	s := r.Locks
	if s == nil {
		couldNotRun(p, "the TTLs of the lock keys ("+p.Policy.Lock.KeyPattern+")", r.LocksErr,
			"allow the audit's account SCAN and PTTL (ACL: +scan +pttl), or run redis-cli --scan --pattern '"+
				p.Policy.Lock.KeyPattern+"' and PTTL each key by hand")
		return nil
	}
	noun := "keys"
	if s.Examined == 1 {
		noun = "key"
	}
	scanned := fmt.Sprintf("%s %s matching %s in db %d", count(s.Examined), noun, s.Pattern, s.DB)
	capped := ""
	if s.Capped {
		scanned = "the first " + scanned
		capped = "; the scan stopped there, the keys after them were not examined"
	} else {
		scanned = "the " + scanned
	}
	if s.WithoutTTL == 0 {
		if s.Capped {
			couldNotRun(p, "every lock key", scanned+" all have a TTL"+capped,
				"run redis-cli --scan --pattern '"+s.Pattern+"' off-peak to check the rest")
		}
		return nil
	}
	samples := make([]string, len(s.Samples))
	for i, k := range s.Samples {
		samples[i] = strconv.Quote(k)
	}
	more := ""
	if s.WithoutTTL > len(s.Samples) {
		more = ", …"
	}
	p.Report(lint.Finding{
		Target: r.Target,
		Message: fmt.Sprintf("%d of %s %s no TTL (%s%s): a holder that crashed or lost its connection before "+
			"releasing keeps the lock forever%s", s.WithoutTTL, scanned, have(s.WithoutTTL), strings.Join(samples, ", "), more, capped),
	})
	return nil
}

func count(n int) string {
	if n < 10000 {
		return strconv.Itoa(n)
	}
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func have(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}
