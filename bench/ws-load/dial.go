package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// giveUpAfter is how many failed handshakes make dialAll stop trying the rest: a run needs every
// connection, so past this point more attempts (each up to the handshake timeout against a server
// that has stalled) only make the failure take longer to report.
const giveUpAfter = 100

// dialAll opens n WebSocket connections, at most concurrency handshakes at a time. conns[i] is nil
// when connection i failed or was not tried (after giveUpAfter failures); the failures are added to
// errs. negotiated is the Sec-WebSocket-Extensions answer of the first successful handshake ("" if none).
func dialAll(d *websocket.Dialer, url string, n, concurrency int, errs *errorLog) (conns []*websocket.Conn, negotiated string) {
	conns = make([]*websocket.Conn, n)
	var once sync.Once
	var failures, skipped int64
	forEach(n, concurrency, func(i int) {
		if atomic.LoadInt64(&failures) >= giveUpAfter {
			atomic.AddInt64(&skipped, 1)
			return
		}
		c, resp, err := d.Dial(url, nil)
		if err != nil {
			if resp != nil {
				err = fmt.Errorf("%v (HTTP status %d)", err, resp.StatusCode)
			}
			atomic.AddInt64(&failures, 1)
			errs.add(fmt.Errorf("connection %d: handshake: %w", i, err))
			return
		}
		once.Do(func() { negotiated = resp.Header.Get("Sec-WebSocket-Extensions") })
		conns[i] = c
	})
	if skipped > 0 {
		errs.add(fmt.Errorf("%d connections not tried after %d failed handshakes", skipped, giveUpAfter))
	}
	return conns, negotiated
}

// forEach calls f(0) ... f(n-1), at most concurrency calls at a time, and returns when all are done.
func forEach(n, concurrency int, f func(i int)) {
	if concurrency > n {
		concurrency = n
	}
	var next int64 = -1
	var wg sync.WaitGroup
	for w := 0; w < concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(atomic.AddInt64(&next, 1)); i < n; i = int(atomic.AddInt64(&next, 1)) {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// answerCloseOnce makes c answer a close frame from the server with the same status, unless this
// side has already sent its own close frame (then the server's frame is the answer, and sending
// another frame would break RFC 6455 section 5.5.1). sentClose is set by whoever sends our close.
func answerCloseOnce(c *websocket.Conn, sentClose *atomic.Bool, timeout time.Duration) {
	c.SetCloseHandler(func(code int, text string) error {
		if sentClose.CompareAndSwap(false, true) {
			msg := websocket.FormatCloseMessage(code, "")
			if code == websocket.CloseNoStatusReceived {
				msg = websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
			}
			_ = c.WriteControl(websocket.CloseMessage, msg, time.Now().Add(timeout))
		}
		return nil
	})
}

// sendClose starts the close handshake with 1000 (normal closure).
func sendClose(c *websocket.Conn, sentClose *atomic.Bool, timeout time.Duration) error {
	if !sentClose.CompareAndSwap(false, true) {
		return nil
	}
	return c.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(timeout))
}

// isNormalClose tells whether err is the server's answer to our close frame: status 1000, or no
// status at all (1005), which RFC 6455 allows in a closing frame.
func isNormalClose(err error) bool {
	return websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseNoStatusReceived)
}

// awaitServerClose waits (up to timeout) for the server to close the TCP connection after the close
// handshake, so that the server, which RFC 6455 section 7.1.1 says should close first, does so; then
// closes our end either way.
func awaitServerClose(c *websocket.Conn, timeout time.Duration) {
	nc := c.UnderlyingConn()
	_ = nc.SetReadDeadline(time.Now().Add(timeout))
	var b [64]byte
	for {
		if _, err := nc.Read(b[:]); err != nil {
			break
		}
	}
	_ = c.Close()
}
