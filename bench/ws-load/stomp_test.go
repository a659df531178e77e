package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestParseStompFrames(t *testing.T) {
	type want struct {
		command string
		headers map[string]string
		body    string
	}
	tests := []struct {
		name  string
		in    string
		want  []want
		error string // a part of the error message; "" = no error
	}{
		{"message", "MESSAGE\ndestination:/topic/a\nsubscription:sub-0\n\nhello\x00",
			[]want{{"MESSAGE", map[string]string{"destination": "/topic/a", "subscription": "sub-0"}, "hello"}}, ""},
		{"CR LF line ends", "MESSAGE\r\ndestination:/topic/a\r\n\r\nhi\x00",
			[]want{{"MESSAGE", map[string]string{"destination": "/topic/a"}, "hi"}}, ""},
		{"no headers, no body", "RECEIPT\n\n\x00", []want{{"RECEIPT", map[string]string{}, ""}}, ""},
		{"content-length lets the body hold a NUL", "MESSAGE\ncontent-length:3\n\na\x00b\x00",
			[]want{{"MESSAGE", map[string]string{"content-length": "3"}, "a\x00b"}}, ""},
		{"heart-beats before, between and after frames", "\n\r\nA\n\n\x00\n\nB\n\n\x00\r\n",
			[]want{{"A", map[string]string{}, ""}, {"B", map[string]string{}, ""}}, ""},
		{"escaped header", "MESSAGE\nmessage:a\\cb\\nc\\\\d\\re\n\n\x00",
			[]want{{"MESSAGE", map[string]string{"message": "a:b\nc\\d\re"}, ""}}, ""},
		{"CONNECTED headers are not unescaped", "CONNECTED\nserver:x\\cy\n\n\x00",
			[]want{{"CONNECTED", map[string]string{"server": "x\\cy"}, ""}}, ""},
		{"a value may hold a colon", "MESSAGE\nmessage-id:a:b\n\n\x00",
			[]want{{"MESSAGE", map[string]string{"message-id": "a:b"}, ""}}, ""},
		{"the first of a repeated header wins", "MESSAGE\nfoo:1\nfoo:2\n\n\x00",
			[]want{{"MESSAGE", map[string]string{"foo": "1"}, ""}}, ""},
		{"only heart-beats", "\n\n", nil, ""},
		{"no NUL", "MESSAGE\n\nhello", nil, "not ended by a NUL"},
		{"no empty line after the headers", "MESSAGE\nfoo:1\n", nil, "not ended by an empty line"},
		{"no end of line after the command", "MESSAGE", nil, "no end of line"},
		{"header without a colon", "MESSAGE\nfoo\n\n\x00", nil, "bad header line"},
		{"header without a name", "MESSAGE\n:x\n\n\x00", nil, "bad header line"},
		{"undefined escape", "MESSAGE\nfoo:a\\tb\n\n\x00", nil, "undefined escape"},
		{"backslash at the end", "MESSAGE\nfoo:a\\\n\n\x00", nil, "ends in a backslash"},
		{"content-length beyond the data", "MESSAGE\ncontent-length:10\n\nabc\x00", nil, "shorter than its content-length"},
		{"content-length not followed by NUL", "MESSAGE\ncontent-length:1\n\nabc\x00", nil, "no NUL after"},
		{"bad content-length", "MESSAGE\ncontent-length:x\n\n\x00", nil, "bad content-length"},
		{"garbage after a frame", "A\n\n\x00junk", nil, "frame 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			frames, err := parseStompFrames([]byte(tc.in))
			if tc.error != "" {
				if err == nil || !strings.Contains(err.Error(), tc.error) {
					t.Fatalf("error %v, want one with %q", err, tc.error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []want
			for _, f := range frames {
				got = append(got, want{f.command, f.headers, string(f.body)})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestEncodedFramesParseBack(t *testing.T) {
	tests := []struct {
		command string
		headers []stompHeader
		body    string
	}{
		{"SEND", []stompHeader{{"destination", "/app/x"}, {"odd", "a:b\nc\\d\re"}}, "payload"},
		{"SEND", []stompHeader{{"destination", "/app/x"}}, "with\x00nul"},
		{"SUBSCRIBE", []stompHeader{{"id", "sub-1"}, {"destination", "/topic/t"}}, ""},
		{"CONNECT", []stompHeader{{"accept-version", "1.2"}, {"host", "127.0.0.1"}}, ""},
	}
	for _, tc := range tests {
		frames, err := parseStompFrames(encodeStompFrame(tc.command, tc.headers, []byte(tc.body)))
		if err != nil || len(frames) != 1 {
			t.Fatalf("%s: %v, %d frames", tc.command, err, len(frames))
		}
		f := frames[0]
		if f.command != tc.command || string(f.body) != tc.body {
			t.Errorf("%s: got %q with body %q", tc.command, f.command, f.body)
		}
		for _, h := range tc.headers {
			if f.headers[h.name] != h.value {
				t.Errorf("%s: header %s = %q, want %q", tc.command, h.name, f.headers[h.name], h.value)
			}
		}
		if tc.body != "" && f.headers["content-length"] != strconv.Itoa(len(tc.body)) {
			t.Errorf("%s: content-length %q", tc.command, f.headers["content-length"])
		}
	}
}

func TestBroadcastBodyRoundTrip(t *testing.T) {
	body := make([]byte, 64)
	encodeBroadcastBody(body, 1234567, 98765*time.Microsecond)
	seq, at, err := decodeBroadcastBody(body, 64)
	if err != nil || seq != 1234567 || at != 98765*time.Microsecond {
		t.Fatalf("got %d, %v, %v", seq, at, err)
	}
	if _, _, err := decodeBroadcastBody(body[:63], 64); err == nil {
		t.Error("a short body was accepted")
	}
	if _, _, err := decodeBroadcastBody(bytes.Repeat([]byte("a"), 64), 64); err == nil {
		t.Error("a foreign body was accepted")
	}
}

func TestSeqTracker(t *testing.T) {
	tests := []struct {
		name       string
		start      uint64
		seqs       []uint64
		low        uint64
		outOfOrder int
		error      string
	}{
		{"in order", 10, []uint64{10, 11, 12}, 13, 0, ""},
		{"reordered", 0, []uint64{1, 0, 3, 2, 4}, 5, 2, ""},
		{"gap open", 0, []uint64{0, 2, 3}, 1, 2, ""},
		{"duplicate below low", 0, []uint64{0, 1, 0}, 0, 0, "twice"},
		{"duplicate ahead of low", 0, []uint64{2, 2}, 0, 0, "twice"},
		{"too far ahead", 0, []uint64{seqSpan}, 0, 0, "still missing"},
		{"across the ring's end", seqSpan - 2, []uint64{seqSpan - 1, seqSpan, seqSpan - 2, seqSpan + 1}, seqSpan + 2, 2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newSeqTracker(tc.start)
			out := 0
			var err error
			for _, n := range tc.seqs {
				var in bool
				if in, err = tr.add(n); err != nil {
					break
				}
				if !in {
					out++
				}
			}
			if tc.error != "" {
				if err == nil || !strings.Contains(err.Error(), tc.error) {
					t.Fatalf("error %v, want one with %q", err, tc.error)
				}
				return
			}
			if err != nil || tr.low != tc.low || out != tc.outOfOrder {
				t.Fatalf("low %d, out of order %d, error %v; want %d, %d", tr.low, out, err, tc.low, tc.outOfOrder)
			}
		})
	}
}

// stompBroker is a minimal STOMP-over-WebSocket broker for the tests: CONNECT, SUBSCRIBE, and SEND to
// /app/broadcast relayed to every subscriber of /topic/broadcast, through deliver (which may drop or repeat).
func stompBroker(t *testing.T, deliver func(seq int, send func())) string {
	t.Helper()
	upgrader := websocket.Upgrader{Subprotocols: []string{"v12.stomp"}}
	type sub struct {
		mu sync.Mutex
		c  *websocket.Conn
		id string
	}
	var mu sync.Mutex
	var subs []*sub
	sent := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		me := &sub{c: c}
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			frames, err := parseStompFrames(data)
			if err != nil {
				return
			}
			for _, f := range frames {
				switch f.command {
				case "CONNECT":
					me.mu.Lock()
					_ = c.WriteMessage(websocket.TextMessage, encodeStompFrame("CONNECTED", []stompHeader{{"version", "1.2"}}, nil))
					me.mu.Unlock()
				case "SUBSCRIBE":
					me.id = f.headers["id"]
					mu.Lock()
					subs = append(subs, me)
					mu.Unlock()
				case "SEND":
					mu.Lock()
					seq := sent
					sent++
					targets := append([]*sub(nil), subs...)
					mu.Unlock()
					for _, s := range targets {
						s := s
						msg := encodeStompFrame("MESSAGE", []stompHeader{{"destination", "/topic/broadcast"},
							{"subscription", s.id}, {"message-id", strconv.Itoa(seq)}}, f.body)
						deliver(seq, func() {
							s.mu.Lock()
							_ = s.c.WriteMessage(websocket.TextMessage, msg)
							s.mu.Unlock()
						})
					}
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/stomp"
}

func TestStompAgainstACorrectBrokerHasNoErrors(t *testing.T) {
	url := stompBroker(t, func(_ int, send func()) { send() })
	for _, rate := range []string{"0", "200"} {
		if err := runStomp([]string{"-url", url, "-c", "5", "-rate", rate, "-warmup", "0", "-d", "300ms"}); err != nil {
			t.Fatalf("rate %s: %v", rate, err)
		}
	}
}

func TestStompReportsALostMessage(t *testing.T) {
	var once sync.Once
	url := stompBroker(t, func(seq int, send func()) {
		if seq == 30 {
			dropped := false
			once.Do(func() { dropped = true })
			if dropped {
				return
			}
		}
		send()
	})
	err := runStomp([]string{"-url", url, "-c", "3", "-warmup", "0", "-d", "300ms", "-timeout", "500ms"})
	if err == nil {
		t.Fatal("a message lost for one subscriber was not reported")
	}
}

func TestStompReportsADuplicatedMessage(t *testing.T) {
	url := stompBroker(t, func(seq int, send func()) {
		send()
		if seq == 30 {
			send()
		}
	})
	if err := runStomp([]string{"-url", url, "-c", "2", "-warmup", "0", "-d", "300ms", "-timeout", "500ms"}); err == nil {
		t.Fatal("a message delivered twice was not reported")
	}
}
