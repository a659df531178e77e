package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

type echoConfig struct {
	conns, size, window int
	compress            bool
	runFlags
}

// echoResult is what one connection measured: the echoes received inside the measured window
// and their round-trip times.
type echoResult struct {
	count   int64
	latency []time.Duration
}

func runEcho(args []string) error {
	var cfg echoConfig
	fs := flag.NewFlagSet("echo", flag.ExitOnError)
	fs.IntVar(&cfg.conns, "c", 64, "connections (1-20000)")
	fs.IntVar(&cfg.size, "size", 256, "bytes per text message (16-1048576)")
	fs.IntVar(&cfg.window, "window", 1, "messages in flight per connection (1-1024); 1 = strict request/echo")
	fs.BoolVar(&cfg.compress, "compress", false, "offer permessage-deflate (the server may accept it)")
	cfg.register(fs, "echo endpoint")
	if err := cfg.parse(fs, args); err != nil {
		return err
	}
	switch {
	case cfg.conns < 1 || cfg.conns > 20000:
		return fmt.Errorf("-c must be 1-20000")
	case cfg.size < 16 || cfg.size > 1<<20:
		return fmt.Errorf("-size must be 16-1048576")
	case cfg.window < 1 || cfg.window > 1024:
		return fmt.Errorf("-window must be 1-1024")
	}

	errs := &errorLog{}
	dialer := &websocket.Dialer{
		HandshakeTimeout:  cfg.timeout,
		ReadBufferSize:    4096,
		WriteBufferSize:   4096,
		EnableCompression: cfg.compress,
	}
	conns, negotiated := dialAll(dialer, cfg.url, cfg.conns, 64, errs)

	start := time.Now()
	warmEnd := start.Add(cfg.warmup)
	end := warmEnd.Add(cfg.duration)
	results := make([]echoResult, len(conns))
	var wg sync.WaitGroup
	for i, c := range conns {
		if c == nil {
			continue
		}
		wg.Add(1)
		go func(i int, c *websocket.Conn) {
			defer wg.Done()
			results[i] = newEchoConn(c, i, &cfg, warmEnd, end, errs).run()
		}(i, c)
	}
	time.Sleep(time.Until(warmEnd))
	before := sampleCPU(cfg.pid)
	time.Sleep(time.Until(end))
	after := sampleCPU(cfg.pid)
	wg.Wait()

	var messages int64
	var latency []time.Duration
	for _, r := range results {
		messages += r.count
		latency = append(latency, r.latency...)
	}
	compression := "off"
	if cfg.compress {
		compression = "offered"
	}
	if negotiated == "" {
		negotiated = "none"
	}
	fmt.Printf("mode=echo\nurl=%s\nconnections=%d\nsize=%d\nwindow=%d\nwarmup=%s\nduration=%s\ncompression=%s\nextensions=%s\n",
		cfg.url, cfg.conns, cfg.size, cfg.window, cfg.warmup, cfg.duration, compression, negotiated)
	fmt.Printf("messages=%d\n", messages)
	fmt.Printf("msgs_per_sec=%.1f\n", float64(messages)/cfg.duration.Seconds())
	printLatencies(latency)
	printCPU(before, after, messages)
	errs.print()
	if errs.count > 0 {
		return errors.New("there were errors (see error= lines)")
	}
	return nil
}

// echoConn is the state of one connection of the echo load: its messages (a 16-digit sequence
// number followed by a connection-specific body, so that a wrong, reordered or mixed-up echo is
// caught) and what it measured.
type echoConn struct {
	c         *websocket.Conn
	id        int
	cfg       *echoConfig
	sentClose atomic.Bool
	fill      []byte
	got, want []byte
	warmEnd   time.Time
	end       time.Time
	errs      *errorLog
	result    echoResult  // written by the goroutine that receives
	failed    atomic.Bool // set by either goroutine
}

func newEchoConn(c *websocket.Conn, id int, cfg *echoConfig, warmEnd, end time.Time, errs *errorLog) *echoConn {
	e := &echoConn{c: c, id: id, cfg: cfg, warmEnd: warmEnd, end: end, errs: errs,
		got: make([]byte, cfg.size+1), want: make([]byte, cfg.size)}
	e.result.latency = make([]time.Duration, 0, 4096)
	answerCloseOnce(c, &e.sentClose, cfg.timeout)
	rnd := rand.New(rand.NewSource(int64(id) + 1))
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "
	e.fill = make([]byte, cfg.size)
	for i := range e.fill {
		e.fill[i] = alphabet[rnd.Intn(len(alphabet))]
	}
	return e
}

// message writes message number seq into buf.
func (e *echoConn) message(buf []byte, seq uint64) {
	copy(buf, e.fill)
	s := strconv.FormatUint(seq, 10)
	for i := 0; i < 16-len(s); i++ {
		buf[i] = '0'
	}
	copy(buf[16-len(s):16], s)
}

func (e *echoConn) fail(err error) {
	e.errs.add(fmt.Errorf("connection %d: %w", e.id, err))
	e.failed.Store(true)
	_ = e.c.Close()
}

// send writes message number seq.
func (e *echoConn) send(buf []byte, seq uint64, now time.Time) bool {
	e.message(buf, seq)
	_ = e.c.SetWriteDeadline(now.Add(e.cfg.timeout))
	if err := e.c.WriteMessage(websocket.TextMessage, buf); err != nil {
		e.fail(fmt.Errorf("writing message %d: %w", seq, err))
		return false
	}
	return true
}

// receive reads the next message, checks that it is the echo of message seq, byte for byte, and
// records its round-trip time if it arrived inside [warmEnd, end).
func (e *echoConn) receive(seq uint64, sentAt time.Time) bool {
	_ = e.c.SetReadDeadline(time.Now().Add(e.cfg.timeout))
	kind, rd, err := e.c.NextReader()
	if err != nil {
		e.fail(fmt.Errorf("reading echo %d: %w", seq, err))
		return false
	}
	n, err := io.ReadFull(rd, e.got)
	if kind != websocket.TextMessage {
		e.fail(fmt.Errorf("echo %d is not a text message (opcode %d)", seq, kind))
		return false
	}
	if err != io.ErrUnexpectedEOF || n != e.cfg.size {
		if err == nil || err == io.ErrUnexpectedEOF || err == io.EOF {
			err = fmt.Errorf("echo %d has the wrong length (%d bytes read of %d)", seq, n, e.cfg.size)
		}
		e.fail(err)
		return false
	}
	e.message(e.want, seq)
	if !bytes.Equal(e.got[:n], e.want) {
		e.fail(fmt.Errorf("echo %d differs from the message sent", seq))
		return false
	}
	now := time.Now()
	if !now.Before(e.warmEnd) && now.Before(e.end) {
		e.result.count++
		e.result.latency = append(e.result.latency, now.Sub(sentAt))
	}
	return true
}

// run drives the connection until end, then runs the close handshake.
func (e *echoConn) run() echoResult {
	if e.cfg.window == 1 {
		e.serial()
	} else {
		e.windowed()
	}
	if e.failed.Load() {
		return e.result
	}
	if err := sendClose(e.c, &e.sentClose, e.cfg.timeout); err != nil {
		e.fail(fmt.Errorf("sending close: %w", err))
		return e.result
	}
	_ = e.c.SetReadDeadline(time.Now().Add(e.cfg.timeout))
	if _, _, err := e.c.NextReader(); !isNormalClose(err) {
		e.fail(fmt.Errorf("expected the server's close frame with 1000, got %v", err))
		return e.result
	}
	awaitServerClose(e.c, e.cfg.timeout)
	return e.result
}

// serial is the strict closed loop (window 1) on one goroutine: send, wait for the echo, repeat.
func (e *echoConn) serial() {
	buf := make([]byte, e.cfg.size)
	for seq := uint64(0); ; seq++ {
		now := time.Now()
		if !now.Before(e.end) || !e.send(buf, seq, now) || !e.receive(seq, now) {
			return
		}
	}
}

// windowed keeps up to cfg.window messages in flight: this goroutine sends whenever fewer are
// unanswered, a reader goroutine takes the echoes in order.
func (e *echoConn) windowed() {
	type sent struct {
		at  time.Time
		seq uint64
	}
	tokens := make(chan struct{}, e.cfg.window)
	for i := 0; i < e.cfg.window; i++ {
		tokens <- struct{}{}
	}
	pending := make(chan sent, e.cfg.window) // never blocks: a send first takes a token
	readerFailed := make(chan struct{})
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for s := range pending {
			if !e.receive(s.seq, s.at) {
				close(readerFailed)
				return
			}
			tokens <- struct{}{}
		}
	}()
	buf := make([]byte, e.cfg.size)
	var seq uint64
loop:
	for {
		select {
		case <-tokens:
		case <-readerFailed:
			break loop
		}
		now := time.Now()
		if !now.Before(e.end) {
			break
		}
		pending <- sent{now, seq}
		if !e.send(buf, seq, now) { // closes the connection, which ends the reader's wait
			break
		}
		seq++
	}
	close(pending)
	<-readerDone
}
