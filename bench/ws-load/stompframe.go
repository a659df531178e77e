package main

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// stompFrame is one STOMP 1.2 frame (https://stomp.github.io/stomp-specification-1.2.html).
type stompFrame struct {
	command string
	headers map[string]string // the first entry of a repeated header wins (STOMP 1.2, "Repeated Header Entries")
	body    []byte
}

// parseStompFrames splits data, the payload of one WebSocket message, into STOMP frames. Heart-beats (bare
// EOLs) before and between frames are skipped; EOL is LF or CR LF. A frame is its command, its header
// lines, an empty line, the body and a NUL; the body is content-length bytes when that header is given
// (it may then contain NULs), else everything up to the first NUL. Header names and values are unescaped
// (\r \n \c \\), except in CONNECT and CONNECTED frames, which the specification leaves unescaped.
// Anything after the last frame's NUL other than EOLs is an error.
func parseStompFrames(data []byte) ([]stompFrame, error) {
	var frames []stompFrame
	for {
		data = skipEOLs(data)
		if len(data) == 0 {
			return frames, nil
		}
		f, rest, err := parseStompFrame(data)
		if err != nil {
			return frames, fmt.Errorf("STOMP frame %d: %w", len(frames)+1, err)
		}
		frames = append(frames, f)
		data = rest
	}
}

func skipEOLs(b []byte) []byte {
	for len(b) > 0 {
		switch {
		case b[0] == '\n':
			b = b[1:]
		case len(b) > 1 && b[0] == '\r' && b[1] == '\n':
			b = b[2:]
		default:
			return b
		}
	}
	return b
}

// nextLine returns the line at the start of b (without its LF or CR LF) and what follows it.
func nextLine(b []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return nil, b, false
	}
	line = b[:i]
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	return line, b[i+1:], true
}

// parseStompFrame parses the frame at the start of b (which starts with its command) and returns what follows its NUL.
func parseStompFrame(b []byte) (stompFrame, []byte, error) {
	f := stompFrame{headers: map[string]string{}}
	line, b, ok := nextLine(b)
	if !ok {
		return f, nil, errors.New("no end of line after the command")
	}
	if len(line) == 0 || bytes.IndexByte(line, 0) >= 0 || bytes.IndexByte(line, ':') >= 0 {
		return f, nil, fmt.Errorf("bad command %q", line)
	}
	f.command = string(line)
	escaped := f.command != "CONNECT" && f.command != "CONNECTED"
	for {
		line, b, ok = nextLine(b)
		if !ok {
			return f, nil, errors.New("headers not ended by an empty line")
		}
		if len(line) == 0 {
			break
		}
		i := bytes.IndexByte(line, ':')
		if i <= 0 {
			return f, nil, fmt.Errorf("bad header line %q", line)
		}
		name, value := string(line[:i]), string(line[i+1:])
		if escaped {
			var err error
			if name, err = unescapeHeader(name); err != nil {
				return f, nil, err
			}
			if value, err = unescapeHeader(value); err != nil {
				return f, nil, err
			}
		}
		if _, seen := f.headers[name]; !seen {
			f.headers[name] = value
		}
	}
	if cl, given := f.headers["content-length"]; given {
		n, err := strconv.Atoi(cl)
		if err != nil || n < 0 {
			return f, nil, fmt.Errorf("bad content-length %q", cl)
		}
		if len(b) < n+1 {
			return f, nil, fmt.Errorf("body shorter than its content-length %d (%d bytes left)", n, len(b))
		}
		if b[n] != 0 {
			return f, nil, fmt.Errorf("no NUL after the %d bytes of content-length", n)
		}
		f.body = b[:n]
		return f, b[n+1:], nil
	}
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return f, nil, errors.New("body not ended by a NUL")
	}
	f.body = b[:i]
	return f, b[i+1:], nil
}

func unescapeHeader(s string) (string, error) {
	if !strings.ContainsRune(s, '\\') {
		return s, nil
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			sb.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) {
			return "", fmt.Errorf("header %q ends in a backslash", s)
		}
		i++
		switch s[i] {
		case 'r':
			sb.WriteByte('\r')
		case 'n':
			sb.WriteByte('\n')
		case 'c':
			sb.WriteByte(':')
		case '\\':
			sb.WriteByte('\\')
		default:
			return "", fmt.Errorf("undefined escape \\%c in header %q", s[i], s)
		}
	}
	return sb.String(), nil
}

var headerEscaper = strings.NewReplacer("\\", "\\\\", "\r", "\\r", "\n", "\\n", ":", "\\c")

// stompHeader is one header of a frame to encode, in order.
type stompHeader struct{ name, value string }

// encodeStompFrame encodes a frame with LF line ends; header names and values are escaped except in CONNECT
// and CONNECTED frames. A frame with a body gets a content-length header unless one is given.
func encodeStompFrame(command string, headers []stompHeader, body []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(command) + 64*len(headers) + len(body) + 32)
	b.WriteString(command)
	b.WriteByte('\n')
	escaped := command != "CONNECT" && command != "CONNECTED"
	hasLength := false
	for _, h := range headers {
		name, value := h.name, h.value
		if escaped {
			name, value = headerEscaper.Replace(name), headerEscaper.Replace(value)
		}
		hasLength = hasLength || h.name == "content-length"
		b.WriteString(name)
		b.WriteByte(':')
		b.WriteString(value)
		b.WriteByte('\n')
	}
	if len(body) > 0 && !hasLength {
		b.WriteString("content-length:")
		b.WriteString(strconv.Itoa(len(body)))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.Write(body)
	b.WriteByte(0)
	return b.Bytes()
}
