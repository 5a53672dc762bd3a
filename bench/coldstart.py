#!/usr/bin/env python3
"""Cold start to ready: the time from exec of `pixgate serve` to its admin listener's /readyz
answering 200 (the database reached), on a new data dir (and, on PostgreSQL, a new database:
migrations, master key, admin token, demo seed, component compilation) and on an existing one
(the data dir and database of a previous start). Also the time to the `pixgate: ready` line.

Usage: bench/coldstart.py BINARY BACKEND STARTS [PG_ADMIN_URL]
Prints one JSON object: {"new": {...}, "existing": {...}}, medians and each start in ms.
"""
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid


def psql(admin_url, sql):
    subprocess.run(["psql", admin_url, "-qc", sql], check=True, stdout=subprocess.DEVNULL)


def start_once(binary, data_dir, database_url):
    """Starts the server, waits for /readyz, stops it; returns (readyz_ms, ready_line_ms)."""
    # Only our settings: a PIXGATE_* variable from the caller's shell would change what is measured.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PIXGATE_") or k.startswith(("PIXGATE_BENCH_", "PIXGATE_TEST_"))}
    env.update(
        PIXGATE_DATA_DIR=data_dir,
        PIXGATE_LISTEN="127.0.0.1:0",
        PIXGATE_ADMIN_LISTEN="127.0.0.1:0",
        PIXGATE_RATE_LIMIT_PER_SECOND="0",
        PIXGATE_LOG="warn",
    )
    if database_url:
        env["PIXGATE_DATABASE_URL"] = database_url
    err = open(data_dir + ".err", "w+")
    started = time.perf_counter()
    proc = subprocess.Popen([binary, "serve"], env=env, stdout=subprocess.PIPE, stderr=err, text=True)
    admin = threading.Event()
    state = {}

    def read():
        for line in proc.stdout:
            if line.startswith("pixgate: admin API on http://"):
                state["admin"] = line.split("http://", 1)[1].split("/", 1)[0]
                admin.set()
            elif line.startswith("pixgate: ready"):
                state["ready_line"] = time.perf_counter()
        admin.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not admin.wait(60) or "admin" not in state:
            err.seek(0)
            raise RuntimeError(f"pixgate serve printed no admin address; stderr: {err.read()}")
        host, port = state["admin"].rsplit(":", 1)
        deadline = started + 60
        readyz = None
        while readyz is None:
            if time.perf_counter() > deadline or proc.poll() is not None:
                err.seek(0)
                raise RuntimeError(f"/readyz never answered 200; stderr: {err.read()}")
            try:
                conn = http.client.HTTPConnection(host, int(port), timeout=10)
                conn.request("GET", "/readyz")
                if conn.getresponse().status == 200:
                    readyz = time.perf_counter()
                conn.close()
            except OSError:
                pass
            if readyz is None:
                time.sleep(0.001)
        for _ in range(5000):
            if "ready_line" in state:
                break
            time.sleep(0.001)
        ready_line = state.get("ready_line", readyz)
        return (readyz - started) * 1e3, (ready_line - started) * 1e3
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        err.close()


def summary(runs):
    readyz = [r for r, _ in runs]
    lines = [line for _, line in runs]
    return {
        "median_ms": round(statistics.median(readyz), 1),
        "runs_ms": [round(r, 1) for r in readyz],
        "ready_line_median_ms": round(statistics.median(lines), 1),
    }


def main():
    binary, backend, starts = sys.argv[1], sys.argv[2], int(sys.argv[3])
    pg_admin = sys.argv[4] if len(sys.argv) > 4 else None
    root = tempfile.mkdtemp(prefix="pixgate-coldstart-")
    databases = []

    def fresh():
        data_dir = tempfile.mkdtemp(dir=root)
        url = None
        if backend == "postgres":
            name = f"pixgate_bench_{uuid.uuid4().hex}"
            psql(pg_admin, f"create database {name}")
            databases.append(name)
            url = f"{pg_admin.rsplit('/', 1)[0]}/{name}"
        return data_dir, url

    try:
        new = []
        for _ in range(starts):
            data_dir, url = fresh()
            new.append(start_once(binary, data_dir, url))
        # The last new data dir (and database) is the existing one.
        existing = [start_once(binary, data_dir, url) for _ in range(starts)]
        print(json.dumps({"new": summary(new), "existing": summary(existing), "starts": starts}))
    finally:
        shutil.rmtree(root, ignore_errors=True)
        for name in databases:
            try:
                psql(pg_admin, f"drop database if exists {name} with (force)")
            except subprocess.CalledProcessError:
                print(f"bench: could not drop database {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
