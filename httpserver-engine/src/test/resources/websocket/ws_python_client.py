"""Python `websockets` client against Weft's echo endpoint; prints one JSON object with what it saw.

usage: ws_python_client.py URI [CA_PEM]
"""
import asyncio
import json
import ssl
import sys

import websockets
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def main(uri, cafile):
    ctx = ssl.create_default_context(cafile=cafile) if uri.startswith("wss:") else None
    out = {"version": websockets.__version__, "timings": []}
    loop = asyncio.get_running_loop()
    start = loop.time()

    def mark(what):
        out["timings"].append("%s %.2f" % (what, loop.time() - start))

    async with connect(uri, ssl=ctx, compression="deflate", max_size=None) as ws:
        out["extensions"] = ws.response.headers.get("Sec-WebSocket-Extensions")
        out["negotiated"] = [type(e).__name__ for e in ws.protocol.extensions]
        await ws.send("hello, wörld")
        out["text"] = await ws.recv()
        large = "".join(chr(0x20 + (i * 7919) % 0x5f) for i in range(900_000))
        await ws.send(large)
        out["large_text_equal"] = (await ws.recv()) == large
        binary = bytes((i * 31) % 256 for i in range(300_000))
        await ws.send(binary)
        out["binary_equal"] = (await ws.recv()) == binary
        # an iterable is sent as a fragmented message
        await ws.send(["frag", "men", "ted €"])
        out["fragmented"] = await ws.recv()
        await ws.send([b"\x01\x02", b"\x03"])
        out["fragmented_binary"] = list(await ws.recv())
        pong = await ws.ping(b"ping-data")
        await asyncio.wait_for(pong, 5)
        out["pong"] = True
        await ws.close(code=4000, reason="bye")
        out["close_code"] = ws.close_code
        out["close_reason"] = ws.close_reason
    mark("first session")
    # a message over the server's 1 MiB maxMessageSize: the server closes with 1009
    async with connect(uri, ssl=ctx, compression=None, max_size=None) as ws:
        await ws.send("y" * (1024 * 1024 + 1))
        try:
            await asyncio.wait_for(ws.recv(), 10)
            out["too_big_code"] = None
        except ConnectionClosed as e:
            out["too_big_code"] = e.rcvd.code if e.rcvd else None
    mark("too big")
    # invalid UTF-8 cannot be sent through the library's API: send it as a raw text frame
    async with connect(uri, ssl=ctx, compression=None) as ws:
        from websockets.frames import Frame, Opcode
        ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80"))
        ws.send_data()
        try:
            await asyncio.wait_for(ws.recv(), 10)
            out["invalid_utf8_code"] = None
        except ConnectionClosed as e:
            out["invalid_utf8_code"] = e.rcvd.code if e.rcvd else None
    mark("invalid utf-8")
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
