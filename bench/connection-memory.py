#!/usr/bin/env python3
"""Heap that clients hold through their connections, for docs/security.md's capacity table.

Start Herald first with the limits opened wide, so that nothing refuses the connections being measured, e.g.:
  LIMITS_CONNECTIONS=100000 LIMITS_CONNECTIONS_DASH_PER_DASH_CLIENT=100000 \
  LIMITS_BODY_DASH_BYTES_DASH_IN_DASH_FLIGHT=1000000000 LIMITS_READ_DASH_TIMEOUT=PT600S \
  java -XX:+UseSerialGC -Xms8m -Xmx80m -Xss512k -jar target/herald.jar config/dev.yaml
then:
  bench/connection-memory.py KIND COUNT PID [PORT]
KIND: idle (one request answered, then kept alive), partial (8 KB of headers, never finished),
body (64 KiB announced, one byte short). Connections come from distinct 127.0.x.y addresses.
Prints the heap in use after a full GC (jcmd GC.heap_info) before and with the connections open.
"""
import re
import socket
import subprocess
import sys
import time

PAYLOADS = {
    'idle': b'GET /api/v1/public/k/notifications HTTP/1.1\r\nHost: x\r\n\r\n',
    'partial': b'POST /api/v1/public/track/abc HTTP/1.1\r\nHost: x\r\nX-Pad: ' + b'a' * 8000,
    'body': b'POST /api/v1/public/track/abc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
            b'Content-Length: 65536\r\n\r\n' + b'x' * 65535,
}


def heap_kb(pid):
    subprocess.run(['jcmd', pid, 'GC.run'], capture_output=True, check=True)
    out = subprocess.run(['jcmd', pid, 'GC.heap_info'], capture_output=True, text=True, check=True).stdout
    return sum(int(x) for x in re.findall(r'^(?:DefNew|Tenured)\s+total \d+K, used (\d+)K', out, re.M))


def main():
    kind, count, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    port = int(sys.argv[4]) if len(sys.argv) > 4 else 8080
    before = heap_kb(pid)
    sockets = []
    for i in range(count):
        s = socket.socket()
        s.bind((f'127.0.{i // 250 + 1}.{i % 250 + 1}', 0))
        s.connect(('127.0.0.1', port))
        s.sendall(PAYLOADS[kind])
        sockets.append(s)
    time.sleep(2)
    after = heap_kb(pid)
    print(f'{kind}: {count} connections, heap in use after GC {before} KB -> {after} KB: '
          f'{(after - before) / count:.1f} KB each')
    for s in sockets:
        s.close()


if __name__ == '__main__':
    main()
