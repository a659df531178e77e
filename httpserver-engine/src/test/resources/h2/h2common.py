"""Shared by the h2 test scripts: one HTTP/2 client connection (cleartext prior knowledge, or TLS with ALPN h2)
driven by the Python `h2` package, installed pinned by scripts/install-test-tools.sh."""
import argparse
import socket
import ssl

import h2.config
import h2.connection
import h2.exceptions
from h2.connection import ConnectionState


class ClientConnection(h2.connection.H2Connection):
    """h2's client connection with the two changes a test client of a server needs.

    - It opens every stream it is asked to: SETTINGS_MAX_CONCURRENT_STREAMS is the server's to enforce (with
      REFUSED_STREAM), and the tests check that it does.
    - It keeps reading frames after a GOAWAY: RFC 9113 section 6.8 lets the streams up to the GOAWAY's last
      stream id complete, but h2 4.1.0 closes its connection state machine as soon as a GOAWAY arrives.
    """

    @property
    def open_outbound_streams(self):
        return 0

    def _receive_goaway_frame(self, frame):
        result = super()._receive_goaway_frame(frame)
        self.state_machine.state = ConnectionState.CLIENT_OPEN
        return result


def open_socket(host, port, tls, connect_timeout=10.0):
    """A connected socket: cleartext (HTTP/2 by prior knowledge), or TLS that negotiated h2 by ALPN."""
    sock = socket.create_connection((host, port), timeout=connect_timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if tls:
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE  # the tests' throw-away CA; what is tested is HTTP/2, not trust
        ctx.set_alpn_protocols(["h2"])
        sock = ctx.wrap_socket(sock, server_hostname=host)
        if sock.selected_alpn_protocol() != "h2":
            raise SystemExit("TLS: ALPN selected %r, not h2" % (sock.selected_alpn_protocol(),))
    return sock


def connection_arguments():
    """An argument parser with the options every script takes: --host, --port, --tls."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--tls", action="store_true")
    return ap


class Wire:
    """A socket and the h2 connection on it."""

    def __init__(self, host, port, tls, connect_timeout=10.0):
        sock = open_socket(host, port, tls, connect_timeout)
        self.sock = sock
        self.authority = "%s:%d" % (host, port)
        self.scheme = "https" if tls else "http"
        self.conn = ClientConnection(config=h2.config.H2Configuration(client_side=True, header_encoding="latin-1"))
        self.conn.initiate_connection()
        self.closed = False  # the server closed the connection (or reset it)
        self.write_failed = False  # a write failed: the server may still have frames for us to read
        self.flush()

    def request_headers(self, method, path, extra=()):
        return [(":method", method), (":scheme", self.scheme), (":authority", self.authority),
                (":path", path)] + [(n, v) for n, v in extra]

    def flush(self):
        """Sends whatever h2 has queued (blocking, at most 10 s). False if that failed."""
        data = self.conn.data_to_send()
        if not data or self.closed or self.write_failed:
            return not (self.closed or self.write_failed)
        try:
            self.sock.settimeout(10)
            self.sock.sendall(data)
            return True
        except OSError:
            self.write_failed = True
            return False

    def read(self, wait):
        """h2 events of the bytes that arrive within `wait` seconds ([] if none); None once the peer has closed."""
        if self.closed:
            return None
        try:
            self.sock.settimeout(wait)
            data = self.sock.recv(1 << 16)
        except (socket.timeout, ssl.SSLWantReadError, BlockingIOError):
            return []
        except OSError:
            self.closed = True
            return None
        if not data:
            self.closed = True
            return None
        events = self.conn.receive_data(data)
        self.flush()
        return events

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def goaway_json(event, at):
    return {"error_code": int(event.error_code), "last_stream_id": event.last_stream_id,
            "debug": (event.additional_data or b"").decode("latin-1"), "at": round(at, 3)}
