"""An HTTPS webhook receiver for the image check (.ci/image.sh): verifies each delivery's
signature as docs/src/merchant-guide/verifying-signatures.md says, answers 204 (401 when the
signature is wrong) and appends `<event type> <verified>` to a file.

    python3 .ci/webhook-receiver.py PORT CERT KEY SECRET_FILE OUT_FILE
"""
import hashlib
import hmac
import http.server
import json
import ssl
import sys
import time

port, cert, key, secret_file, out_file = sys.argv[1:6]
secret = open(secret_file).read().strip()


def verify(headers, body: bytes, tolerance: int = 300) -> bool:
    timestamp = headers.get("X-Service-Timestamp", "")
    signature = headers.get("X-Service-Signature", "")
    if not (timestamp.isascii() and timestamp.isdigit()) or len(timestamp) > 19:
        return False
    if not signature.startswith("v1=") or abs(time.time() - int(timestamp)) > tolerance:
        return False
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest(expected.hexdigest().encode(), signature[3:].lower().encode())


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        ok = verify(self.headers, body)
        self.send_response(204 if ok else 401)
        self.end_headers()
        event = json.loads(body).get("type", "?")
        with open(out_file, "a") as f:
            f.write(f"{event} {'verified' if ok else 'REFUSED'}\n")

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", int(port)), Receiver)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print("receiver: ready", flush=True)
server.serve_forever()
