"""A receiver of Herald's webhooks that verifies each delivery with Python's standard library alone.

Herald's tests run this file against real deliveries (docs/webhooks.md).

    WEBHOOK_SECRET=whsec_... PORT=3000 python3 webhook_receiver.py
"""
import base64
import hashlib
import hmac
import json
import os
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 5 * 60
MAX_BODY_BYTES = 1024 * 1024


def verify(secret: str, headers, body: bytes) -> bool:
    """True when one v1 signature of webhook-signature is the HMAC-SHA256 of id.timestamp.body under the secret."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not msg_id or not timestamp or not signatures or not timestamp.isdigit():
        return False
    if abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        return False  # an old delivery replayed, or a clock far off
    signed = msg_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    # During a rotation of the secret there is one signature per secret, separated by spaces: one match is enough.
    return any(version == "v1" and hmac.compare_digest(signature, expected)
               for version, _, signature in (value.partition(",") for value in signatures.split(" ")))


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("content-length", "0"))
        if length > MAX_BODY_BYTES:
            self.send_response(413)
            self.end_headers()
            return
        body = self.rfile.read(length)  # the bytes as they arrived: parse JSON only after verifying
        if not verify(os.environ["WEBHOOK_SECRET"], self.headers, body):
            self.send_response(400)
            self.end_headers()
            return
        # Answer at once; do the work afterwards, once per webhook-id (a retry or replay carries the same id).
        self.send_response(204)
        self.end_headers()
        print("verified", self.headers["webhook-id"], json.loads(body).get("type"), flush=True)

    def log_message(self, format, *args):
        pass  # the verified line above is the log


if __name__ == "__main__":
    server = ThreadingHTTPServer((os.environ.get("HOST", "0.0.0.0"), int(os.environ.get("PORT", "3000"))), Receiver)
    print("listening on", server.server_address[1], flush=True)
    server.serve_forever()
