#!/usr/bin/env python3
"""Decodes HPACK header blocks with the independent Python `hpack` package (used by HpackPythonInteropTest).

Usage: decode_blocks.py INPUT.json

INPUT.json: {"stories": [{"name": str, "table_size": int or null, "blocks": ["hex", ...]}, ...]}
  One hpack.Decoder per story decodes its blocks in order, so dynamic-table state carries over between blocks.
  table_size, when given, is the table size the decoder starts with and the largest one it allows (what the
  encoder was told the peer advertised); null keeps the HTTP/2 default of 4096.

Prints to stdout: {"<name>": [[[name, value], ...] for each block], ...}
  Names and values are the decoded octets as str, read as latin-1 (one char per octet).
Exits non-zero, with the story and block on stderr, if any block fails to decode.
"""
import json
import sys

import hpack


def decode_story(story):
    # No header-list limit of our own: the vectors include big blocks, and we want the whole list back.
    decoder = hpack.Decoder(max_header_list_size=1 << 30)
    table_size = story.get("table_size")
    if table_size is not None:
        decoder.max_allowed_table_size = int(table_size)
        decoder.header_table_size = int(table_size)
    out = []
    for i, block in enumerate(story["blocks"]):
        try:
            fields = decoder.decode(bytes.fromhex(block), raw=True)
        except Exception as e:  # report which block, then fail
            raise SystemExit("%s block %d: %s: %s" % (story["name"], i, type(e).__name__, e))
        out.append([[bytes(n).decode("latin-1"), bytes(v).decode("latin-1")] for n, v in fields])
    return out


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: decode_blocks.py INPUT.json")
    with open(argv[1], "r", encoding="utf-8") as f:
        data = json.load(f)
    result = {}
    for story in data["stories"]:
        result[story["name"]] = decode_story(story)
    json.dump(result, sys.stdout, ensure_ascii=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
