#!/usr/bin/env python3
"""Starts a command and measures the time until a URL first answers 200.

    bench/first-answer.py URL LOG COMMAND...

Prints "MILLISECONDS PID" and leaves the command running (its output in LOG); exits 1, with no output, if the
command ends first or does not answer within two minutes (then it is killed, as it is when this script is). Polls every 5 ms from this one process: a curl process per poll takes CPU from the JVM that is
starting, on two cores 60-70 ms of a 400 ms start (docs/performance.md).
"""
import signal
import socket
import subprocess
import sys
import time
from urllib.parse import urlsplit

DEADLINE_SECONDS = 120


def answers_200(host, port, request):
    try:
        with socket.create_connection((host, port), timeout=5) as connection:
            connection.sendall(request)
            status_line = connection.recv(64)
    except OSError:
        return False
    return status_line.split(b" ")[1:2] == [b"200"]


def main():
    url, log, command = sys.argv[1], sys.argv[2], sys.argv[3:]
    target = urlsplit(url)
    request = f"GET {target.path} HTTP/1.1\r\nHost: {target.netloc}\r\nConnection: close\r\n\r\n".encode("ascii")
    begin = time.monotonic()
    with open(log, "w") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        while not answers_200(target.hostname, target.port, request):
            if process.poll() is not None or time.monotonic() - begin > DEADLINE_SECONDS:
                sys.exit(1)
            time.sleep(0.005)
    except BaseException:
        process.kill()
        raise
    print(round((time.monotonic() - begin) * 1000), process.pid)


if __name__ == "__main__":
    main()
