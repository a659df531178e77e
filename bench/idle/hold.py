#!/usr/bin/env python3
"""Opens N keep-alive connections to an HTTP/1.1 server, sends one request on each and reads its answer, then
holds them all idle until stdin closes (or HOLD seconds pass), printing "holding N" once every answer is in.

Usage: hold.py PORT N [PATH] ; the answers must be 200 with a Content-Length body (as GET /plaintext is).
"""
import asyncio
import sys

PORT = int(sys.argv[1])
COUNT = int(sys.argv[2])
PATH = sys.argv[3] if len(sys.argv) > 3 else "/plaintext"
REQUEST = f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
CONCURRENT_CONNECTS = 200  # connection attempts in flight at once: the listen backlog is not the test


async def one(gate, writers):
    async with gate:
        reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
        writer.write(REQUEST)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status = head.split(b" ", 2)[1]
        if status != b"200":
            raise RuntimeError(f"status {status!r}")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        await reader.readexactly(length)
        writers.append(writer)


async def main():
    gate = asyncio.Semaphore(CONCURRENT_CONNECTS)
    writers = []
    await asyncio.gather(*(one(gate, writers) for _ in range(COUNT)))
    print(f"holding {len(writers)}", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # until the harness closes our stdin
    for w in writers:
        w.close()


asyncio.run(main())
