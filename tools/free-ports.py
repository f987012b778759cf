#!/usr/bin/env python3
"""Prints N TCP ports on 127.0.0.1 that are free now, all different: the sockets are open together while the system
chooses them. A port next to a free one may be taken, so scripts ask for each one here.

    tools/free-ports.py N
"""
import socket
import sys

sockets = [socket.socket() for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 1)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in sockets))
