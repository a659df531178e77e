"""Python websockets (client and server) through an HTTP proxy: the client's proxy= support opens a CONNECT
tunnel. Starts a websockets echo server on 127.0.0.1, connects to it through the proxy given as the first
argument (e.g. http://user:pass@127.0.0.1:8080), exchanges text and binary messages. Prints one JSON object."""
import asyncio
import json
import sys

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve


async def echo(ws):
    async for message in ws:
        await ws.send(message)


async def main(proxy):
    async with serve(echo, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        try:
            async with connect("ws://127.0.0.1:%d/chat" % port, proxy=proxy, open_timeout=10) as ws:
                big = "x" * 100000
                binary = bytes(range(256)) * 40
                await ws.send("hello")
                first = await ws.recv()
                await ws.send(big)
                second = await ws.recv()
                await ws.send(binary)
                third = await ws.recv()
            print(json.dumps({"port": port, "ok": first == "hello" and second == big and third == binary}))
        except Exception as e:  # reported to the test, which asserts on it
            print(json.dumps({"port": port, "ok": False, "error": "%s: %s" % (type(e).__name__, e)}))


asyncio.run(main(sys.argv[1]))
