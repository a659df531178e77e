#!/usr/bin/env python3
"""Sends HTTP/2 requests on one connection with the Python `h2` package; prints what came back as JSON.

Usage: h2_requests.py --port PORT [--host 127.0.0.1] [--tls] [--timeout SECONDS] SPEC.json

SPEC.json: {"requests": [{"method": "GET", "path": "/", "headers": [[name, value], ...],
                          "body_text": str | "body_size": int, "trailers": [[name, value], ...],
                          "delay": seconds, "after": [index, ...]}, ...]}
  Requests are opened in order, on one connection, each one "delay" seconds after the connection started
  (default 0) and once the requests at the "after" indexes (default none) have finished. A body is body_text (UTF-8), or body_size bytes of the pattern i % 251; it is sent as flow control
  allows, then the trailers, if any, end the stream.

Prints: {"streams": [stream, ...] (in the order of the requests), "goaways": [{error_code, last_stream_id,
         debug, at}], "closed": bool (the server closed the connection), "error": str or null (h2 refused what the
         server sent), "elapsed": seconds}
  stream: {"path", "method", "id" (null: never opened, after a GOAWAY), "status", "headers": [[name, value]],
           "informational": [status, ...], "body_length", "body_sha256", "body" (latin-1, first 64 KiB),
           "data_frames", "trailers", "ended" (END_STREAM seen), "reset" (RST_STREAM error code) or null,
           "sent" (request body bytes sent), "opened_at", "finished_at"}
Exits 0 whenever it could connect: the caller asserts on the JSON.
"""
import argparse
import hashlib
import json
import time

import h2.events
import h2.exceptions

from h2common import Wire, goaway_json

PATTERN = bytes(range(251))
TEXT_LIMIT = 64 * 1024


def pattern(n):
    return (PATTERN * (n // len(PATTERN) + 1))[:n]


class Stream:
    def __init__(self, spec):
        self.spec = spec
        self.id = None
        if "body_text" in spec:
            self.body = spec["body_text"].encode("utf-8")
        elif "body_size" in spec:
            self.body = pattern(int(spec["body_size"]))
        else:
            self.body = None
        self.offset = 0
        self.request_done = False
        self.status = None
        self.headers = []
        self.informational = []
        self.data = bytearray()
        self.length = 0
        self.sha = hashlib.sha256()
        self.frames = 0
        self.trailers = None
        self.ended = False
        self.reset = None
        self.opened_at = None
        self.finished_at = None

    @property
    def finished(self):
        return self.ended or self.reset is not None

    def open(self, wire, now):
        s = self.spec
        headers = wire.request_headers(s.get("method", "GET"), s.get("path", "/"), s.get("headers", []))
        self.id = wire.conn.get_next_available_stream_id()
        only_headers = self.body is None and not s.get("trailers")
        wire.conn.send_headers(self.id, headers, end_stream=only_headers)
        self.request_done = only_headers
        self.opened_at = now

    def pump(self, wire, budget):
        """Sends up to `budget` bytes of the body as the windows allow; returns the bytes sent."""
        if self.id is None or self.request_done or self.finished:
            return 0
        conn = wire.conn
        sent = 0
        body = self.body or b""
        while self.offset < len(body) and sent < budget:
            n = min(conn.local_flow_control_window(self.id), conn.max_outbound_frame_size,
                    len(body) - self.offset, budget - sent)
            if n <= 0:
                return sent
            conn.send_data(self.id, body[self.offset:self.offset + n])
            self.offset += n
            sent += n
        if self.offset >= len(body):
            if self.spec.get("trailers"):
                conn.send_headers(self.id, [(n, v) for n, v in self.spec["trailers"]], end_stream=True)
            else:
                conn.end_stream(self.id)
            self.request_done = True
        return sent

    def json(self):
        return {"path": self.spec.get("path", "/"), "method": self.spec.get("method", "GET"), "id": self.id,
                "status": self.status, "headers": self.headers, "informational": self.informational,
                "body_length": self.length, "body_sha256": self.sha.hexdigest(),
                "body": bytes(self.data).decode("latin-1"), "data_frames": self.frames,
                "trailers": self.trailers, "ended": self.ended, "reset": self.reset, "sent": self.offset,
                "opened_at": self.opened_at, "finished_at": self.finished_at}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--tls", action="store_true")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("spec")
    args = ap.parse_args()
    with open(args.spec, encoding="utf-8") as f:
        spec = json.load(f)

    streams = [Stream(r) for r in spec["requests"]]
    wire = Wire(args.host, args.port, args.tls)
    start = time.monotonic()
    by_id = {}
    waiting = sorted(streams, key=lambda s: float(s.spec.get("delay", 0)))

    def ready(s):
        return float(s.spec.get("delay", 0)) <= now() and all(streams[i].finished for i in s.spec.get("after", []))
    goaways = []
    error = None

    def now():
        return round(time.monotonic() - start, 3)

    while True:
        while waiting and not goaways and ready(waiting[0]):
            s = waiting.pop(0)
            s.open(wire, now())
            by_id[s.id] = s
        budget = 256 * 1024
        for s in streams:
            budget -= s.pump(wire, budget)
        wire.flush()
        opened = [s for s in streams if s.id is not None]
        if (not waiting or goaways) and all(s.finished for s in opened):
            break
        if wire.closed or time.monotonic() - start > args.timeout:
            break
        try:
            events = wire.read(0.02)
        except h2.exceptions.ProtocolError as e:
            error = "%s: %s" % (type(e).__name__, e)
            break
        for ev in events or []:
            s = by_id.get(getattr(ev, "stream_id", None))
            if isinstance(ev, h2.events.ResponseReceived):
                s.headers = [[n, v] for n, v in ev.headers]
                s.status = int(dict(ev.headers).get(":status"))
            elif isinstance(ev, h2.events.InformationalResponseReceived):
                s.informational.append(int(dict(ev.headers).get(":status")))
            elif isinstance(ev, h2.events.DataReceived):
                s.frames += 1
                s.length += len(ev.data)
                s.sha.update(ev.data)
                if len(s.data) < TEXT_LIMIT:
                    s.data += ev.data[:TEXT_LIMIT - len(s.data)]
                if ev.flow_controlled_length:
                    wire.conn.acknowledge_received_data(ev.flow_controlled_length, ev.stream_id)
            elif isinstance(ev, h2.events.TrailersReceived):
                s.trailers = [[n, v] for n, v in ev.headers]
            elif isinstance(ev, h2.events.StreamEnded):
                s.ended = True
                s.finished_at = now()
            elif isinstance(ev, h2.events.StreamReset):
                if s is not None:
                    s.reset = int(ev.error_code)
                    s.finished_at = now()
            elif isinstance(ev, h2.events.ConnectionTerminated):
                goaways.append(goaway_json(ev, now()))
                for other in streams:  # streams the server will not process
                    if other.id is not None and other.id > ev.last_stream_id and not other.finished:
                        other.reset = -1
                        other.finished_at = now()
        wire.flush()

    wire.close()
    print(json.dumps({"streams": [s.json() for s in streams], "goaways": goaways, "closed": wire.closed,
                      "error": error, "elapsed": now()}))


if __name__ == "__main__":
    main()
