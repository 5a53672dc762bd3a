#!/usr/bin/env python3
"""bench/run's JSON and markdown.

  report.py criterion DIR SINCE       one JSON line with the criterion medians of the `chain`
                                      and `step` groups written after SINCE (epoch seconds)
  report.py assemble PARTS META OUT   PARTS (JSON lines from bench/lib.sh's emit) + META
                                      (machine, git, config) -> OUT, with ratios and targets
  report.py markdown RESULT [FILE]    the section for BENCHMARKS.md; with FILE, replaces what
                                      is between the bench/run markers in it (inserting them
                                      before the first numbered section when missing)
"""
import glob
import json
import os
import sys

BEGIN = "<!-- bench/run:begin -->"
END = "<!-- bench/run:end -->"
BACKENDS = {"sqlite": "SQLite", "postgres": "PostgreSQL"}


def criterion(directory, since):
    found = {}
    for est in glob.glob(os.path.join(directory, "**", "new", "estimates.json"), recursive=True):
        if os.path.getmtime(est) < since:
            continue
        with open(os.path.join(os.path.dirname(est), "benchmark.json")) as f:
            bench = json.load(f)
        if bench["group_id"] not in ("chain", "step"):
            continue
        with open(est) as f:
            e = json.load(f)
        found[bench["full_id"]] = {
            "median_us": round(e["median"]["point_estimate"] / 1e3, 2),
            "median_ci_us": [
                round(e["median"]["confidence_interval"]["lower_bound"] / 1e3, 2),
                round(e["median"]["confidence_interval"]["upper_bound"] / 1e3, 2),
            ],
            "mean_us": round(e["mean"]["point_estimate"] / 1e3, 2),
        }
    if not found:
        sys.exit(f"bench: no criterion results for chain/step under {directory} newer than this run")
    print(json.dumps({"key": "chain", "values": found}))


def put(tree, path, values):
    for part in path:
        tree = tree.setdefault(part, {})
    tree.update(values)


def target(name, goal, value, met, note=""):
    return {"name": name, "goal": goal, "measured": value, "met": met, "note": note}


def targets(r):
    out = []
    wasm = r.get("chain", {}).get("chain/wasm (3 fresh instances and calls)")
    if wasm:
        m = wasm["median_us"]
        out.append(target("chain median (wasm, 3 fresh instances and calls)", "≤ 25 µs (stretch ≤ 15 µs)",
                          f"{m:.1f} µs", m <= 25, "stretch met" if m <= 15 else "stretch missed"))
    else:
        out.append(target("chain median (wasm, 3 fresh instances and calls)", "≤ 25 µs (stretch ≤ 15 µs)", None, None))
    for backend, rate, p99 in (("sqlite", 3000, 20), ("postgres", 2500, 25)):
        new = r.get("charges", {}).get(backend, {}).get("new")
        goal = f"≥ {rate:,} /s with p99 ≤ {p99} ms"
        name = f"{BACKENDS[backend]} new SHADOW charges"
        if new:
            v = f"{new['requests_per_s']:,.0f} /s, p99 {ms(new['p99_ms'])}"
            out.append(target(name, goal, v, new["requests_per_s"] >= rate and new["p99_ms"] <= p99))
        else:
            out.append(target(name, goal, None, None))
    rss = {b: v["peak_rss_mb"] for b, v in r.get("charges", {}).items() if "peak_rss_mb" in v}
    if rss:
        worst = max(rss.values())
        out.append(target("peak RSS under the charge load", "≤ 150 MB",
                          ", ".join(f"{BACKENDS[b]} {v:g} MB" for b, v in rss.items()), worst <= 150))
    else:
        out.append(target("peak RSS under the charge load", "≤ 150 MB", None, None))
    for kind, limit, goal in (("existing", 100, "< 100 ms"), ("new", 1000, "< 1 s")):
        name = f"start to ready, {'existing database' if kind == 'existing' else 'new data dir'}"
        cold = {b: v[kind]["median_ms"] for b, v in r.get("cold_start", {}).items() if kind in v}
        if cold:
            out.append(target(name, goal, ", ".join(f"{BACKENDS[b]} {ms(v)}" for b, v in cold.items()),
                              max(cold.values()) < limit))
        else:
            out.append(target(name, goal, None, None))
    return out


def assemble(parts, meta, out):
    with open(meta) as f:
        r = json.load(f)
    with open(parts) as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                put(r, p["key"].split("."), p["values"])
    for backend, c in r.get("charges", {}).items():
        if "peak_rss_kib" in c:
            c["peak_rss_mb"] = round(c["peak_rss_kib"] * 1024 / 1e6, 1)
        health = c.get("health", {}).get("requests_per_s")
        for route in ("new", "replay"):
            if health and route in c:
                c[route]["per_health"] = round(c[route]["requests_per_s"] / health, 4)
    r["targets"] = targets(r)
    with open(out, "w") as f:
        json.dump(r, f, indent=2, ensure_ascii=False)
        f.write("\n")


def n(v, digits=0):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return f"{v:,.{digits}f}"


def ms(v):
    if v is None:
        return "-"
    return f"{v:,.0f} ms" if v >= 1000 else f"{v:.1f} ms" if v >= 10 else f"{v:.2f} ms"


def markdown(r):
    m, g, c = r["machine"], r["git"], r["config"]
    lines = [
        BEGIN,
        "## Latest `bench/run` (generated: do not edit by hand)",
        "",
        "```sh",
        r["command"],
        "```",
        "",
        f"{r['started_at']}, commit `{g['commit'][:12]}`{' (uncommitted changes)' if g.get('dirty') else ''}, "
        f"{m['nproc']} cores ({m['cpu_model']}), {m['mem_total_gib']} GiB, Linux {m['kernel']}, "
        f"load average {m['load_average_start']} at the start and {m.get('load_average_end', '-')} at the end; "
        f"the whole run took {r.get('elapsed_s', 0) / 60:.1f} min. Everything below comes from this one run "
        f"(steps: {', '.join(c['steps'])}; {c['duration_s']} s per measured run). The machine is shared "
        "and the load generator runs on it, so read medians and ratios within the run, not single figures. "
        "The JSON is `bench/results/latest.json`.",
        "",
        "### Issue 10 targets",
        "",
        "| target | goal | measured | |",
        "|---|---|---|---|",
    ]
    for t in r["targets"]:
        verdict = "not run" if t["met"] is None else ("**met**" if t["met"] else "**missed**")
        if t["note"]:
            verdict += f" ({t['note']})"
        lines.append(f"| {t['name']} | {t['goal']} | {t['measured'] or '-'} | {verdict} |")

    if "chain" in r:
        lines += ["", "### Chain (criterion, `cargo bench -p pixgate --bench chain`)", "",
                  "| benchmark | median | 95 % interval of the median |", "|---|---|---|"]
        for name, v in sorted(r["chain"].items()):
            lo, hi = v["median_ci_us"]
            lines.append(f"| {name} | {v['median_us']:g} µs | {lo:g} - {hi:g} µs |")

    if "charges" in r:
        lines += ["", f"### Merchant API under load (wrk -t2 -c32, {c['duration_s']} s each after a 3 s warm-up, rate limit off)",
                  "", "`health` is the admin listener's `/healthz` (no database, no chain): the same server, "
                  "the same wrk, so `÷ health` is what a charge costs relative to the cheapest route.", "",
                  "| backend | run | requests/s | p50 | p99 | non-2xx | ÷ health |", "|---|---|---|---|---|---|---|"]
        for backend, v in r["charges"].items():
            for route, label in (("health", "health route"), ("new", "new SHADOW charges"),
                                 ("replay", "idempotent replays")):
                x = v.get(route)
                if x:
                    ratio = "-" if route == "health" else f"{x.get('per_health', 0):.3f}"
                    lines.append(f"| {BACKENDS[backend]} | {label} | {n(x['requests_per_s'])} | {ms(x['p50_ms'])} | "
                                 f"{ms(x['p99_ms'])} | {x['non2xx']} | {ratio} |")
        rss = [f"{BACKENDS[b]} {v['peak_rss_mb']:g} MB" for b, v in r["charges"].items() if "peak_rss_mb" in v]
        if rss:
            lines += ["", f"Peak RSS of the server (VmHWM after the runs above; MB = 10^6 bytes): {', '.join(rss)}."]

    if "cold_start" in r:
        lines += ["", f"### Start to ready (exec to `/readyz` answering 200; median of {c['starts']} starts)", "",
                  "| backend | data dir | median | each start | `pixgate: ready` line, median |", "|---|---|---|---|---|"]
        for backend, v in r["cold_start"].items():
            for kind, label in (("existing", "existing (database and data dir of a previous start)"),
                                ("new", "new (empty data dir" + (", new database" if backend == "postgres" else "") + ")")):
                x = v[kind]
                lines.append(f"| {BACKENDS[backend]} | {label} | {ms(x['median_ms'])} | "
                             f"{', '.join(f'{t:g}' for t in x['runs_ms'])} ms | {ms(x['ready_line_median_ms'])} |")

    if "replay" in r:
        lines += ["", f"### Replay throughput (`POST /admin/v1/replays`, at least {c['replay_charges']:,} recorded charges, 5 runs each)", "",
                  "| backend | versions | median | runs |", "|---|---|---|---|"]
        for backend, v in r["replay"].items():
            for variant in ("recorded", "candidate"):
                x = v.get(variant)
                if x:
                    lines.append(f"| {BACKENDS[backend]} | {variant} | {n(x['median_charges_per_s'])} charges/s | "
                                 f"{', '.join(n(t) for t in x['runs'])} |")

    if "shadow" in r:
        lines += ["", f"### Shadow candidate's effect on new charges ({c['shadow_rounds']} interleaved rounds of {c['duration_s']} s)", "",
                  "| backend | candidate | charges/s, median | p99, median | p99 per round | comparisons recorded / skipped |",
                  "|---|---|---|---|---|---|"]
        for backend, v in r["shadow"].items():
            for variant in ("without", "with"):
                x = v.get(variant)
                if x:
                    comp = f"{v.get('comparisons_recorded', '-')} / {v.get('comparisons_skipped', '-')}" if variant == "with" else "-"
                    lines.append(f"| {BACKENDS[backend]} | {variant} | {n(x['median_charges_per_s'])} | {ms(x['median_p99_ms'])} | "
                                 f"{', '.join(f'{t:g}' for t in x['rounds_p99_ms'])} ms | {comp} |")

    if "webhooks" in r:
        lines += ["", "### Webhook delivery (`cargo bench -p pixgate-e2e --bench webhook_delivery`, one process)", "",
                  "| backend | run | delivered | commit-to-receipt p50 | p90 | p99 |", "|---|---|---|---|---|---|"]
        for backend, v in r["webhooks"].items():
            for run in ("open_loop", "backlog"):
                x = v.get(run)
                if x:
                    label = (f"open loop, {n(x['offered_per_s'])} /s offered for {c['duration_s']} s" if run == "open_loop"
                             else f"backlog of {n(x['deliveries'])} events")
                    lines.append(f"| {BACKENDS[backend]} | {label} | {n(x['deliveries_per_s'])} /s | {ms(x['p50_ms'])} | "
                                 f"{ms(x['p90_ms'])} | {ms(x['p99_ms'])} |")
    lines.append(END)
    return "\n".join(lines) + "\n"


def update(path, section):
    with open(path) as f:
        text = f.read()
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        text = head + section + "\n" + tail
    else:
        at = text.find("\n## ")
        at = len(text) if at < 0 else at + 1
        text = text[:at] + section + "\n" + text[at:]
    with open(path, "w") as f:
        f.write(text)


def main():
    cmd = sys.argv[1]
    if cmd == "criterion":
        criterion(sys.argv[2], float(sys.argv[3]))
    elif cmd == "assemble":
        assemble(*sys.argv[2:5])
    elif cmd == "markdown":
        with open(sys.argv[2]) as f:
            section = markdown(json.load(f))
        if len(sys.argv) > 3:
            update(sys.argv[3], section)
        else:
            sys.stdout.write(section)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
