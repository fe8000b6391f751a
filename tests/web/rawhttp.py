"""rawhttp.py - helpers for medan-web's socket-level tests (test_hostile.py,
test_ws.py): start a server, HTTP from a chosen 127.0.0.x source address,
WebSocket handshakes and frames written byte by byte (no browser)."""
import base64
import hashlib
import http.client as hc
import json
import os
import re
import socket
import struct
import subprocess
import time

GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'


def start_server(bin_dir, args, log_path):
    """medan-web on a free port: (process, port)."""
    log = open(log_path, 'w')
    p = subprocess.Popen([os.path.join(bin_dir, 'medan-web'), '--port', '0'] + args,
                         stdout=subprocess.PIPE, stderr=log, text=True)
    line = p.stdout.readline()
    m = re.search(r':(\d+)/', line)
    if not m:
        p.kill()
        raise RuntimeError('medan-web did not start: %r (log %s)' % (line, log_path))
    return p, int(m.group(1))


def stop_server(p):
    p.terminate()
    try:
        p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def http(port, path, body=None, src='127.0.0.1', secret=None, host=None, timeout=60):
    """(status, JSON or text) of one request from source address src;
    (0, reason) when the server shut the connection without an answer."""
    c = hc.HTTPConnection('127.0.0.1', port, timeout=timeout, source_address=(src, 0))
    hdr = {'Host': host or '127.0.0.1:%d' % port, 'Content-Type': 'application/json'}
    if secret:
        hdr['X-Medan-Secret'] = secret
    try:
        c.request('POST' if body is not None else 'GET', '/' + path,
                  json.dumps(body) if body is not None else None, hdr)
        r = c.getresponse()
        text = r.read().decode('utf-8', 'replace')
        code = r.status
    except (OSError, hc.HTTPException) as e:
        return 0, str(e)
    finally:
        c.close()
    try:
        return code, json.loads(text)
    except ValueError:
        return code, text


def answered_within(port, path, src, seconds, body=None):
    """Ask again and again (each try with a generous timeout) until the
    server answers or `seconds` have passed: the last (status, answer)."""
    end = time.monotonic() + seconds
    while True:
        code, ans = http(port, path, body, src=src, timeout=max(5, seconds))
        if code or time.monotonic() > end:
            return code, ans
        time.sleep(0.5)


def ws_open(port, sid, secret, src='127.0.0.1', timeout=60):
    """A WebSocket handshake for game sid: (socket, status, bytes after the head)."""
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((src, 0))
    s.connect(('127.0.0.1', port))
    k = base64.b64encode(os.urandom(16)).decode()
    s.sendall(('GET /api/session/%s/ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n'
               'Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n'
               'Sec-WebSocket-Protocol: medan, secret.%s\r\n\r\n' % (sid, port, k, secret)).encode())
    buf = b''
    while b'\r\n\r\n' not in buf:
        try:
            b = s.recv(65536)
        except OSError:
            break
        if not b:
            break
        buf += b
    head, _, rest = buf.partition(b'\r\n\r\n')
    m = re.match(rb'HTTP/1\.1 (\d+)', head)
    code = int(m.group(1)) if m else 0
    acc = base64.b64encode(hashlib.sha1((k + GUID).encode()).digest())
    if code == 101 and b'Sec-WebSocket-Accept: ' + acc not in head:
        code = -1
    return s, code, rest


def frame(op, payload=b'', fin=True, rsv=0, mask=True, length=None):
    """A client frame; length: a lying length field (the payload as given)."""
    n = len(payload) if length is None else length
    b0 = (0x80 if fin else 0) | (rsv << 4) | op
    h = bytes([b0])
    mb = 0x80 if mask else 0
    if n < 126:
        h += bytes([mb | n])
    elif n < 65536:
        h += bytes([mb | 126]) + struct.pack('>H', n)
    else:
        h += bytes([mb | 127]) + struct.pack('>Q', n)
    if not mask:
        return h + payload
    key = os.urandom(4)
    return h + key + bytes(b ^ key[i & 3] for i, b in enumerate(payload))


class Reader:
    """The server's frames on one socket."""

    def __init__(self, sock, rest=b''):
        self.s = sock
        self.buf = rest

    def next(self, timeout=30):
        """(fin, opcode, payload), or None when the server closed the TCP
        connection (or said nothing for `timeout` seconds)."""
        self.s.settimeout(timeout)
        while True:
            b = self.buf
            if len(b) >= 2:
                n = b[1] & 0x7f
                h = 2
                if n == 126 and len(b) >= 4:
                    n, h = struct.unpack('>H', b[2:4])[0], 4
                elif n == 127 and len(b) >= 10:
                    n, h = struct.unpack('>Q', b[2:10])[0], 10
                if n < 126 or h > 2:
                    if len(b) >= h + n:
                        self.buf = b[h + n:]
                        return bool(b[0] & 0x80), b[0] & 0x0f, b[h:h + n]
            try:
                d = self.s.recv(1 << 20)
            except OSError:
                return None
            if not d:
                return None
            self.buf += d

    def control(self, timeout=30):
        """The next frame that is not a state update (text) nor the server's
        own keep-alive ping: (opcode, payload) or None."""
        while True:
            f = self.next(timeout)
            if f is None:
                return None
            if f[1] not in (1, 9):
                return f[1], f[2]

    def closed(self, timeout=30):
        """After a close frame: does the server end the TCP connection?"""
        self.s.settimeout(timeout)
        try:
            while True:
                d = self.s.recv(65536)
                if not d:
                    return True
        except OSError as e:
            return not isinstance(e, socket.timeout)
