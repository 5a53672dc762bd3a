"""The real server for the client's tests: `pixgate serve` on a fresh data dir (SQLite, ports
0), `pixgate psp-sim --plain-http` as the LIVE store's PSP, and a proxy that loses answers.

The binary is PIXGATE_BIN, else the workspace's target/debug/pixgate.
"""

from __future__ import annotations

import http.server
import os
import re
import shutil
import socketserver
import ssl
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[3]
BIN = os.environ.get("PIXGATE_BIN") or str(ROOT / "target" / "debug" / "pixgate")


def _start(args, env, ready, timeout=60):
    out = tempfile.NamedTemporaryFile("w+", delete=False)
    process = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + timeout
    while time.time() < deadline:
        text = Path(out.name).read_text()
        if re.search(ready, text, re.M):
            return process, text, out.name
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{args[1]} did not get ready:\n{Path(out.name).read_text()}")


def make_certificates(directory: Path) -> Path:
    """A test CA and a server certificate for 127.0.0.1 (openssl): the webhook receiver's."""
    def run(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    run("req", "-x509", *ec, "-days", "1", "-subj", "/CN=pixgate client tests CA",
        "-keyout", str(directory / "ca-key.pem"), "-out", str(directory / "ca.pem"))
    run("req", *ec, "-subj", "/CN=receiver", "-keyout", str(directory / "receiver-key.pem"),
        "-out", str(directory / "receiver.csr"))
    (directory / "ext").write_text("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", str(directory / "receiver.csr"), "-CA", str(directory / "ca.pem"),
        "-CAkey", str(directory / "ca-key.pem"), "-CAcreateserial", "-days", "1",
        "-out", str(directory / "receiver.pem"), "-extfile", str(directory / "ext"))
    return directory


class Server:
    """One `pixgate serve`: its merchant and admin origins, demo key and admin token. Webhooks
    may go to loopback over HTTPS with the test CA (make_certificates)."""

    def __init__(self, data_dir: Path, certs: Path):
        env = {k: v for k, v in os.environ.items() if not k.startswith("PIXGATE_")}
        env.update(
            PIXGATE_DATA_DIR=str(data_dir), PIXGATE_LISTEN="127.0.0.1:0",
            PIXGATE_ADMIN_LISTEN="127.0.0.1:0", PIXGATE_LOG="warn",
            PIXGATE_RECONCILE_INTERVAL="1s", PIXGATE_RECONCILE_DAILY_AT="off",
            PIXGATE_WEBHOOK_ALLOW_CIDRS="127.0.0.1/32", PIXGATE_WEBHOOK_CA_FILE=str(certs / "ca.pem"),
        )
        self.process, text, self.log = _start([BIN, "serve"], env, r"^pixgate: ready")
        self.api = re.search(r"^pixgate: merchant API on (\S+)", text, re.M).group(1)
        self.admin = re.search(r"^pixgate: admin API on (\S+)", text, re.M).group(1)
        self.demo_key = re.search(r"^pixgate: demo merchant.*: (\S+)", text, re.M).group(1)
        self.token = re.search(r"^pixgate: admin token.*: (\S+)", text, re.M).group(1)

    def admin_call(self, method, path, body=None):
        answer = httpx.request(method, self.admin + path, json=body,
                               headers={"Authorization": f"Bearer {self.token}"}, timeout=30)
        answer.raise_for_status()
        return answer.json().get("data") if answer.content else None

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


class Simulator:
    def __init__(self):
        self.process, text, _ = _start([BIN, "psp-sim", "--listen", "127.0.0.1:0", "--plain-http"],
                                       dict(os.environ), r"^psp-sim: ready")
        self.origin = re.search(r"^psp-sim: listening on (\S+)", text, re.M).group(1)

    def stats(self):
        return httpx.get(self.origin + "/_sim/stats", timeout=10).json()

    def switches(self, patch):
        httpx.put(self.origin + "/_sim/switches", json=patch, timeout=10).raise_for_status()

    def pay(self, txid):
        httpx.post(f"{self.origin}/_sim/cob/{txid}/pay", json={}, timeout=10).raise_for_status()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture(scope="session")
def certs():
    directory = Path(tempfile.mkdtemp(prefix="pixgate-python-certs-"))
    yield make_certificates(directory)
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="session")
def server(certs):
    data_dir = Path(tempfile.mkdtemp(prefix="pixgate-python-"))
    instance = Server(data_dir, certs)
    yield instance
    instance.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


class Receiver:
    """An HTTPS webhook receiver (the test CA's certificate) that verifies each delivery with
    pixgate.webhooks.verify once `secret` is set, answering 204, or 400 when it does not verify."""

    def __init__(self, certs: Path):
        import pixgate

        self.secret = None
        self.events = []
        self.refused = 0
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    receiver.events.append(pixgate.webhooks.verify(body, dict(self.headers), receiver.secret or ""))
                    self.send_response(204)
                except pixgate.webhooks.WebhookVerificationError:
                    receiver.refused += 1
                    self.send_response(400)
                self.send_header("Content-Length", "0")
                self.end_headers()

        class Threaded(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.httpd = Threaded(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(certs / "receiver.pem"), str(certs / "receiver-key.pem"))
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"https://127.0.0.1:{self.httpd.server_address[1]}/hooks/pixgate"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def receiver(certs):
    instance = Receiver(certs)
    yield instance
    instance.close()


@pytest.fixture(scope="session")
def live(server):
    """A LIVE store (`padaria-web`) at the simulator and a key for it with every merchant scope."""
    sim = Simulator()
    server.admin_call("POST", "/providers", {
        "code": "sandbox-a", "name": "Sandbox A (psp-sim)", "apiBaseUrl": f"{sim.origin}/api/v2",
        "tokenUrl": f"{sim.origin}/oauth/token", "clientId": "psp-sim-client",
        "clientSecret": "psp-sim-secret", "pixKey": "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
        "account": {"branch": "0001", "number": "1234567-8", "type": "CORRENTE"}})
    server.admin_call("POST", "/merchants", {"code": "padaria", "name": "Padaria Pao Quente"})
    server.admin_call("POST", "/stores", {"code": "padaria-web", "name": "Padaria Pao Quente",
                                         "merchant": "padaria", "mode": "LIVE", "liveEnabled": True})
    server.admin_call("PUT", "/stores/padaria-web/gateways", {"gateways": ["sandbox-a-d0"]})
    key = server.admin_call("POST", "/api-keys", {
        "merchant": "padaria", "stores": ["padaria-web"],
        "scopes": ["payments:create", "payments:read", "payments:refund", "webhooks:manage",
                   "mandates:manage"]})["apiKey"]
    yield sim, key
    sim.stop()


class LossyProxy:
    """An HTTP proxy in front of the server that plays a script, one entry per request:
    "drop" (forward it, then close the connection without answering: the server did the work,
    the client never hears), "503" (answer 503 `psp_unavailable` without forwarding), "429"
    (answer 429 `rate_limited` with `Retry-After: 1`), "hang" (wait 3 s, then close without
    answering), or "pass". Past the script, every request passes. `seen` records each request's
    method, path and Idempotency-Key."""

    def __init__(self, upstream: str, script):
        self.script = list(script)
        self.seen = []
        self.answered = []  # the status of each answer passed on
        proxy = self
        upstream_origin = re.match(r"^(https?://[^/]+)", upstream).group(1)

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _handle(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                proxy.seen.append((self.command, self.path, self.headers.get("Idempotency-Key")))
                action = proxy.script.pop(0) if proxy.script else "pass"
                if action == "hang":
                    time.sleep(3)
                    self.close_connection = True
                    self.connection.close()
                    return
                if action in ("503", "429"):
                    code = "psp_unavailable" if action == "503" else "rate_limited"
                    payload = ('{"success":false,"error":{"code":"%s","message":"from the proxy"}}' % code).encode()
                    self.send_response(int(action))
                    if action == "429":
                        self.send_header("Retry-After", "1")
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() not in ("host", "content-length", "connection")}
                answer = httpx.request(self.command, upstream_origin + self.path, content=body,
                                       headers=headers, timeout=30)
                if action == "drop":
                    self.close_connection = True
                    self.connection.close()
                    return
                proxy.answered.append((answer.status_code, answer.json().get("error", {}).get("code")
                                       if answer.status_code >= 400 else None))
                self.send_response(answer.status_code)
                for k, v in answer.headers.items():
                    if k.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _handle

        class Threaded(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.httpd = Threaded(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        path = re.sub(r"^https?://[^/]+", "", upstream)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def pytest_report_header(config):
    import pixgate

    return f"pixgate {pixgate.__version__} from {Path(pixgate.__file__).parent}, the server {BIN}"
