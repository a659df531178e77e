package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

// idleConn is one held session: a reader goroutine waits on it for the whole hold (as a real client
// would), passing pongs and the end of the session on.
type idleConn struct {
	c         *websocket.Conn
	sentClose atomic.Bool
	pong      chan struct{}
	done      chan struct{}
	err       error // why the reader stopped; read only after done is closed
}

func runIdle(args []string) error {
	fs := flag.NewFlagSet("idle", flag.ExitOnError)
	url := fs.String("url", "", "ws://127.0.0.1:PORT/PATH of the endpoint (loopback only)")
	n := fs.Int("n", 10000, "sessions to open (1-50000; needs a file descriptor limit above it)")
	concurrency := fs.Int("dial-concurrency", 100, "handshakes in progress at a time (1-1000)")
	hold := fs.Duration("hold", 120*time.Second, "longest hold; SIGUSR1 ends the hold earlier (1ms-30m)")
	timeout := fs.Duration("timeout", 10*time.Second, "longest wait for a handshake, the pongs or the close (1ms-60s)")
	_ = fs.Parse(args)
	if err := checkURL(*url); err != nil {
		return err
	}
	switch {
	case *n < 1 || *n > 50000:
		return fmt.Errorf("-n must be 1-50000")
	case *concurrency < 1 || *concurrency > 1000:
		return fmt.Errorf("-dial-concurrency must be 1-1000")
	case *hold < time.Millisecond || *hold > 30*time.Minute:
		return fmt.Errorf("-hold must be 1ms-30m")
	case *timeout < time.Millisecond || *timeout > time.Minute:
		return fmt.Errorf("-timeout must be 1ms-60s")
	}
	// Wanted before the first handshake, so that a SIGUSR1 that comes early is not lost.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGUSR1, syscall.SIGINT, syscall.SIGTERM)

	errs := &errorLog{}
	// Small buffers: this side should not need more memory per session than the server.
	dialer := &websocket.Dialer{HandshakeTimeout: *timeout, ReadBufferSize: 1024, WriteBufferSize: 1024}
	start := time.Now()
	conns, _ := dialAll(dialer, *url, *n, *concurrency, errs)
	sessions := make([]*idleConn, 0, len(conns))
	for _, c := range conns {
		if c == nil {
			continue
		}
		s := &idleConn{c: c, pong: make(chan struct{}, 1), done: make(chan struct{})}
		answerCloseOnce(c, &s.sentClose, *timeout)
		c.SetPongHandler(func(string) error {
			select {
			case s.pong <- struct{}{}:
			default:
			}
			return nil
		})
		go s.read()
		sessions = append(sessions, s)
	}
	fmt.Printf("mode=idle\nurl=%s\nrequested=%d\nopen=%d\nopen_seconds=%.2f\n", *url, *n, len(sessions), time.Since(start).Seconds())

	select {
	case sig := <-signals:
		if sig != syscall.SIGUSR1 {
			fmt.Fprintf(os.Stderr, "ws-load: %v during the hold; exiting without closing the sessions\n", sig)
			os.Exit(1)
		}
	case <-time.After(*hold):
	}
	fmt.Printf("held_seconds=%.2f\n", time.Since(start).Seconds())

	alive := checkAlive(sessions, *timeout, errs)
	fmt.Printf("alive=%d\n", alive)
	closed := closeAll(sessions, *concurrency, *timeout, errs)
	fmt.Printf("closed=%d\n", closed)
	errs.print()
	if errs.count > 0 {
		return errors.New("there were errors (see error= lines)")
	}
	return nil
}

func (s *idleConn) read() {
	defer close(s.done)
	kind, _, err := s.c.NextReader()
	if err == nil {
		err = fmt.Errorf("unexpected data message (opcode %d) on an idle session", kind)
	}
	s.err = err
}

// checkAlive pings every session that is still open and counts those whose pong arrives within timeout.
func checkAlive(sessions []*idleConn, timeout time.Duration, errs *errorLog) int {
	deadline := time.Now().Add(timeout)
	pinged := make([]bool, len(sessions))
	for i, s := range sessions {
		select {
		case <-s.done:
			errs.add(fmt.Errorf("session %d ended during the hold: %v", i, s.err))
			continue
		default:
		}
		if err := s.c.WriteControl(websocket.PingMessage, []byte("alive?"), deadline); err != nil {
			errs.add(fmt.Errorf("session %d: ping: %w", i, err))
			continue
		}
		pinged[i] = true
	}
	alive := 0
	for i, s := range sessions {
		if !pinged[i] {
			continue
		}
		select {
		case <-s.pong:
			alive++
		case <-s.done:
			errs.add(fmt.Errorf("session %d ended instead of answering the ping: %v", i, s.err))
		case <-time.After(time.Until(deadline)):
			errs.add(fmt.Errorf("session %d: no pong within %v", i, timeout))
		}
	}
	return alive
}

// closeAll runs the close handshake on every session still open, concurrency at a time, and counts
// those the server answered with 1000 and then closed.
func closeAll(sessions []*idleConn, concurrency int, timeout time.Duration, errs *errorLog) int {
	var closed int64
	forEach(len(sessions), concurrency, func(i int) {
		s := sessions[i]
		select {
		case <-s.done: // already counted by checkAlive
			_ = s.c.Close()
			return
		default:
		}
		if err := sendClose(s.c, &s.sentClose, timeout); err != nil {
			errs.add(fmt.Errorf("session %d: sending close: %w", i, err))
			_ = s.c.Close()
			return
		}
		select {
		case <-s.done:
			if isNormalClose(s.err) {
				atomic.AddInt64(&closed, 1)
				awaitServerClose(s.c, timeout)
				return
			}
			errs.add(fmt.Errorf("session %d: expected the server's close frame with 1000, got %v", i, s.err))
		case <-time.After(timeout):
			errs.add(fmt.Errorf("session %d: no close frame from the server within %v", i, timeout))
		}
		_ = s.c.Close()
	})
	return int(closed)
}
