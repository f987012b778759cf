#!/usr/bin/env python3
"""A webhook receiver for bench/webhooks.sh: answers every POST 204 (or, while the file given as --down exists, 503),
and keeps, per delivery, its arrival, how many interactions it lists (each "receivedAt" member), and for every
SAMPLE-th of them the lag from Herald receiving the interaction to this receiver receiving the delivery.

It shares the machine's cores with Herald, so what it spends is tracking that Herald cannot serve: parsing each
delivery into objects and each instant took 4 ms of CPU per 1,000 interactions, a third of what an endpoint added in
all (docs/performance.md); the members are now found in the bytes by one regular expression, and one instant in 16
parsed, still thousands per run for the lag's percentiles.

    webhook-receiver.py PORT [--down FILE]
    GET /stats        {"deliveries", "distinctIds", "interactions", "lagP50Ms", "lagP99Ms", "lagMaxMs"} since the last reset
    POST /reset       forgets what it kept
No signature is checked here: bench/ measures; the tests verify signatures with the reference library."""
import json
import re
import sys
import threading
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {"deliveries": 0, "ids": set(), "interactions": 0, "lags": []}
DOWN_FILE = sys.argv[sys.argv.index("--down") + 1] if "--down" in sys.argv else None
RECEIVED_AT = re.compile(rb'"receivedAt":"([^"]*)"')
SAMPLE = 16


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        if body:
            self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with LOCK:
            lags = list(STATE["lags"])
            stats = {"deliveries": STATE["deliveries"], "distinctIds": len(STATE["ids"]),
                     "interactions": STATE["interactions"],
                     "lagP50Ms": percentile(lags, 0.5), "lagP99Ms": percentile(lags, 0.99),
                     "lagMaxMs": max(lags) if lags else None}
        self.answer(200, json.dumps(stats).encode())

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/reset":
            with LOCK:
                STATE.update(deliveries=0, ids=set(), interactions=0, lags=[])
            self.answer(204)
            return
        import os
        if DOWN_FILE and os.path.exists(DOWN_FILE):
            self.answer(503)
            return
        arrived = datetime.now().astimezone()
        instants = RECEIVED_AT.findall(body)
        lags = [(arrived - datetime.fromisoformat(value.decode().replace("Z", "+00:00"))).total_seconds() * 1000
                for value in instants[::SAMPLE]]
        with LOCK:
            STATE["deliveries"] += 1
            STATE["interactions"] += len(instants)
            STATE["ids"].add(self.headers.get("webhook-id"))
            STATE["lags"].extend(lags)
        self.answer(204)


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
