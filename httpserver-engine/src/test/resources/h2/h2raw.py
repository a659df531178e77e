"""A frame-level HTTP/2 client for the tests that must send what no well-behaved client sends (frames a stream's
state does not allow, floods): frames are built and parsed with hyperframe and header blocks with hpack, the
libraries of the `h2` package, installed pinned by scripts/install-test-tools.sh. No state machine: it sends
exactly the frames it is asked to and reports every frame that arrives."""
import socket
import ssl
import time

import hpack
from hyperframe.frame import (ContinuationFrame, DataFrame, Frame, GoAwayFrame, HeadersFrame, PingFrame,
                              RstStreamFrame, SettingsFrame, WindowUpdateFrame)

from h2common import open_socket

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


class Closed(Exception):
    """The server closed the connection."""


class RawWire:
    """One connection: cleartext prior knowledge, or TLS with ALPN h2."""

    def __init__(self, host, port, tls, settings=None, connect_timeout=10.0):
        self.sock = open_socket(host, port, tls, connect_timeout)
        self.scheme = "https" if tls else "http"
        self.authority = "%s:%d" % (host, port)
        self.encoder = hpack.Encoder()
        self.decoder = hpack.Decoder()
        self.buf = bytearray()
        self.closed = False
        self.ping_seq = 0
        opening = SettingsFrame(0)
        for k, v in (settings or {}).items():
            opening.settings[k] = v
        self.sock.sendall(PREFACE + opening.serialize())

    def request_headers(self, method, path, extra=()):
        return [(":method", method), (":scheme", self.scheme), (":authority", self.authority),
                (":path", path)] + list(extra)

    def headers_frame(self, stream_id, fields, end_stream=False):
        f = HeadersFrame(stream_id)
        f.data = self.encoder.encode(fields)
        f.flags.add("END_HEADERS")
        if end_stream:
            f.flags.add("END_STREAM")
        return f

    @staticmethod
    def data_frame(stream_id, data=b"", end_stream=False):
        f = DataFrame(stream_id)
        f.data = data
        if end_stream:
            f.flags.add("END_STREAM")
        return f

    @staticmethod
    def rst_frame(stream_id, code):
        f = RstStreamFrame(stream_id)
        f.error_code = code
        return f

    @staticmethod
    def window_update_frame(stream_id, increment):
        f = WindowUpdateFrame(stream_id)
        f.window_increment = increment
        return f

    def send(self, *frames):
        self.send_bytes(b"".join(f.serialize() for f in frames))

    def send_bytes(self, data):
        self.sock.settimeout(10)
        self.sock.sendall(data)

    def next_frame(self, timeout):
        """The next frame (HEADERS with its decoded `fields`), None if none arrives within `timeout` seconds.
        Acknowledges the server's SETTINGS. Raises Closed once the server has closed the connection."""
        deadline = time.monotonic() + timeout
        first = True
        while True:
            if len(self.buf) >= 9:
                frame, length = Frame.parse_frame_header(memoryview(self.buf[:9]))
                if len(self.buf) >= 9 + length:
                    frame.parse_body(memoryview(bytes(self.buf[9:9 + length])))
                    del self.buf[:9 + length]
                    if isinstance(frame, (HeadersFrame, ContinuationFrame)):
                        frame.fields = [(n.decode("latin-1") if isinstance(n, bytes) else n,
                                         v.decode("latin-1") if isinstance(v, bytes) else v)
                                        for n, v in self.decoder.decode(frame.data)]
                    if isinstance(frame, SettingsFrame) and "ACK" not in frame.flags:
                        ack = SettingsFrame(0)
                        ack.flags.add("ACK")
                        self.send(ack)
                    return frame
            if self.closed:
                raise Closed()
            left = deadline - time.monotonic()
            if left <= 0 and not first:
                return None
            first = False
            try:
                self.sock.settimeout(max(left, 0.0))
                chunk = self.sock.recv(1 << 16)
            except (socket.timeout, ssl.SSLWantReadError, BlockingIOError):
                return None
            except OSError:
                chunk = b""
            if not chunk:
                self.closed = True
                continue
            self.buf += chunk

    def ping(self):
        """Sends a PING; returns its opaque data, to find its ACK with `is_ack_of`."""
        self.ping_seq += 1
        f = PingFrame(0)
        f.opaque_data = self.ping_seq.to_bytes(8, "big")
        self.send(f)
        return f.opaque_data

    @staticmethod
    def is_ack_of(frame, opaque):
        return isinstance(frame, PingFrame) and "ACK" in frame.flags and frame.opaque_data == opaque

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def describe(frame):
    """A frame as JSON for the Java side."""
    d = {"type": type(frame).__name__.replace("Frame", "").upper(), "stream": frame.stream_id,
         "flags": sorted(frame.flags)}
    if isinstance(frame, (RstStreamFrame, GoAwayFrame)):
        d["error_code"] = frame.error_code
    if isinstance(frame, GoAwayFrame):
        d["last_stream_id"] = frame.last_stream_id
        d["debug"] = frame.additional_data.decode("latin-1")
    if isinstance(frame, HeadersFrame):
        d["fields"] = [[n, v] for n, v in frame.fields]
    if isinstance(frame, DataFrame):
        d["length"] = len(frame.data)
    return d
