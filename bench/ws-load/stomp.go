package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// The STOMP broadcast load: -c subscribers CONNECT and SUBSCRIBE to -topic; one more connection, the
// publisher, SENDs messages to -send, which the application relays to the topic. Every message body starts
// with its sequence number and the time it was (meant to be) sent, so each subscriber can tell its delivery
// latency and catch a lost, duplicated or reordered message.

type stompConfig struct {
	topic, send                  string
	subs, size, window, dialConc int
	rate                         float64
	settle                       time.Duration
	runFlags
}

// Body layout: 16 digits of sequence number, a space, 19 digits of nanoseconds since the run's clock
// started, a space, then filler up to -size bytes.
const (
	stompSeqDigits  = 16
	stompTimeDigits = 19
	stompHeaderLen  = stompSeqDigits + 1 + stompTimeDigits + 1
)

func encodeBroadcastBody(buf []byte, seq uint64, at time.Duration) {
	for i := range buf {
		buf[i] = 'x'
	}
	s := strconv.FormatUint(seq, 10)
	for i := 0; i < stompSeqDigits-len(s); i++ {
		buf[i] = '0'
	}
	copy(buf[stompSeqDigits-len(s):stompSeqDigits], s)
	buf[stompSeqDigits] = ' '
	t := strconv.FormatInt(int64(at), 10)
	off := stompSeqDigits + 1
	for i := 0; i < stompTimeDigits-len(t); i++ {
		buf[off+i] = '0'
	}
	copy(buf[off+stompTimeDigits-len(t):off+stompTimeDigits], t)
	buf[stompHeaderLen-1] = ' '
}

func decodeBroadcastBody(body []byte, size int) (seq uint64, at time.Duration, err error) {
	if len(body) != size {
		return 0, 0, fmt.Errorf("body of %d bytes, sent %d", len(body), size)
	}
	seq, err1 := strconv.ParseUint(string(body[:stompSeqDigits]), 10, 64)
	t, err2 := strconv.ParseInt(string(body[stompSeqDigits+1:stompHeaderLen-1]), 10, 64)
	if err1 != nil || err2 != nil || body[stompSeqDigits] != ' ' || body[stompHeaderLen-1] != ' ' {
		return 0, 0, fmt.Errorf("body %q is not a message of this run", body[:stompHeaderLen])
	}
	return seq, time.Duration(t), nil
}

func runStomp(args []string) error {
	var cfg stompConfig
	fs := flag.NewFlagSet("stomp", flag.ExitOnError)
	fs.IntVar(&cfg.subs, "c", 1000, "subscriber connections (1-20000); the publisher is one more")
	fs.StringVar(&cfg.topic, "topic", "/topic/broadcast", "destination the subscribers SUBSCRIBE to")
	fs.StringVar(&cfg.send, "send", "/app/broadcast", "destination the publisher SENDs to (the app relays it to -topic)")
	fs.IntVar(&cfg.size, "size", 256, "bytes per message body (48-65536)")
	fs.Float64Var(&cfg.rate, "rate", 0, "messages the publisher sends per second; 0 = closed loop (see -window)")
	fs.IntVar(&cfg.window, "window", 4, "closed loop: messages sent but not yet delivered to every subscriber (1-1024)")
	fs.DurationVar(&cfg.settle, "settle", 30*time.Second, "longest wait until every subscription receives messages (1ms-10m)")
	fs.IntVar(&cfg.dialConc, "dial-concurrency", 64, "handshakes (WebSocket and STOMP CONNECT) at a time (1-1000)")
	cfg.register(fs, "STOMP endpoint")
	if err := cfg.parse(fs, args); err != nil {
		return err
	}
	switch {
	case cfg.subs < 1 || cfg.subs > 20000:
		return fmt.Errorf("-c must be 1-20000")
	case cfg.size < stompHeaderLen+11 || cfg.size > 65536:
		return fmt.Errorf("-size must be %d-65536", stompHeaderLen+11)
	case cfg.window < 1 || cfg.window > 1024:
		return fmt.Errorf("-window must be 1-1024")
	case cfg.rate < 0 || cfg.rate > 1e6:
		return fmt.Errorf("-rate must be 0-1000000")
	case cfg.settle < time.Millisecond || cfg.settle > 10*time.Minute:
		return fmt.Errorf("-settle must be 1ms-10m")
	case cfg.dialConc < 1 || cfg.dialConc > 1000:
		return fmt.Errorf("-dial-concurrency must be 1-1000")
	case cfg.rate > 0 && time.Duration(float64(time.Second)/cfg.rate) >= cfg.timeout:
		return fmt.Errorf("-rate must send more than one message per -timeout")
	case cfg.topic == "" || cfg.send == "":
		return fmt.Errorf("-topic and -send must not be empty")
	}
	return newStompRun(&cfg).run()
}

// stompRun is the state of one STOMP broadcast run.
type stompRun struct {
	cfg   *stompConfig
	clock time.Time // latencies are differences of durations since clock (monotonic)
	errs  *errorLog
	subs  []*stompSub

	seen      atomic.Int64 // subscribers that have received at least one message
	firstFull uint64       // closed loop: first sequence number every subscriber must receive (set before use)
	ring      []atomic.Int32
	tokens    chan struct{}
	stopped   atomic.Bool // set when the run ends early (a failure): subscribers stop returning tokens
	lastSent  atomic.Int64
	// The measured window, as durations since clock (0, 0 until the load starts: nothing is counted). Subscribers
	// read them while the publisher's goroutine sets them.
	warmEndAt, endAt atomic.Int64
	warmEnd, end     time.Time // the same instants, for the publisher's goroutine
}

// stompConn is what a subscriber and the publisher have alike: the connection, whose reading goroutine
// closes done when it ends, its first failure (which closes it) and its close handshake.
type stompConn struct {
	c         *websocket.Conn
	name      string // "subscriber 7", "publisher": the errors' prefix
	errs      *errorLog
	timeout   time.Duration
	sentClose atomic.Bool
	closing   atomic.Bool // set before this side sends its close frame
	failed    atomic.Bool
	done      chan struct{}
}

func newStompConn(c *websocket.Conn, name string, r *stompRun) stompConn {
	return stompConn{c: c, name: name, errs: r.errs, timeout: r.cfg.timeout, done: make(chan struct{})}
}

// start makes the connection answer the server's close frame, then runs read on a goroutine of its own.
func (k *stompConn) start(read func()) {
	answerCloseOnce(k.c, &k.sentClose, k.timeout)
	go func() {
		defer close(k.done)
		read()
	}()
}

func (k *stompConn) fail(err error) {
	if k.failed.CompareAndSwap(false, true) {
		k.errs.add(fmt.Errorf("%s: %w", k.name, err))
		_ = k.c.Close()
	}
}

// readFailed judges the error that ended a read: the server's close frame (1000) after ours, or a failure.
func (k *stompConn) readFailed(err error) {
	switch {
	case k.closing.Load() && isNormalClose(err):
	case k.closing.Load():
		k.fail(fmt.Errorf("expected the server's close frame with 1000, got %v", err))
	default:
		k.fail(fmt.Errorf("reading: %w", err))
	}
}

// next reads the next WebSocket message (until deadline; zero = no limit) and parses its frames; false when
// the connection ended or failed (judged by readFailed or fail).
func (k *stompConn) next(deadline time.Time) ([]stompFrame, bool) {
	_ = k.c.SetReadDeadline(deadline)
	_, data, err := k.c.ReadMessage()
	if err != nil {
		k.readFailed(err)
		return nil, false
	}
	frames, err := parseStompFrames(data)
	if err != nil {
		k.fail(err)
		return nil, false
	}
	return frames, true
}

// close runs the close handshake (unless the connection failed) and waits for the reading goroutine to end.
func (k *stompConn) close() {
	if k.failed.Load() {
		<-k.done
		return
	}
	k.closing.Store(true)
	if err := sendClose(k.c, &k.sentClose, k.timeout); err != nil {
		k.fail(fmt.Errorf("sending close: %w", err))
	}
	<-k.done
	if !k.failed.Load() {
		awaitServerClose(k.c, k.timeout)
	}
}

// stompSub is one subscriber connection and what it measured.
type stompSub struct {
	stompConn
	r          *stompRun
	seenAny    bool
	tracking   bool
	track      seqTracker   // the messages from firstFull on
	low        atomic.Int64 // track.low, for drain: every message from firstFull to low-1 has arrived
	outOfOrder int64
	count      int64
	latency    []time.Duration
}

func newStompRun(cfg *stompConfig) *stompRun {
	r := &stompRun{cfg: cfg, clock: time.Now(), errs: &errorLog{}}
	r.lastSent.Store(-1)
	return r
}

func (r *stompRun) now() time.Duration { return time.Since(r.clock) }

func (r *stompRun) dialer() *websocket.Dialer {
	return &websocket.Dialer{
		HandshakeTimeout: r.cfg.timeout,
		ReadBufferSize:   4096,
		WriteBufferSize:  4096,
		Subprotocols:     []string{"v12.stomp"},
	}
}

// stompConnect runs the STOMP CONNECT handshake on c and waits for CONNECTED.
func stompConnect(c *websocket.Conn, host string, timeout time.Duration) error {
	frame := encodeStompFrame("CONNECT", []stompHeader{
		{"accept-version", "1.2"}, {"host", host}, {"heart-beat", "0,0"}}, nil)
	_ = c.SetWriteDeadline(time.Now().Add(timeout))
	if err := c.WriteMessage(websocket.TextMessage, frame); err != nil {
		return fmt.Errorf("sending CONNECT: %w", err)
	}
	_ = c.SetReadDeadline(time.Now().Add(timeout))
	_, data, err := c.ReadMessage()
	if err != nil {
		return fmt.Errorf("waiting for CONNECTED: %w", err)
	}
	frames, err := parseStompFrames(data)
	if err != nil {
		return fmt.Errorf("answer to CONNECT: %w", err)
	}
	if len(frames) != 1 || frames[0].command != "CONNECTED" {
		return fmt.Errorf("answer to CONNECT is not one CONNECTED frame: %s", describeFrames(frames))
	}
	if v := frames[0].headers["version"]; v != "1.2" {
		return fmt.Errorf("CONNECTED with version %q, not 1.2", v)
	}
	return nil
}

func describeFrames(frames []stompFrame) string {
	if len(frames) == 0 {
		return "no frame"
	}
	f := frames[0]
	s := f.command
	if m := f.headers["message"]; m != "" {
		s += " (" + m + ")"
	}
	if len(frames) > 1 {
		s += fmt.Sprintf(" and %d more", len(frames)-1)
	}
	return s
}

func (r *stompRun) run() error {
	cfg := r.cfg
	host := "127.0.0.1"
	conns, _ := dialAll(r.dialer(), cfg.url, cfg.subs, cfg.dialConc, r.errs)
	var opened int64
	forEach(len(conns), cfg.dialConc, func(i int) {
		c := conns[i]
		if c == nil {
			return
		}
		err := stompConnect(c, host, cfg.timeout)
		if err == nil {
			sub := encodeStompFrame("SUBSCRIBE", []stompHeader{
				{"id", "sub-" + strconv.Itoa(i)}, {"destination", cfg.topic}, {"ack", "auto"}}, nil)
			_ = c.SetWriteDeadline(time.Now().Add(cfg.timeout))
			err = c.WriteMessage(websocket.TextMessage, sub)
		}
		if err != nil {
			r.errs.add(fmt.Errorf("subscriber %d: %w", i, err))
			_ = c.Close()
			conns[i] = nil
			return
		}
		atomic.AddInt64(&opened, 1)
	})
	pubConn, _, err := r.dialer().Dial(cfg.url, nil)
	if err == nil {
		if err = stompConnect(pubConn, host, cfg.timeout); err != nil {
			_ = pubConn.Close()
		}
	}
	fmt.Printf("mode=stomp\nurl=%s\nsubscribers=%d\nopen=%d\ntopic=%s\nsend=%s\nsize=%d\n",
		cfg.url, cfg.subs, opened, cfg.topic, cfg.send, cfg.size)
	if cfg.rate > 0 {
		fmt.Printf("publisher=rate %.1f/s\n", cfg.rate)
	} else {
		fmt.Printf("publisher=closed loop, window %d\n", cfg.window)
	}
	fmt.Printf("warmup=%s\nduration=%s\n", cfg.warmup, cfg.duration)
	if err != nil {
		r.errs.add(fmt.Errorf("publisher: %w", err))
	}
	if err != nil || opened < int64(cfg.subs) {
		for _, c := range conns {
			if c != nil {
				_ = c.Close()
			}
		}
		r.errs.print()
		return errors.New("not every connection opened (see error= lines)")
	}

	r.tokens = make(chan struct{}, cfg.window)
	r.ring = make([]atomic.Int32, cfg.window)
	r.firstFull = ^uint64(0)
	for i, c := range conns {
		r.subs = append(r.subs, &stompSub{stompConn: newStompConn(c, "subscriber "+strconv.Itoa(i), r), r: r,
			latency: make([]time.Duration, 0, 4096)})
	}
	pub := &stompPublisher{stompConn: newStompConn(pubConn, "publisher", r), r: r}
	pub.start(pub.readErrors)

	// Settle: every subscriber must receive a message before the load starts (a SUBSCRIBE takes effect
	// asynchronously); the probes' sequence numbers are the run's first.
	var before, after cpuSample
	var broadcasts int64
	ok := true
	for _, s := range r.subs {
		s.start(s.read)
	}
	ok = pub.settle()
	if ok {
		start := time.Now()
		r.warmEnd = start.Add(cfg.warmup)
		r.end = r.warmEnd.Add(cfg.duration)
		r.endAt.Store(int64(r.end.Sub(r.clock)))
		r.warmEndAt.Store(int64(r.warmEnd.Sub(r.clock)))
		cpuDone := make(chan struct{})
		go func() {
			defer close(cpuDone)
			time.Sleep(time.Until(r.warmEnd))
			before = sampleCPU(cfg.pid)
			time.Sleep(time.Until(r.end))
			after = sampleCPU(cfg.pid)
		}()
		broadcasts = pub.load()
		<-cpuDone
	}
	r.stopped.Store(true)
	r.drain()
	r.closeAll(pub)

	var delivered, outOfOrder int64
	var latency []time.Duration
	for _, s := range r.subs {
		outOfOrder += s.outOfOrder
		delivered += s.count
		latency = append(latency, s.latency...)
	}
	fmt.Printf("broadcasts=%d\nbroadcasts_per_sec=%.1f\n", broadcasts, float64(broadcasts)/cfg.duration.Seconds())
	fmt.Printf("messages=%d\nmsgs_per_sec=%.1f\n", delivered, float64(delivered)/cfg.duration.Seconds())
	fmt.Printf("out_of_order=%d\n", outOfOrder)
	printLatencies(latency)
	if ok {
		printCPU(before, after, delivered)
	}
	r.errs.print()
	if r.errs.count > 0 {
		return errors.New("there were errors (see error= lines)")
	}
	return nil
}

// drain waits (up to -timeout) until every live subscriber has received the last message sent.
func (r *stompRun) drain() {
	last := r.lastSent.Load()
	if last < 0 || uint64(last) < r.firstFullLoad() {
		return // no message every subscriber must have
	}
	deadline := time.Now().Add(r.cfg.timeout)
	for _, s := range r.subs {
		for !s.failed.Load() && s.low.Load() <= last && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if !s.failed.Load() && s.low.Load() <= last {
			s.fail(fmt.Errorf("message %d not delivered within %s after the publisher stopped (the last sent was %d)",
				s.low.Load(), r.cfg.timeout, last))
		}
	}
}

// closeAll runs the close handshake on every connection still open.
func (r *stompRun) closeAll(pub *stompPublisher) {
	var wg sync.WaitGroup
	for _, s := range r.subs {
		wg.Add(1)
		go func(s *stompSub) {
			defer wg.Done()
			s.close()
		}(s)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		pub.close()
	}()
	wg.Wait()
}

// read takes the subscriber's frames until the connection ends: MESSAGE frames of the topic are checked
// (from firstFull on, every message exactly once; Spring's broker, for one, does not keep their order unless
// the application asks it to, so order is not required) and, inside the measured window, counted with their latency;
// the closed loop's delivery counters are advanced.
func (s *stompSub) read() {
	for {
		frames, ok := s.next(time.Now().Add(s.timeout))
		if !ok {
			return
		}
		for _, f := range frames {
			if !s.message(f) {
				return
			}
		}
	}
}

func (s *stompSub) message(f stompFrame) bool {
	r := s.r
	if f.command != "MESSAGE" {
		s.fail(fmt.Errorf("unexpected %s frame", describeFrames([]stompFrame{f})))
		return false
	}
	if d := f.headers["destination"]; d != r.cfg.topic {
		s.fail(fmt.Errorf("MESSAGE for destination %q, subscribed to %q", d, r.cfg.topic))
		return false
	}
	seq, at, err := decodeBroadcastBody(f.body, r.cfg.size)
	if err != nil {
		s.fail(err)
		return false
	}
	now := r.now()
	if !s.seenAny {
		s.seenAny = true
		r.seen.Add(1)
	}
	if ff := r.firstFullLoad(); seq >= ff {
		if !s.tracking {
			s.tracking = true
			s.track = newSeqTracker(ff)
		}
		inOrder, err := s.track.add(seq)
		if err != nil {
			s.fail(err)
			return false
		}
		if !inOrder {
			s.outOfOrder++
		}
		s.low.Store(int64(s.track.low))
		if r.cfg.rate == 0 && !r.stopped.Load() {
			slot := &r.ring[(seq-ff)%uint64(len(r.ring))]
			if slot.Add(1) == int32(len(r.subs)) {
				slot.Store(0)
				r.tokens <- struct{}{}
			}
		}
	}
	if int64(now) >= r.warmEndAt.Load() && int64(now) < r.endAt.Load() {
		s.count++
		s.latency = append(s.latency, now-at)
	}
	return true
}

func (r *stompRun) firstFullLoad() uint64 { return atomic.LoadUint64(&r.firstFull) }

// stompPublisher is the connection that SENDs the broadcasts.
type stompPublisher struct {
	stompConn
	r   *stompRun
	seq uint64
}

// readErrors reads the publisher's connection: the application sends it nothing, so any frame (an ERROR,
// say) is reported; at the end it takes the server's close frame.
func (p *stompPublisher) readErrors() {
	if frames, ok := p.next(time.Time{}); ok {
		p.fail(fmt.Errorf("unexpected %s frame", describeFrames(frames)))
	}
}

// send SENDs the next message, stamped with at (its time since the run's clock).
func (p *stompPublisher) send(body []byte, at time.Duration) bool {
	encodeBroadcastBody(body, p.seq, at)
	frame := encodeStompFrame("SEND", []stompHeader{
		{"destination", p.r.cfg.send}, {"content-type", "text/plain;charset=UTF-8"}}, body)
	_ = p.c.SetWriteDeadline(time.Now().Add(p.r.cfg.timeout))
	if err := p.c.WriteMessage(websocket.TextMessage, frame); err != nil {
		p.fail(fmt.Errorf("sending message %d: %w", p.seq, err))
		return false
	}
	p.r.lastSent.Store(int64(p.seq))
	p.seq++
	return true
}

// settle sends a probe every 20 ms until every subscriber has received one (at most -settle); from then on
// every subscriber must receive every message.
func (p *stompPublisher) settle() bool {
	r := p.r
	body := make([]byte, r.cfg.size)
	deadline := time.Now().Add(r.cfg.settle)
	for r.seen.Load() < int64(len(r.subs)) {
		if p.failed.Load() || time.Now().After(deadline) {
			p.fail(fmt.Errorf("after %s only %d of %d subscribers receive the topic's messages",
				r.cfg.settle, r.seen.Load(), len(r.subs)))
			return false
		}
		if !p.send(body, r.now()) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	atomic.StoreUint64(&r.firstFull, p.seq)
	for i := 0; i < r.cfg.window; i++ {
		r.tokens <- struct{}{}
	}
	return true
}

// load sends until the end of the measured window and returns how many messages were sent inside it.
func (p *stompPublisher) load() int64 {
	r := p.r
	body := make([]byte, r.cfg.size)
	var inWindow int64
	var interval time.Duration
	if r.cfg.rate > 0 {
		interval = time.Duration(float64(time.Second) / r.cfg.rate)
	}
	start := time.Now()
	for i := int64(0); ; i++ {
		var at time.Duration
		if interval > 0 {
			// Open loop: message i is due at start + i*interval; its latency counts from then, so a publisher held
			// up by the server does not hide the delay (no coordinated omission).
			due := start.Add(time.Duration(i) * interval)
			if !due.Before(r.end) {
				break
			}
			time.Sleep(time.Until(due))
			at = due.Sub(r.clock)
		} else {
			select {
			case <-r.tokens:
			case <-time.After(r.cfg.timeout):
				p.fail(fmt.Errorf("message %d not delivered to every subscriber within %s", p.seq-uint64(r.cfg.window),
					r.cfg.timeout))
				return inWindow
			}
			at = r.now()
		}
		now := time.Now()
		if !now.Before(r.end) || p.failed.Load() {
			break
		}
		if !p.send(body, at) {
			break
		}
		if !now.Before(r.warmEnd) {
			inWindow++
		}
	}
	return inWindow
}

// seqTracker checks that a subscriber receives every sequence number from a start on exactly once, in any
// order within seqSpan: a number more than seqSpan ahead of the lowest one missing is an error too (closed
// loops keep at most -window, at most 1024, in flight).
type seqTracker struct {
	low  uint64 // every number from the start to low-1 has arrived, low has not
	bits [seqSpan / 64]uint64
}

const seqSpan = 4096

func newSeqTracker(start uint64) seqTracker { return seqTracker{low: start} }

// add records n; inOrder tells whether it was the lowest number missing.
func (t *seqTracker) add(n uint64) (inOrder bool, err error) {
	switch {
	case n < t.low:
		return false, fmt.Errorf("message %d arrived twice", n)
	case n >= t.low+seqSpan:
		return false, fmt.Errorf("message %d arrived while %d was still missing", n, t.low)
	}
	word, bit := (n%seqSpan)/64, uint64(1)<<(n%64)
	if t.bits[word]&bit != 0 {
		return false, fmt.Errorf("message %d arrived twice", n)
	}
	t.bits[word] |= bit
	inOrder = n == t.low
	for {
		w, b := (t.low%seqSpan)/64, uint64(1)<<(t.low%64)
		if t.bits[w]&b == 0 {
			return inOrder, nil
		}
		t.bits[w] &^= b
		t.low++
	}
}
