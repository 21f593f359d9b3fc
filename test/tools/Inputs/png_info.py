#!/usr/bin/env python3
"""Prints "PNG WIDTHxHEIGHT" for a PNG file (its signature and IHDR chunk),
or fails."""
import struct
import sys

with open(sys.argv[1], "rb") as f:
    data = f.read()
if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
    sys.exit("png_info: %s is not a PNG file" % sys.argv[1])
w, h = struct.unpack(">II", data[16:24])
print("PNG %dx%d, %s bytes" % (w, h, "more than 10000" if len(data) > 10000 else len(data)))
