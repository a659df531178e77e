#!/usr/bin/env python3
"""Sends, on one stream, frames that the stream's state (RFC 9113 section 5.1, 8.1) makes errors or allows, and
reports what the server answered. Each scenario runs on its own connection.

Usage: h2_stream_states.py --port PORT [--host 127.0.0.1] [--tls] --path PATH [--early] SCENARIO...

--path is the handler: one that reads the request body, or one that answers without reading it (then pass
--early: the scenario waits for the complete response before it sends the frames under test, so they meet a
stream that is half-closed (local)).

Prints: {SCENARIO: {"before": [frame], "after": [frame], "sentinel": bool, "closed": bool, "error": str|null}}
  "after": the frames that arrived after the frames under test were sent, up to the answer to a PING sent
  behind them ("sentinel": that answer came, so the server had processed everything before it);
  frame: {"type", "stream", "flags", "error_code", "fields", "length", ...}
"""
import json

from hyperframe.frame import DataFrame, GoAwayFrame, HeadersFrame, RstStreamFrame

from h2common import connection_arguments
from h2raw import Closed, RawWire, describe

STREAM = 1
PROTOCOL_ERROR, CANCEL = 0x1, 0x8
MAX_WINDOW = 2 ** 31 - 1
SETTINGS_INITIAL_WINDOW_SIZE = 0x4


class Run:
    def __init__(self, args, settings=None):
        self.args = args
        self.w = RawWire(args.host, args.port, args.tls, settings)
        self.before = []
        self.after = None

    def record(self, frame):
        if frame.stream_id == STREAM or isinstance(frame, GoAwayFrame):
            (self.before if self.after is None else self.after).append(describe(frame))

    def await_frame(self, pred, timeout=10.0):
        """Reads frames until one satisfies pred; False on a timeout or a close."""
        try:
            while True:
                f = self.w.next_frame(timeout)
                if f is None:
                    return False
                self.record(f)
                if pred(f):
                    return True
        except Closed:
            return False

    def open(self, end_stream=False, extra=()):
        self.w.send(self.w.headers_frame(STREAM, self.w.request_headers("POST", self.args.path, extra), end_stream))

    def response_end(self):
        """Waits until the response on the stream is complete."""
        return self.await_frame(lambda f: f.stream_id == STREAM and isinstance(f, (DataFrame, HeadersFrame))
                                and "END_STREAM" in f.flags)

    def early_response(self):
        """For a handler that answers without reading: waits for its complete response."""
        if self.args.early:
            self.response_end()

    def mark(self):
        self.after = []

    def send(self, *frames):
        """Sends the frames under test (marking what arrives from now on as the answer)."""
        if self.after is None:
            self.mark()
        self.w.send(*frames)

    def finish(self):
        opaque = self.w.ping()
        if self.after is None:
            self.mark()
        sentinel = self.await_frame(lambda f: self.w.is_ack_of(f, opaque))
        self.w.close()
        return {"before": self.before, "after": self.after, "sentinel": sentinel, "closed": self.w.closed}


def data(c, payload=b"x", end=False):
    return c.w.data_frame(STREAM, payload, end)


def trailers(c, fields, end=True):
    return c.w.headers_frame(STREAM, fields, end)


# ---- the scenarios: each opens stream 1 and sends the frames under test ----

def content_length_exceeded(c):
    c.open(extra=[("content-length", "4")])
    c.early_response()
    c.send(data(c, b"12345"))


def content_length_short_at_end(c):
    c.open(extra=[("content-length", "10")])
    c.early_response()
    c.send(data(c, b"1234", end=True))


def content_length_matches(c):
    c.open(extra=[("content-length", "4")])
    c.early_response()
    c.send(data(c, b"1234", end=True))
    if not c.args.early:
        c.response_end()


def trailers_without_end_stream(c):
    c.open()
    c.early_response()
    c.send(data(c), trailers(c, [("x-t", "1")], end=False))


def pseudo_header_in_trailers(c):
    c.open()
    c.early_response()
    c.send(data(c), trailers(c, [(":path", "/")]))


def trailers_end_the_request(c):
    c.open()
    c.early_response()
    c.send(data(c), trailers(c, [("x-t", "1")]))
    if not c.args.early:
        c.response_end()


def window_update_overflow(c):
    c.open()
    c.early_response()
    c.send(c.w.window_update_frame(STREAM, MAX_WINDOW))


def data_after_client_reset(c):
    c.open()
    c.early_response()
    c.send(c.w.rst_frame(STREAM, CANCEL), data(c))


def headers_after_client_reset(c):
    c.open()
    c.early_response()
    c.send(c.w.rst_frame(STREAM, CANCEL), trailers(c, [("x-t", "1")]))


def window_update_after_client_reset(c):
    c.open()
    c.early_response()
    c.send(c.w.rst_frame(STREAM, CANCEL), c.w.window_update_frame(STREAM, 100))


def complete_exchange(c):
    c.open()
    c.w.send(data(c, b"x", end=True))
    c.response_end()


def data_after_the_stream_closed(c):
    complete_exchange(c)
    c.send(data(c))


def headers_after_the_stream_closed(c):
    complete_exchange(c)
    c.send(trailers(c, [("x-t", "1")]))


def window_update_after_the_stream_closed(c):
    complete_exchange(c)
    c.send(c.w.window_update_frame(STREAM, 100))


def rst_after_the_stream_closed(c):
    complete_exchange(c)
    c.send(c.w.rst_frame(STREAM, CANCEL))


def data_after_end_stream(c):
    # The client's windows are 0 (see SETTINGS below): the response cannot end, the stream stays half-closed
    # (remote) with its head sent.
    c.open(end_stream=True)
    c.await_frame(lambda f: f.stream_id == STREAM and isinstance(f, HeadersFrame))
    c.send(data(c))


def drain_limit(c):
    # Early only: the server's maxDrainSize is below 3000.
    c.open()
    c.early_response()
    c.send(data(c, b"d" * 3000))
    c.await_frame(lambda f: f.stream_id == STREAM and isinstance(f, RstStreamFrame))
    c.w.send(data(c, b"more"), trailers(c, [(":path", "/")]))  # in flight after our reset: ignored


def expect_continue_not_asked(c):
    # Early only: the handler answers without asking for the body; the client is told to stop.
    c.mark()
    c.open(extra=[("expect", "100-continue"), ("content-length", "10")])
    c.await_frame(lambda f: f.stream_id == STREAM and isinstance(f, RstStreamFrame))


SCENARIOS = {f.__name__: f for f in [
    content_length_exceeded, content_length_short_at_end, content_length_matches, trailers_without_end_stream,
    pseudo_header_in_trailers, trailers_end_the_request, window_update_overflow, data_after_client_reset,
    headers_after_client_reset, window_update_after_client_reset, data_after_the_stream_closed,
    headers_after_the_stream_closed, window_update_after_the_stream_closed, rst_after_the_stream_closed,
    data_after_end_stream, drain_limit, expect_continue_not_asked]}


def main():
    ap = connection_arguments()
    ap.add_argument("--path", required=True)
    ap.add_argument("--early", action="store_true")
    ap.add_argument("scenarios", nargs="+", choices=sorted(SCENARIOS))
    args = ap.parse_args()
    results = {}
    for name in args.scenarios:
        settings = {SETTINGS_INITIAL_WINDOW_SIZE: 0} if name == "data_after_end_stream" else None
        try:
            c = Run(args, settings)
            SCENARIOS[name](c)
            results[name] = c.finish()
            results[name]["error"] = None
        except (OSError, Closed) as e:
            results[name] = {"before": [], "after": [], "sentinel": False, "closed": True,
                             "error": "%s: %s" % (type(e).__name__, e)}
    print(json.dumps(results))


if __name__ == "__main__":
    main()
