#!/usr/bin/env python3
"""Floods one connection with frames that have no effect, as fast as it can, until the server answers with GOAWAY
or closes.

Usage: h2_flood.py --port PORT [--host 127.0.0.1] [--tls] --mode MODE [--count 1000000] [--timeout SECONDS]

MODE:
  empty-data-on-reset-stream  opens stream 1 with a malformed request (an upper-case field name), waits for the
                              server's RST_STREAM, then sends empty DATA frames on stream 1
  window-update-connection    WINDOW_UPDATE(+1) on the connection (stream 0), no data in flight
  window-update-stream        opens stream 1 (a POST whose body never comes), then WINDOW_UPDATE(+1) on it

Prints: {"mode", "sent": frames sent, "goaway": {error_code, last_stream_id, debug} or null, "closed": bool,
         "elapsed": seconds, "reset": the RST_STREAM code that preceded the flood or null}
"""
import json
import time

from hyperframe.frame import GoAwayFrame, RstStreamFrame

from h2common import connection_arguments
from h2raw import Closed, RawWire

BATCH = 2000


def main():
    ap = connection_arguments()
    ap.add_argument("--mode", required=True,
                    choices=["empty-data-on-reset-stream", "window-update-connection", "window-update-stream"])
    ap.add_argument("--path", default="/")
    ap.add_argument("--count", type=int, default=1_000_000)
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args()

    w = RawWire(args.host, args.port, args.tls)
    start = time.monotonic()
    reset = None
    goaway = None

    def take(frame):
        nonlocal goaway, reset
        if isinstance(frame, GoAwayFrame) and goaway is None:
            goaway = {"error_code": frame.error_code, "last_stream_id": frame.last_stream_id,
                      "debug": frame.additional_data.decode("latin-1")}
        elif isinstance(frame, RstStreamFrame) and frame.stream_id == 1 and reset is None:
            reset = frame.error_code

    if args.mode == "empty-data-on-reset-stream":
        w.send(w.headers_frame(1, w.request_headers("POST", args.path, [("X-Upper", "malformed")])))
        while reset is None and goaway is None:
            f = w.next_frame(10)
            if f is None:
                break
            take(f)
        unit = w.data_frame(1).serialize()
    elif args.mode == "window-update-connection":
        unit = w.window_update_frame(0, 1).serialize()
    else:
        w.send(w.headers_frame(1, w.request_headers("POST", args.path)))
        unit = w.window_update_frame(1, 1).serialize()

    batch = unit * BATCH
    sent = 0
    try:
        while sent < args.count and goaway is None and time.monotonic() - start < args.timeout:
            n = min(BATCH, args.count - sent)
            w.send_bytes(batch if n == BATCH else unit * n)
            sent += n
            # What arrived meanwhile: a moment's look after each batch (2,000 frames a millisecond is still a
            # flood) lets the client stop at the GOAWAY, before the server, closing, resets what is still unread.
            wait = 0.002
            while True:
                f = w.next_frame(wait)
                if f is None:
                    break
                take(f)
                wait = 0
    except (OSError, Closed):
        pass  # the server closed: read what it sent before
    try:
        while goaway is None:
            f = w.next_frame(5)
            if f is None:
                break
            take(f)
    except (OSError, Closed):
        pass
    w.close()
    print(json.dumps({"mode": args.mode, "sent": sent, "goaway": goaway, "closed": w.closed, "reset": reset,
                      "elapsed": round(time.monotonic() - start, 3)}))


if __name__ == "__main__":
    main()
