#!/usr/bin/env python3
"""WebSocket test client for the starter's tests: runs a list of steps over one session and prints a JSON
report on its last line.

Over HTTP/1.1 it uses the `websockets` package (RFC 6455 handshake); with --http2 it opens the session as an
RFC 8441 extended CONNECT stream with the `h2` package (TLS with ALPN h2, or cleartext prior knowledge) and
frames messages with `wsproto`'s frame protocol.

  ws_client.py URL [--http2] [--subprotocol NAME ...] STEPS_JSON

URL is ws://host:port/path or wss://... ; STEPS_JSON is a list of steps:
  {"text": "hello"}          send a text message
  {"binary": 1048576}        send a binary message of that many bytes (byte i = i % 251)
  {"receive": 2}             receive that many data messages
  {"close": [4000, "bye"]}   start the close handshake with that code and reason
  {"await_close": true}      wait for the server's close frame (answering it)

Report: {"http_version", "subprotocol", "received": [text, or {"binary": length, "ok": pattern matches}],
"close_code", "close_reason"} (close_* from the server's close frame, or null).
"""

import json
import socket
import ssl
import sys
import time
from urllib.parse import urlsplit

TIMEOUT = 30


def pattern(length):
    return bytes(i % 251 for i in range(length))


def describe(message):
    if isinstance(message, str):
        return message
    return {"binary": len(message), "ok": message == pattern(len(message))}


def run_http1(url, subprotocols, steps):
    from websockets.sync.client import connect
    from websockets.exceptions import ConnectionClosed

    report = {"http_version": "HTTP/1.1", "received": [], "close_code": None, "close_reason": None}
    ssl_context = None
    if url.startswith("wss:"):
        ssl_context = ssl.create_default_context()
        ssl_context.check_hostname = False
        ssl_context.verify_mode = ssl.CERT_NONE
    with connect(url, subprotocols=subprotocols or None, max_size=None, compression=None,
                 open_timeout=TIMEOUT, close_timeout=TIMEOUT, ssl=ssl_context) as ws:
        report["subprotocol"] = ws.subprotocol
        try:
            for step in steps:
                if "text" in step:
                    ws.send(step["text"])
                elif "binary" in step:
                    ws.send(pattern(step["binary"]))
                elif "receive" in step:
                    for _ in range(step["receive"]):
                        report["received"].append(describe(ws.recv(timeout=TIMEOUT)))
                elif "close" in step:
                    code, reason = step["close"]
                    ws.close(code, reason)
                elif "await_close" in step:
                    while True:
                        report["received"].append(describe(ws.recv(timeout=TIMEOUT)))
        except ConnectionClosed:
            pass
        if ws.close_code is not None:
            report["close_code"] = ws.close_code
            report["close_reason"] = ws.close_reason
    return report


class Http2Session:
    """One RFC 8441 WebSocket over one HTTP/2 stream."""

    def __init__(self, url, subprotocols):
        import h2.config
        import h2.connection
        from wsproto.frame_protocol import FrameProtocol

        parts = urlsplit(url)
        tls = parts.scheme == "wss"
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=TIMEOUT)
        if tls:
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            context.set_alpn_protocols(["h2"])
            self.sock = context.wrap_socket(self.sock, server_hostname=parts.hostname)
            if self.sock.selected_alpn_protocol() != "h2":
                raise SystemExit("server did not select h2 by ALPN")
        self.h2 = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        self.h2.initiate_connection()
        self.flush()
        self.frames = FrameProtocol(client=True, extensions=[])
        self.inbound = []
        self.response = None
        self.ended = False
        self.settings_seen = False
        while not self.settings_seen:
            self.pump()
        if self.h2.remote_settings.enable_connect_protocol != 1:
            raise SystemExit("server did not announce SETTINGS_ENABLE_CONNECT_PROTOCOL")
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        headers = [(":method", "CONNECT"), (":protocol", "websocket"), (":scheme", "https" if tls else "http"),
                   (":path", path), (":authority", "%s:%d" % (parts.hostname, parts.port)),
                   ("sec-websocket-version", "13")]
        if subprotocols:
            headers.append(("sec-websocket-protocol", ", ".join(subprotocols)))
        self.stream = self.h2.get_next_available_stream_id()
        self.h2.send_headers(self.stream, headers)
        self.flush()
        while self.response is None:
            self.pump()
        if self.response.get(":status") != "200":
            raise SystemExit("extended CONNECT answered %s" % self.response)

    def flush(self):
        data = self.h2.data_to_send()
        if data:
            self.sock.sendall(data)

    def pump(self):
        import h2.events
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("connection closed by the server")
        for event in self.h2.receive_data(data):
            if isinstance(event, h2.events.RemoteSettingsChanged):
                self.settings_seen = True
            elif isinstance(event, h2.events.ResponseReceived) and event.stream_id == self.stream:
                self.response = {k.decode() if isinstance(k, bytes) else k: v.decode() if isinstance(v, bytes) else v
                                 for k, v in event.headers}
            elif isinstance(event, h2.events.DataReceived) and event.stream_id == self.stream:
                self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                self.frames.receive_bytes(event.data)
                self.inbound.extend(self.frames.received_frames())
            elif isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)) and event.stream_id == self.stream:
                self.ended = True
        self.flush()

    def send(self, data):
        """Sends stream data, waiting for flow-control window as needed."""
        view = memoryview(data)
        while view:
            window = min(self.h2.local_flow_control_window(self.stream), self.h2.max_outbound_frame_size)
            if window <= 0:
                self.pump()
                continue
            self.h2.send_data(self.stream, bytes(view[:window]))
            self.flush()
            view = view[window:]

    def next_frame(self):
        deadline = time.monotonic() + TIMEOUT
        while not self.inbound:
            if self.ended or time.monotonic() > deadline:
                return None
            self.pump()
        return self.inbound.pop(0)


def run_http2(url, subprotocols, steps):
    from wsproto.frame_protocol import Opcode

    session = Http2Session(url, subprotocols)
    report = {"http_version": "HTTP/2", "subprotocol": session.response.get("sec-websocket-protocol"),
              "received": [], "close_code": None, "close_reason": None}
    parts = []

    def receive_message():
        """The next data message, or None once the server's close frame arrived (answered if needed)."""
        while True:
            frame = session.next_frame()
            if frame is None:
                raise ConnectionError("stream ended without a close frame")
            if frame.opcode == Opcode.PING:
                session.send(session.frames.pong(frame.payload))
                continue
            if frame.opcode == Opcode.CLOSE:
                code, reason = frame.payload
                report["close_code"], report["close_reason"] = int(code), reason
                if not closing[0]:
                    session.send(session.frames.close(code, reason))
                return None
            if frame.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONTINUATION):
                parts.append(frame.payload)
                if frame.message_finished:
                    whole = "".join(parts) if isinstance(parts[0], str) else b"".join(parts)
                    parts.clear()
                    return whole

    closing = [False]
    for step in steps:
        if "text" in step:
            session.send(session.frames.send_data(step["text"], fin=True))
        elif "binary" in step:
            session.send(session.frames.send_data(pattern(step["binary"]), fin=True))
        elif "receive" in step:
            for _ in range(step["receive"]):
                message = receive_message()
                if message is None:
                    break
                report["received"].append(describe(message))
        elif "close" in step:
            code, reason = step["close"]
            closing[0] = True
            session.send(session.frames.close(code, reason))
            while report["close_code"] is None:
                message = receive_message()
                if message is not None:
                    report["received"].append(describe(message))
        elif "await_close" in step:
            while report["close_code"] is None:
                message = receive_message()
                if message is not None:
                    report["received"].append(describe(message))
    import h2.exceptions
    try:
        session.h2.end_stream(session.stream)
        session.flush()
    except h2.exceptions.StreamClosedError:
        pass  # the server has ended the stream already
    session.sock.close()
    return report


def main():
    args = sys.argv[1:]
    http2 = "--http2" in args
    subprotocols = []
    rest = []
    i = 0
    while i < len(args):
        if args[i] == "--http2":
            i += 1
        elif args[i] == "--subprotocol":
            subprotocols.append(args[i + 1])
            i += 2
        else:
            rest.append(args[i])
            i += 1
    url, steps = rest[0], json.loads(rest[1])
    report = run_http2(url, subprotocols, steps) if http2 else run_http1(url, subprotocols, steps)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
