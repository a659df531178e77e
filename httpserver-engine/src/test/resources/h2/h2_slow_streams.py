#!/usr/bin/env python3
"""Two slow streams and ordinary ones on one connection: a request body sent one byte every INTERVAL seconds to a
handler that reads it, a response whose stream window the client never opens, and, back to back meanwhile,
ordinary requests whose windows it opens at once. Runs until both slow streams are reset (or TIMEOUT).

Usage: h2_slow_streams.py --port PORT [--host 127.0.0.1] [--tls] --body-path PATH --download-path PATH
                          --ordinary-path PATH [--interval 2] [--timeout 30]

The client announces SETTINGS_INITIAL_WINDOW_SIZE 0, so no response can flow until the client opens its stream's
window; the connection window is opened wide at once.

Prints: {"slow_body": {"reset", "at", "bytes_sent"}, "slow_read": {"reset", "at", "status"},
         "ordinary": [{"status", "length", "ended", "reset", "opened_at", "finished_at"}],
         "goaway": {error_code, debug} or null, "closed": bool, "elapsed": seconds}
  times are seconds since the connection was opened; "reset" is the RST_STREAM error code or null
"""
import json
import time

from hyperframe.frame import DataFrame, GoAwayFrame, HeadersFrame, RstStreamFrame

from h2common import connection_arguments
from h2raw import Closed, RawWire

SETTINGS_INITIAL_WINDOW_SIZE = 0x4
SLOW_BODY, SLOW_READ = 1, 3
MAX_BODY_BYTES = 30


def main():
    ap = connection_arguments()
    ap.add_argument("--body-path", required=True)
    ap.add_argument("--download-path", required=True)
    ap.add_argument("--ordinary-path", required=True)
    ap.add_argument("--interval", type=float, default=2.0)
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()

    w = RawWire(args.host, args.port, args.tls, {SETTINGS_INITIAL_WINDOW_SIZE: 0})
    start = time.monotonic()

    def now():
        return round(time.monotonic() - start, 3)

    w.send(w.window_update_frame(0, 1 << 30))
    slow_body = {"reset": None, "at": None, "bytes_sent": 0}
    slow_read = {"reset": None, "at": None, "status": None}
    w.send(w.headers_frame(SLOW_BODY, w.request_headers("POST", args.body_path)),
           w.headers_frame(SLOW_READ, w.request_headers("GET", args.download_path), end_stream=True))
    next_byte = 0.0
    ordinary = []
    current = None
    next_id = 5
    goaway = None

    def open_ordinary():
        nonlocal current, next_id
        current = {"id": next_id, "status": None, "length": 0, "ended": False, "reset": None,
                   "opened_at": now(), "finished_at": None}
        w.send(w.headers_frame(next_id, w.request_headers("GET", args.ordinary_path), end_stream=True),
               w.window_update_frame(next_id, 1 << 20))
        next_id += 2

    try:
        open_ordinary()
        while time.monotonic() - start < args.timeout and goaway is None:
            if slow_body["reset"] is not None and slow_read["reset"] is not None:
                break
            if slow_body["reset"] is None and now() >= next_byte and slow_body["bytes_sent"] < MAX_BODY_BYTES:
                slow_body["bytes_sent"] += 1
                w.send(w.data_frame(SLOW_BODY, b"x", slow_body["bytes_sent"] == MAX_BODY_BYTES))
                next_byte += args.interval
            f = w.next_frame(max(0.0, min(0.05, next_byte - now())))
            if f is None:
                continue
            sid = f.stream_id
            if isinstance(f, GoAwayFrame):
                goaway = {"error_code": f.error_code, "debug": f.additional_data.decode("latin-1")}
            elif isinstance(f, RstStreamFrame):
                if sid == SLOW_BODY:
                    slow_body.update(reset=f.error_code, at=now())
                elif sid == SLOW_READ:
                    slow_read.update(reset=f.error_code, at=now())
                elif current is not None and sid == current["id"]:
                    current.update(reset=f.error_code, finished_at=now())
            elif isinstance(f, HeadersFrame):
                status = dict(f.fields).get(":status")
                if sid == SLOW_READ:
                    slow_read["status"] = status
                elif current is not None and sid == current["id"] and status is not None:
                    current["status"] = status
            elif isinstance(f, DataFrame) and current is not None and sid == current["id"]:
                current["length"] += len(f.data)
            if (current is not None and sid == current["id"] and "END_STREAM" in f.flags
                    and isinstance(f, (DataFrame, HeadersFrame))):
                current.update(ended=True, finished_at=now())
            if current is not None and current["finished_at"] is not None:
                ordinary.append(current)
                current = None
                open_ordinary()
    except (OSError, Closed):
        pass
    if current is not None:
        ordinary.append(current)
    w.close()
    print(json.dumps({"slow_body": slow_body, "slow_read": slow_read, "ordinary": ordinary, "goaway": goaway,
                      "closed": w.closed, "elapsed": now()}))


if __name__ == "__main__":
    main()
