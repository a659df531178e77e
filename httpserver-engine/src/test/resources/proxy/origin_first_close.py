"""A CONNECT tunnel over HTTP/1.1 whose target ends its side first. Opens the tunnel (optionally to an HTTPS
proxy, verifying it with the given CA file and capping the TLS version), reads the tunnel until its end, then
sends a payload through the tunnel that is now half-closed the other way, and ends its own side.
Usage: origin_first_close.py proxy-host proxy-port target-authority payload [ca-file [1.2|1.3]].
Prints one JSON object: status line, what arrived before the end, whether the payload could be sent, TLS version."""
import json
import socket
import ssl
import sys

host, port, target, payload = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4].encode()
ca = sys.argv[5] if len(sys.argv) > 5 else None
tls_version = sys.argv[6] if len(sys.argv) > 6 else None

sock = socket.create_connection((host, port), timeout=10)
if ca:
    context = ssl.create_default_context(cafile=ca)
    if tls_version == "1.2":
        context.maximum_version = ssl.TLSVersion.TLSv1_2
    sock = context.wrap_socket(sock, server_hostname=host)
sock.sendall(("CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (target, target)).encode())
buffered = b""
while b"\r\n\r\n" not in buffered:
    chunk = sock.recv(4096)
    if not chunk:
        break
    buffered += chunk
head, _, data = buffered.partition(b"\r\n\r\n")
while True:
    chunk = sock.recv(4096)  # b"" at the end: TCP FIN, or close_notify on TLS
    if not chunk:
        break
    data += chunk
version = sock.version() if ca else None
sent = True
try:
    sock.sendall(payload)
    if ca:
        sock = sock.unwrap()  # our close_notify: the end of our side
    sock.shutdown(socket.SHUT_WR)
    while sock.recv(4096):
        pass
except OSError as e:
    sent = repr(e)
sock.close()
print(json.dumps({"status": head.split(b"\r\n")[0].decode("latin-1"), "data": data.decode("latin-1"),
                  "sent": sent, "tls": version}))
