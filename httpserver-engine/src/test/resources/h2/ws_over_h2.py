"""An RFC 8441 WebSocket client made of third-party parts: the Python `h2` package speaks HTTP/2 (cleartext
prior knowledge, or TLS with ALPN h2) and `wsproto` speaks RFC 6455 on the extended CONNECT stream.

Usage: ws_over_h2.py --port N [--tls] [--path /ws] [--expect-refusal] [--timeout S]

Normal run: checks that the server's SETTINGS enable the connect protocol, opens the stream, then exchanges a
text message, a binary message, a fragmented text message, a message larger than every flow-control window,
a ping, a "version" question (answered by the test's echo endpoint) and the closing handshake. With
--expect-refusal, sends the extended CONNECT anyway and reports how the server answered. Prints one JSON
object on its last line; the Java test asserts on it."""
import argparse
import json
import sys
import time
import traceback

import h2.events
from wsproto.connection import Connection, ConnectionType
from wsproto.events import BytesMessage, CloseConnection, Message, Ping, Pong, TextMessage

from h2common import Wire

STREAM = 1


class Session:
    """One extended CONNECT stream and the wsproto client connection running over it."""

    def __init__(self, wire, deadline):
        self.wire = wire
        self.deadline = deadline
        self.ws = Connection(ConnectionType.CLIENT)
        self.ws_events = []
        self.status = None
        self.response_headers = []
        self.stream_ended = False
        self.reset = None
        self.settings = None

    # ---- HTTP/2 side ----

    def pump(self):
        """Reads what arrives within a short wait and dispatches it; False once the connection is gone."""
        if time.monotonic() > self.deadline:
            raise TimeoutError("timed out")
        events = self.wire.read(0.2)
        if events is None:
            return False
        for e in events:
            if isinstance(e, h2.events.RemoteSettingsChanged):
                self.settings = self.wire.conn.remote_settings.enable_connect_protocol
            elif isinstance(e, h2.events.ResponseReceived) and e.stream_id == STREAM:
                self.response_headers = [(n, v) for n, v in e.headers]
                self.status = int(dict(self.response_headers)[":status"])
            elif isinstance(e, h2.events.DataReceived) and e.stream_id == STREAM:
                self.wire.conn.acknowledge_received_data(e.flow_controlled_length, STREAM)
                if e.data:  # an empty DATA carries only END_STREAM; wsproto takes no bytes once closed
                    self.ws.receive_data(e.data)
                    self.ws_events.extend(self.ws.events())
            elif isinstance(e, h2.events.StreamEnded) and e.stream_id == STREAM:
                self.stream_ended = True
            elif isinstance(e, h2.events.StreamReset) and e.stream_id == STREAM:
                self.reset = int(e.error_code)
        self.wire.flush()
        return True

    def await_settings(self):
        while self.settings is None:
            if not self.pump():
                raise ConnectionError("closed before the server's SETTINGS")
        return self.settings

    def open(self, path):
        headers = [(":method", "CONNECT"), (":protocol", "websocket"), (":scheme", self.wire.scheme),
                   (":path", path), (":authority", self.wire.authority), ("sec-websocket-version", "13"),
                   ("origin", "%s://%s" % (self.wire.scheme, self.wire.authority))]
        self.wire.conn.send_headers(STREAM, headers, end_stream=False)
        self.wire.flush()
        while self.status is None and self.reset is None:
            if not self.pump():
                raise ConnectionError("closed before the response head")

    def send_stream(self, data, end_stream=False):
        """Sends bytes on the stream as the server's flow-control windows allow."""
        conn = self.wire.conn
        while data:
            window = min(conn.local_flow_control_window(STREAM), conn.max_outbound_frame_size)
            if window <= 0:
                if not self.pump():
                    raise ConnectionError("closed while waiting for a window")
                continue
            conn.send_data(STREAM, data[:window])
            data = data[window:]
            self.wire.flush()
        if end_stream:
            conn.end_stream(STREAM)
            self.wire.flush()

    # ---- WebSocket side ----

    def send(self, event):
        self.send_stream(self.ws.send(event))

    def next_event(self, kinds):
        while True:
            for i, e in enumerate(self.ws_events):
                if isinstance(e, kinds):
                    del self.ws_events[i]
                    return e
            if self.reset is not None:
                raise ConnectionError("stream reset: %d" % self.reset)
            if not self.pump():
                raise ConnectionError("closed while waiting for %r" % (kinds,))

    def next_message(self):
        """The next whole message (wsproto may deliver one in parts)."""
        parts = []
        while True:
            e = self.next_event((Message,))
            parts.append(e.data)
            if e.message_finished:
                return "".join(parts) if isinstance(e, TextMessage) else b"".join(parts)


def run(args):
    wire = Wire("127.0.0.1", args.port, args.tls)
    s = Session(wire, time.monotonic() + args.timeout)
    out = {"settings_enable_connect_protocol": s.await_settings()}
    s.open(args.path)
    out["status"] = s.status
    out["reset"] = s.reset
    out["response_headers"] = s.response_headers
    if args.expect_refusal or s.status != 200:
        return out

    s.send(TextMessage(data="hello over h2"))
    out["text_echo"] = s.next_message()

    payload = bytes((i * 7) & 0xFF for i in range(300))
    s.send(BytesMessage(data=payload))
    out["binary_ok"] = s.next_message() == payload

    s.send(TextMessage(data="frag-", message_finished=False))
    s.send(TextMessage(data="men", message_finished=False))
    s.send(TextMessage(data="t \u00e9\u20ac", message_finished=True))
    out["fragmented_echo"] = s.next_message()

    big = bytes(i % 251 for i in range(300_000))  # above the stream windows of both sides
    s.send(BytesMessage(data=big))
    out["big_ok"] = s.next_message() == big

    s.send(Ping(payload=b"are you there"))
    out["pong"] = s.next_event((Pong,)).payload.decode("ascii")

    s.send(TextMessage(data="version"))
    out["server_version"] = s.next_message()

    s.send(CloseConnection(code=1000, reason="bye"))
    close = s.next_event((CloseConnection,))
    out["close_code"] = close.code
    out["close_reason"] = close.reason
    # RFC 8441 §5: the stream's END_STREAM stands for the TCP close that follows the closing handshake.
    while not s.stream_ended and s.reset is None:
        if not s.pump():
            break
    out["stream_ended"] = s.stream_ended
    out["reset_after_close"] = s.reset
    wire.close()
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--tls", action="store_true")
    p.add_argument("--path", default="/ws")
    p.add_argument("--expect-refusal", action="store_true")
    p.add_argument("--timeout", type=float, default=30.0)
    args = p.parse_args()
    try:
        out = run(args)
    except Exception as e:  # reported in the JSON (and the trace on stderr): the Java test shows both
        traceback.print_exc()
        out = {"error": "%s: %s" % (type(e).__name__, e)}
    print(json.dumps(out))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
