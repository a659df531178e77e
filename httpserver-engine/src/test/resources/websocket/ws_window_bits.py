"""Python `websockets` client that offers permessage-deflate with a small server_max_window_bits and echoes
messages whose compression would reach past that window if the server kept context or compressed large
messages; `websockets` inflates with zlib limited to that window, so such a server fails the session.
Prints one JSON object.

usage: ws_window_bits.py URI BITS
"""
import asyncio
import json
import random
import sys

from websockets.asyncio.client import connect
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory


async def main(uri, bits):
    rnd = random.Random(7)
    a = "".join(rnd.choice("abcdefghij") for _ in range(400))
    b = "".join(rnd.choice("klmnopqrst") for _ in range(400))
    large = (a + b) * 10  # 8,000 bytes, larger than the window
    out = {}
    factory = ClientPerMessageDeflateFactory(server_max_window_bits=bits)
    async with connect(uri, extensions=[factory], compression=None, max_size=None) as ws:
        out["extensions"] = ws.response.headers.get("Sec-WebSocket-Extensions")
        echoed = []
        for m in (a, b, a, large, a):
            await ws.send(m)
            echoed.append(await ws.recv())
        out["all_equal"] = echoed == [a, b, a, large, a]
        await ws.close()
        out["close_code"] = ws.close_code
    print(json.dumps(out))


asyncio.run(main(sys.argv[1], int(sys.argv[2])))
