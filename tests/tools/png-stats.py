#!/usr/bin/env python3
"""png-stats.py FILE.png - decode a PNG (8-bit grey/RGB/RGBA, no interlace;
what Chromium writes) with the standard library only and print
"WIDTHxHEIGHT distinct=N ink=F": the number of distinct colours and the
fraction of pixels that differ from the most common one.  For checking
that a screenshot is not blank."""
import sys
import zlib
from collections import Counter


def decode(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('not a PNG')
    pos, idat, w = 8, b'', None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], 'big')
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            w, h = int.from_bytes(body[0:4], 'big'), int.from_bytes(body[4:8], 'big')
            depth, ctype, interlace = body[8], body[9], body[12]
            if depth != 8 or interlace or ctype not in (0, 2, 6):
                raise ValueError('unsupported PNG kind')
            bpp = {0: 1, 2: 3, 6: 4}[ctype]
        elif kind == b'IDAT':
            idat += body
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = decode(sys.argv[1])
    count = Counter()
    for r in rows[::2]:
        for x in range(0, len(r), bpp * 2):
            count[r[x:x + 3]] += 1
    total = sum(count.values())
    ink = 1 - count.most_common(1)[0][1] / total
    print('%dx%d distinct=%d ink=%.4f' % (w, h, len(count), ink))


main()
