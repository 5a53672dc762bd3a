#!/usr/bin/env python3
"""Helper of bench/search.sh: seeds a store with N LIVE-style intents straight into pixgate's
database (after pixgate has migrated it), writes the request paths wrk replays, and shows the
query plans of the statements the search runs (host/src/db/search.rs builds them).

  search.py seed    BACKEND DB STORE N BASE_MS
  search.py paths   STORE N BASE_MS OUT_DIR [COUNT]
  search.py explain BACKEND DB STORE N BASE_MS
  search.py check   ORIGIN PATHS_DIR KIND...   (with PIXGATE_BENCH_KEY)

BACKEND is sqlite or postgres; DB the SQLite file or the PostgreSQL URL (psql runs the SQL).
Intent i (1..N) is created at BASE_MS - (N - i) * STEP_MS: N intents over the year before
BASE_MS, one every 31.5 s for a million. Every value of an intent is a function of i, so the
paths name intents, references and days that exist without reading the database.

Statuses: the newest 0.5 % are PENDING (30 %) or SUCCEEDED, the rest SUCCEEDED (75 %),
CANCELED (20 %, expired unpaid) or FAILED (5 %, no PSP took the charge: no pix). Every 20th
order has a second intent with the same reference (a retry after an expiry). Each intent that
a PSP created has its txid, BR Code (about 200 characters) and expiry, as a LIVE charge has,
so a page renders their QR codes as a real one does.
"""

import datetime
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time

YEAR_MS = 365 * 86_400_000


def step_ms(n):
    return max(1, YEAR_MS // n)


def created_at(i, n, base):
    return base - (n - i) * step_ms(n)


def iso(ms):
    at = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def intent_id(i):
    return f"00000000-0000-7000-8000-{i:012x}"


def reference(i):
    return f"pedido-{i - 1 if i % 20 == 0 else i}"


def seed_sql(backend, n, base, store_id, merchant_id):
    """One INSERT ... SELECT of n rows, each value a function of i."""
    if backend == "sqlite":
        source = (f"with recursive g(i) as (select 1 union all select i + 1 from g where i < {n}) ",
                  "from g")
        hex12 = "printf('%012x', i)"
        hex30 = "printf('%030x', i)"
        digits23 = "printf('%023d', i)"
    else:
        source = ("", f"from generate_series(1::bigint, {n}) as g(i)")
        hex12 = "lpad(to_hex(i), 12, '0')"
        hex30 = "lpad(to_hex(i), 30, '0')"
        digits23 = "lpad(i::text, 23, '0')"
    h = "((i * 2654435761) % 1000)"
    created = f"({base} - ({n} - i) * {step_ms(n)})"
    status = (f"(case when i > {n - n // 200} then (case when {h} < 300 then 'PENDING' "
              f"else 'SUCCEEDED' end) when {h} < 750 then 'SUCCEEDED' "
              f"when {h} < 950 then 'CANCELED' else 'FAILED' end)")
    amount = f"(500 + ({h} * 7919) % 50000)"
    txid = f"('px' || {hex30})"
    # The columns of migrations 0001 and 0005; later ones have their defaults.
    columns = ("id, merchant_id, store_id, status, amount_centavos, currency, reference, "
               "description, payer_kind, payer_sealed, metadata, idempotency_key, routing_mode, "
               "routing_policy, provider_code, gateway_alias, release_class, "
               "cross_class_failover, fee_centavos, net_centavos, settlement_date, "
               "provider_payment_id, failure_code, failure_message, created_at, updated_at, "
               "completed_at, txid, pix_location, pix_copy_paste, pix_expires_at, reconcile_at")
    sealed = "v1." + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0" * 2
    select = f"""
      select '00000000-0000-7000-8000-' || {hex12}, '{merchant_id}', '{store_id}', s.status,
        s.amount, 'BRL', 'pedido-' || (case when i % 20 = 0 then i - 1 else i end),
        'Pedido ' || i, case when {h} < 900 then 'CPF' else 'CNPJ' end, '{sealed}',
        '{{"orderId":"' || i || '","channel":"web"}}', 'checkout-' || i, 'LIVE', 'd0-first',
        case when {h} % 2 = 0 then 'sandbox-a' else 'sandbox-b' end,
        case when {h} % 2 = 0 then 'sandbox-a-d0' else 'sandbox-b-d0' end, 'D0', 1,
        99 + s.amount / 100, s.amount - 99 - s.amount / 100, '2026-11-24',
        case when s.status = 'SUCCEEDED' then 'E' || {digits23} || 'pixgatebench' end,
        case when s.status = 'FAILED' then 'psp_unavailable' end,
        case when s.status = 'FAILED' then 'every gateway failed' end,
        s.created, s.created + case when s.status = 'PENDING' then 0 else 60000 end,
        case when s.status <> 'PENDING' then s.created + 60000 end,
        case when s.status <> 'FAILED' then {txid} end,
        case when s.status <> 'FAILED' then 'pix.example.com/qr/v2/' || {txid} end,
        case when s.status <> 'FAILED' then
          '00020101021226830014br.gov.bcb.pix2561pix.example.com/qr/v2/' || {txid} ||
          '5204000053039865802BR5913Demo Merchant6009SAO PAULO62070503***6304' ||
          upper(substr({hex12}, 9, 4)) end,
        case when s.status <> 'FAILED' then s.created + 86400000 end,
        case when s.status = 'PENDING' then s.created + 30000 end
      from (select i, {status} as status, {amount} as amount, {created} as created
            {source[1]}) as s"""
    return f"{source[0]}insert into payment_intents ({columns}) {select}"


def psql(url, sql):
    run = subprocess.run(["psql", url, "-qAtX", "-v", "ON_ERROR_STOP=1"], input=sql, text=True,
                         capture_output=True)
    if run.returncode != 0:
        sys.exit(f"psql failed: {run.stderr}")
    return run.stdout


def store_ids(backend, db, store):
    sql = f"select id, merchant_id from stores where code = '{store}'"
    if backend == "sqlite":
        row = sqlite3.connect(db).execute(sql).fetchone()
    else:
        row = psql(db, sql + ";").strip().split("|")
    if not row or not row[0]:
        sys.exit(f"no store {store}")
    return row[0], row[1]


def seed(backend, db, store, n, base):
    store_id, merchant_id = store_ids(backend, db, store)
    sql = seed_sql(backend, n, base, store_id, merchant_id)
    started = time.monotonic()
    if backend == "sqlite":
        conn = sqlite3.connect(db, timeout=60)
        conn.execute("pragma synchronous = off")
        conn.execute(sql)
        conn.commit()
        loaded = time.monotonic() - started
        conn.execute("pragma wal_checkpoint(truncate)")
        conn.close()
        # No ANALYZE: pixgate never runs it, so its SQLite plans without statistics.
        print(f"sqlite: {n} intents inserted in {loaded:.1f} s (no ANALYZE: as pixgate runs)")
    else:
        psql(db, sql + ";")
        loaded = time.monotonic() - started
        psql(db, "vacuum analyze payment_intents;")
        print(f"postgres: {n} intents inserted in {loaded:.1f} s, then VACUUM ANALYZE "
              f"(autovacuum's job on a live database) in {time.monotonic() - started - loaded:.1f} s")


DAY_MS = 86_400_000


def paths(store, n, base, out_dir, count):
    """One file of request paths per kind of page; wrk picks among them at random."""
    rng = random.Random(20261124)
    first, last = created_at(1, n, base), created_at(n, n, base)

    def some_intent():
        return rng.randint(1, n)

    def some_day():
        start = rng.randint(first, last - DAY_MS)
        return iso(start), iso(start + DAY_MS)

    api = "/api/v1/payments"
    kinds = {
        # The newest page of the store, and deep pages (after a random intent).
        "newest": lambda: f"{api}?store={store}" + (
            "" if rng.random() < 0.5 else f"&after={intent_id(some_intent())}"),
        # store + status, first or deep pages: SUCCEEDED or CANCELED (each item a QR code),
        # and FAILED (5 %: no PSP took the charge, so no QR code to draw).
        "status": lambda: f"{api}?store={store}&status={rng.choice(['SUCCEEDED', 'CANCELED'])}"
        + ("" if rng.random() < 0.5 else f"&after={intent_id(some_intent())}"),
        "status_failed": lambda: f"{api}?store={store}&status=FAILED" + (
            "" if rng.random() < 0.5 else f"&after={intent_id(some_intent())}"),
        # An exact reference, anywhere in the year.
        "reference": lambda: f"{api}?reference={reference(some_intent())}",
        # A day's window (about 2,700 intents), its newest 20.
        "window": lambda: "{}?createdFrom={}&createdTo={}".format(api, *some_day()),
        # A rare status in a day's window.
        "status_window": lambda: "{}?status=FAILED&createdFrom={}&createdTo={}".format(
            api, *some_day()),
        # Issue 30 (bench/search_qr.sh): the QR codes asked for. The newest pages (the newest
        # 0.5 %: 30 % PENDING, each drawn), and the PENDING ones alone (20 drawn a page).
        "newest_qr": lambda: f"{api}?store={store}&include=qrCode" + (
            "" if rng.random() < 0.5 else f"&after={intent_id(rng.randint(n - n // 200 + 40, n))}"),
        "pending_qr": lambda: f"{api}?store={store}&status=PENDING&include=qrCode" + (
            "" if rng.random() < 0.5 else f"&after={intent_id(rng.randint(n - n // 200, n))}"),
    }
    os.makedirs(out_dir, exist_ok=True)
    for kind, make in kinds.items():
        with open(os.path.join(out_dir, f"{kind}.paths"), "w") as f:
            for _ in range(count):
                f.write(make() + "\n")
    print(" ".join(kinds))


def statements(n, base):
    """(name, SQL with ? for the store) of the statements host/src/db/search.rs runs for one
    store's page, with the values of a typical request; SQLite's names its index."""
    day = created_at(n // 2, n, base)
    deep = n // 3
    cursor = f"(created_at, id) < ({created_at(deep, n, base)}, '{intent_id(deep)}')"
    order = "order by created_at desc, id desc limit 20"
    return [
        ("newest page", "payment_intents_store_created_id_idx",
         f"store_id = ? {order}"),
        ("deep page (after an intent a third of the way in)",
         "payment_intents_store_created_id_idx", f"store_id = ? and {cursor} {order}"),
        ("status=FAILED", "payment_intents_store_status_idx",
         f"store_id = ? and status = 'FAILED' {order}"),
        ("status=FAILED, deep page", "payment_intents_store_status_idx",
         f"store_id = ? and status = 'FAILED' and {cursor} {order}"),
        ("reference", "payment_intents_store_reference_idx",
         f"store_id = ? and reference = '{reference(n // 2)}' {order}"),
        ("a day's window", "payment_intents_store_created_id_idx",
         f"store_id = ? and created_at >= {day} and created_at < {day + DAY_MS} {order}"),
        ("status=FAILED in a day's window", "payment_intents_store_status_idx",
         f"store_id = ? and status = 'FAILED' and created_at >= {day} "
         f"and created_at < {day + DAY_MS} {order}"),
    ]


def explain(backend, db, store, n, base):
    store_id, _ = store_ids(backend, db, store)
    for name, index, where in statements(n, base):
        print(f"-- {name}")
        if backend == "sqlite":
            sql = f"select * from payment_intents indexed by {index} where {where}"
            print(sql.replace("?", f"'{store_id}'"))
            conn = sqlite3.connect(db)
            for row in conn.execute(f"explain query plan {sql}", (store_id,)):
                print(f"   {row[3]}")
            times = []
            for _ in range(200):
                started = time.perf_counter()
                rows = conn.execute(sql, (store_id,)).fetchall()
                times.append((time.perf_counter() - started) * 1000)
            times.sort()
            print(f"   {len(rows)} rows; executed 200 times: p50 {statistics.median(times):.3f} ms, "
                  f"p99 {times[197]:.3f} ms (Python's sqlite3, the statement alone)")
        else:
            sql = f"select * from payment_intents where {where.replace('?', repr(store_id))}"
            print(sql)
            out = psql(db, f"explain (analyze, buffers, costs off) {sql};")
            print("".join(f"   {line}\n" for line in out.strip().splitlines()), end="")
        print()


def check(origin, paths_dir, kinds):
    """Answers 20 random paths of each kind; prints the statuses and the items per page."""
    import urllib.request
    key = os.environ["PIXGATE_BENCH_KEY"]
    rng = random.Random(7)
    for kind in kinds:
        with open(os.path.join(paths_dir, f"{kind}.paths")) as f:
            lines = f.read().split()
        statuses, sizes = [], []
        for path in rng.sample(lines, 20):
            request = urllib.request.Request(origin + path, headers={"Authorization": f"Bearer {key}"})
            with urllib.request.urlopen(request) as r:
                statuses.append(r.status)
                sizes.append(len(json.load(r)["data"]))
        print(f"   {kind}: HTTP {sorted(set(statuses))}, items per page: "
              f"min {min(sizes)}, median {statistics.median(sizes):g}, max {max(sizes)}")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "seed":
        seed(args[0], args[1], args[2], int(args[3]), int(args[4]))
    elif command == "paths":
        paths(args[0], int(args[1]), int(args[2]), args[3], int(args[4]) if len(args) > 4 else 2000)
    elif command == "explain":
        explain(args[0], args[1], args[2], int(args[3]), int(args[4]))
    elif command == "check":
        check(args[0], args[1], args[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
