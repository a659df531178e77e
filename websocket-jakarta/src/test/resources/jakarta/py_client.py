"""Python `websockets` client for the Jakarta endpoints; prints one JSON object.

usage: py_client.py URL deflate|none"""
import json
import sys

from websockets.sync.client import connect

url, mode = sys.argv[1], sys.argv[2]
out = {}
with connect(url, compression="deflate" if mode == "deflate" else None, subprotocols=["chat"],
             open_timeout=20, close_timeout=10, max_size=None) as ws:
    out["extensions"] = ws.response.headers.get("Sec-WebSocket-Extensions")
    out["subprotocol"] = ws.subprotocol
    ws.send("hello, wörld")
    out["text"] = ws.recv(timeout=20)
    data = bytes(range(256)) * 400
    ws.send(data)
    out["binary_equal"] = ws.recv(timeout=20) == data
    big = "abcdefghij" * 20000
    ws.send(big)
    out["big_length"] = len(ws.recv(timeout=20))
print(json.dumps(out))
