// Command ws-load is the WebSocket load generator of bench/run-ws.sh and bench/run-ws-jakarta.sh. It is
// a client of the server under test only: it speaks RFC 6455 (and, for the stomp mode, STOMP 1.2) through
// github.com/gorilla/websocket and its own frame code, not through any code of this repository, so Weft,
// Tomcat and Jetty are measured by the same third-party client.
//
//	ws-load echo -url ws://127.0.0.1:PORT/echo [-c 64] [-size 256] [-window 1] [-warmup 5s] [-d 10s] [-compress] [-pid PID]
//	ws-load idle -url ws://127.0.0.1:PORT/echo [-n 10000] [-dial-concurrency 100] [-hold 120s]
//	ws-load stomp -url ws://127.0.0.1:PORT/stomp [-c 1000] [-topic /topic/broadcast] [-send /app/broadcast]
//	              [-size 256] [-rate 0] [-window 4] [-warmup 5s] [-d 10s] [-pid PID]
//
// echo: -c connections, each a closed loop that sends a text message of -size bytes and waits for
// its echo (with -window > 1, up to that many messages are in flight on a connection). After -warmup
// it counts the echoes received for -d and reports messages/s and the latency percentiles of those
// messages; with -pid, also the CPU time the server process and this process used in that window.
// Compression is not offered unless -compress is given.
//
// idle: opens -n sessions (-dial-concurrency handshakes at a time), prints "open=N", then holds them
// until SIGUSR1 (or -hold), pings every session and counts the pongs ("alive=N"), and closes them all
// with a close handshake ("closed=N").
//
// stomp: STOMP 1.2 over WebSocket (subprotocol v12.stomp). -c subscriber connections CONNECT and
// SUBSCRIBE to -topic; one more connection, the publisher, SENDs messages to -send, which the application
// relays to -topic. Each body carries its sequence number and the time it was sent (for -rate, the time it
// was due), so every subscriber checks that it gets every message once and in order and measures its
// delivery latency. First the publisher sends a probe every 20 ms until every subscriber has received one
// (the subscriptions are in place); then it sends -rate messages per second (open loop), or with -rate 0
// as fast as the subscribers take them: a closed loop with at most -window messages not yet delivered to
// every subscriber. After -warmup it counts the messages delivered to all subscribers for -d and reports
// delivered messages/s, broadcasts/s and the delivery latency percentiles; with -pid, also the CPU time
// per delivered message. Then it waits until every subscriber has the last message, and closes every
// connection with a close handshake.
//
// Output: "key=value" lines on stdout, errors on stderr. The exit status is 0 only when there was no
// error (every connection opened, every echo arrived intact and in time, every session closed cleanly).
package main

import (
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "echo":
		err = runEcho(os.Args[2:])
	case "idle":
		err = runIdle(os.Args[2:])
	case "stomp":
		err = runStomp(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ws-load:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: ws-load echo|idle|stomp -url ws://127.0.0.1:PORT/PATH [flags]   (ws-load echo -h for the flags)")
	os.Exit(2)
}

// checkURL accepts only ws:// URLs on the loopback interface: this tool is a benchmark client for a
// server on the same machine, never a load generator against anything else.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("bad -url %q: %v", raw, err)
	}
	if u.Scheme != "ws" {
		return fmt.Errorf("-url must be ws:// (got %q)", raw)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-url must point at 127.0.0.1, ::1 or localhost (got host %q)", host)
	}
	return nil
}

// runFlags are the flags of the echo and stomp modes alike: the endpoint, the load's warm-up and measured
// window, the longest wait for anything, and the server process whose CPU time is read.
type runFlags struct {
	url                       string
	warmup, duration, timeout time.Duration
	pid                       int
}

// register defines the shared flags on fs; endpoint says what -url must point at.
func (f *runFlags) register(fs *flag.FlagSet, endpoint string) {
	fs.StringVar(&f.url, "url", "", "ws://127.0.0.1:PORT/PATH of the "+endpoint+" (loopback only)")
	fs.DurationVar(&f.warmup, "warmup", 5*time.Second, "load before the measured window (0-10m)")
	fs.DurationVar(&f.duration, "d", 10*time.Second, "measured window (1ms-10m)")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Second,
		"longest wait for a handshake, a message, a write or the close (1ms-60s)")
	fs.IntVar(&f.pid, "pid", 0, "server process id: report its CPU time per message from /proc (0 = do not)")
}

// parse parses args with fs (on which register defined the shared flags) and checks the shared flags.
func (f *runFlags) parse(fs *flag.FlagSet, args []string) error {
	_ = fs.Parse(args)
	if err := checkURL(f.url); err != nil {
		return err
	}
	switch {
	case f.warmup < 0 || f.warmup > 10*time.Minute:
		return fmt.Errorf("-warmup must be 0-10m")
	case f.duration < time.Millisecond || f.duration > 10*time.Minute:
		return fmt.Errorf("-d must be 1ms-10m")
	case f.timeout < time.Millisecond || f.timeout > time.Minute:
		return fmt.Errorf("-timeout must be 1ms-60s")
	case f.pid < 0:
		return fmt.Errorf("-pid must be a process id")
	}
	return nil
}

// errorLog counts errors and keeps the first few messages for the report.
type errorLog struct {
	mu    sync.Mutex
	count int
	first []string
}

func (e *errorLog) add(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.count++
	if len(e.first) < 5 {
		e.first = append(e.first, err.Error())
	}
}

func (e *errorLog) print() {
	e.mu.Lock()
	defer e.mu.Unlock()
	fmt.Printf("errors=%d\n", e.count)
	for _, m := range e.first {
		fmt.Printf("error=%s\n", strings.ReplaceAll(m, "\n", " "))
	}
}
