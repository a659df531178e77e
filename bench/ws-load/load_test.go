package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// echoServer answers every message with change(message), as text; close frames are answered by
// gorilla's default close handler.
func echoServer(t *testing.T, change func([]byte) []byte) string {
	t.Helper()
	upgrader := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		for {
			_, m, err := c.ReadMessage()
			if err != nil {
				return
			}
			if err := c.WriteMessage(websocket.TextMessage, change(m)); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/echo"
}

func TestEchoAgainstACorrectServerHasNoErrors(t *testing.T) {
	url := echoServer(t, func(m []byte) []byte { return m })
	for _, window := range []string{"1", "4"} {
		if err := runEcho([]string{"-url", url, "-c", "4", "-window", window, "-warmup", "0", "-d", "200ms"}); err != nil {
			t.Fatalf("window %s: %v", window, err)
		}
	}
}

func TestEchoReportsAChangedEcho(t *testing.T) {
	url := echoServer(t, func(m []byte) []byte {
		c := append([]byte(nil), m...)
		c[len(c)-1] ^= 1
		return c
	})
	if err := runEcho([]string{"-url", url, "-c", "2", "-warmup", "0", "-d", "200ms"}); err == nil {
		t.Fatal("a corrupted echo was not reported")
	}
}

func TestEchoReportsAShortEcho(t *testing.T) {
	url := echoServer(t, func(m []byte) []byte { return m[:len(m)-1] })
	if err := runEcho([]string{"-url", url, "-c", "1", "-warmup", "0", "-d", "200ms"}); err == nil {
		t.Fatal("a truncated echo was not reported")
	}
}

func TestEchoReportsAMissingEcho(t *testing.T) {
	url := echoServer(t, func(m []byte) []byte {
		time.Sleep(time.Second) // longer than -timeout
		return m
	})
	if err := runEcho([]string{"-url", url, "-c", "1", "-warmup", "0", "-d", "100ms", "-timeout", "200ms"}); err == nil {
		t.Fatal("an echo that never came in time was not reported")
	}
}

func TestIdleHoldsPingsAndClosesEverySession(t *testing.T) {
	url := echoServer(t, func(m []byte) []byte { return m })
	if err := runIdle([]string{"-url", url, "-n", "50", "-dial-concurrency", "10", "-hold", "100ms"}); err != nil {
		t.Fatal(err)
	}
}

func TestIdleReportsSessionsTheServerEnded(t *testing.T) {
	upgrader := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := upgrader.Upgrade(w, r, nil); err == nil {
			c.Close() // drops the session at once, without a close frame
		}
	}))
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/idle"
	if err := runIdle([]string{"-url", url, "-n", "5", "-hold", "200ms", "-timeout", "1s"}); err == nil {
		t.Fatal("sessions the server dropped were not reported")
	}
}

func TestOnlyLoopbackURLsAreAccepted(t *testing.T) {
	for _, u := range []string{"ws://127.0.0.1:1/x", "ws://localhost:1/x", "ws://[::1]:1/x"} {
		if err := checkURL(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []string{"ws://10.0.0.1:1/x", "ws://example.com/x", "wss://127.0.0.1:1/x", "http://127.0.0.1:1/"} {
		if err := checkURL(u); err == nil {
			t.Errorf("%s was accepted", u)
		}
	}
}

func TestNearestRankPercentiles(t *testing.T) {
	lat := make([]time.Duration, 0, 1000)
	for i := 1; i <= 1000; i++ {
		lat = append(lat, time.Duration(i)*time.Microsecond)
	}
	if got := percentile(lat, 0.5); got != 500*time.Microsecond {
		t.Errorf("p50 = %v", got)
	}
	if got := percentile(lat, 0.99); got != 990*time.Microsecond {
		t.Errorf("p99 = %v", got)
	}
	if got := percentile(lat, 1); got != 1000*time.Microsecond {
		t.Errorf("max = %v", got)
	}
}
