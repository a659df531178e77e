"""Opens an HTTP/2 CONNECT stream (RFC 9113 section 8.5) to a proxy over cleartext HTTP/2 (prior knowledge) and
sends a payload with END_STREAM (the client's half-close), either as soon as the tunnel is up (mode "first",
the default) or only after the proxy's END_STREAM arrived (mode "after-end": the target ended first, our side
still sends). Reads until the stream is over, then until the answer to a PING sent then (a sentinel: frames the
proxy sent before it come first).
Usage: h2_connect.py proxy-host proxy-port target-authority payload [first|after-end].
Prints one JSON object."""
import json
import socket
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.exceptions

host, port, target, payload = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].encode()
mode = sys.argv[5] if len(sys.argv) > 5 else "first"
sock = socket.create_connection((host, port), timeout=10)
# h2 4.1.0 knows only the extended CONNECT (with :path); a plain one needs its outbound check off.
conn = h2.connection.H2Connection(config=h2.config.H2Configuration(
    client_side=True, header_encoding="utf-8", validate_outbound_headers=False))
conn.initiate_connection()
sock.sendall(conn.data_to_send())
sid = conn.get_next_available_stream_id()
conn.send_headers(sid, [(":method", "CONNECT"), (":authority", target)])
sock.sendall(conn.data_to_send())
status, data, ended, resets, sent, pong, goaway = None, b"", False, [], False, False, None
deadline = None


def send_payload():
    global sent
    try:
        conn.send_data(sid, payload, end_stream=True)
        sent = True
    except h2.exceptions.StreamClosedError as e:  # reset in the same read
        sent = repr(e)


while deadline is None or time.monotonic() < deadline:
    if deadline is not None:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        chunk = sock.recv(65536)
    except socket.timeout:
        break
    if not chunk:
        break
    for event in conn.receive_data(chunk):
        if isinstance(event, h2.events.ResponseReceived):
            status = dict(event.headers)[":status"]
            if status == "200" and mode == "first":
                send_payload()
        elif isinstance(event, h2.events.DataReceived):
            data += event.data
            conn.acknowledge_received_data(event.flow_controlled_length, sid)
        elif isinstance(event, h2.events.StreamEnded):
            ended = True
            if mode == "after-end":
                send_payload()
        elif isinstance(event, h2.events.StreamReset):
            resets.append(int(event.error_code))
        elif isinstance(event, h2.events.PingAckReceived):
            pong = True
            deadline = time.monotonic()
        elif isinstance(event, h2.events.ConnectionTerminated):
            goaway = int(event.error_code)
    over = resets or (ended and sent is not False)
    if over and not pong and deadline is None:
        conn.ping(b"tunnel..")
        deadline = time.monotonic() + 10  # a guard: until the PING's ACK
    sock.sendall(conn.data_to_send())
print(json.dumps({"status": status, "data": data.decode("latin-1"), "ended": ended, "sent": sent,
                  "reset": resets[0] if resets else None, "resets": resets, "pong": pong, "goaway": goaway}))
