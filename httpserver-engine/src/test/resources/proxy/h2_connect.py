"""Opens an HTTP/2 CONNECT stream (RFC 9113 section 8.5) to a proxy over cleartext HTTP/2 (prior knowledge),
sends a payload with END_STREAM (the client's half-close) and reads the tunnel until the proxy ends the stream.
Usage: h2_connect.py proxy-host proxy-port target-authority payload. Prints one JSON object."""
import json
import socket
import sys

import h2.config
import h2.connection
import h2.events

host, port, target, payload = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].encode()
sock = socket.create_connection((host, port), timeout=10)
# h2 4.1.0 knows only the extended CONNECT (with :path); a plain one needs its outbound check off.
conn = h2.connection.H2Connection(config=h2.config.H2Configuration(
    client_side=True, header_encoding="utf-8", validate_outbound_headers=False))
conn.initiate_connection()
sock.sendall(conn.data_to_send())
sid = conn.get_next_available_stream_id()
conn.send_headers(sid, [(":method", "CONNECT"), (":authority", target)])
sock.sendall(conn.data_to_send())
status, data, ended, reset, sent = None, b"", False, None, False
while not ended and reset is None:
    chunk = sock.recv(65536)
    if not chunk:
        break
    for event in conn.receive_data(chunk):
        if isinstance(event, h2.events.ResponseReceived):
            status = dict(event.headers)[":status"]
            if status == "200" and not sent:
                conn.send_data(sid, payload, end_stream=True)
                sent = True
        elif isinstance(event, h2.events.DataReceived):
            data += event.data
            conn.acknowledge_received_data(event.flow_controlled_length, sid)
        elif isinstance(event, h2.events.StreamEnded):
            ended = True
        elif isinstance(event, h2.events.StreamReset):
            reset = int(event.error_code)
    sock.sendall(conn.data_to_send())
print(json.dumps({"status": status, "data": data.decode("latin-1"), "ended": ended, "reset": reset}))
