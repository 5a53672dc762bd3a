"""Draws deploy/grafana/pixgate.json from a Prometheus server's answers, laid out as Grafana lays
it out: each panel's queries run over a time range through Prometheus's query_range API, with
the dashboard's variables given values as Grafana gives them, and drawn in the panel's grid
place with its title, unit and legend. No Grafana can be installed here (Debian, PyPI and npm
carry none), so this is how the book's picture of the dashboard is made from real metrics;
deploy/grafana/screenshot.sh runs pixgate under load, scrapes it and calls this.

    python3 deploy/grafana/render.py --prometheus URL --start UNIX --end UNIX --out FILE.png
        [--dashboard deploy/grafana/pixgate.json] [--job pixgate] [--step 2]
        [--rate-interval 8s]
"""

import argparse
import json
import re
import sys
import urllib.parse
import urllib.request
from datetime import datetime, timezone

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

# Grafana's dark theme and its classic palette, so the picture reads like the real thing.
BACKGROUND = "#111217"
PANEL = "#181b1f"
BORDER = "#2c3235"
TEXT = "#ccccdc"
MUTED = "#8e8e8e"
PALETTE = ["#73bf69", "#f2cc0c", "#8ab8ff", "#ff780a", "#f2495c", "#5794f2", "#b877d9",
           "#ff9830", "#96d98d", "#ffee52", "#c0d8ff", "#ffb357"]
UNITS = {"reqps": "req/s", "ops": "ops/s", "s": "", "percentunit": "", "short": ""}


def query_range(prometheus, expr, start, end, step):
    params = urllib.parse.urlencode({"query": expr, "start": start, "end": end, "step": step})
    with urllib.request.urlopen(f"{prometheus}/api/v1/query_range?{params}", timeout=30) as answer:
        body = json.load(answer)
    if body.get("status") != "success":
        raise RuntimeError(f"Prometheus refused {expr!r}: {body}")
    return body["data"]["result"]


def substitute(expr, job, rate_interval):
    # Grafana: a multi-value variable inside =~ becomes a regex; $__rate_interval is at least four
    # scrape intervals.
    return expr.replace("$job", re.escape(job)).replace("$__rate_interval", rate_interval)


def legend(fmt, labels):
    if fmt:
        return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: labels.get(m.group(1), ""), fmt)
    shown = {k: v for k, v in labels.items() if k != "__name__"}
    return "{" + ", ".join(f'{k}="{v}"' for k, v in shown.items()) + "}" if shown else "value"


def format_value(value, unit):
    if unit == "s":
        if value == 0:
            return "0"
        if value < 0.001:
            return f"{value * 1e6:.0f} µs"
        if value < 0.01:
            return f"{value * 1000:.1f} ms"
        return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.1f} s"
    if unit == "percentunit":
        return f"{value * 100:.0f}%"
    suffix = UNITS.get(unit, "")
    text = f"{value:.0f}" if abs(value) >= 10 or value == 0 else f"{value:.2g}"
    return f"{text} {suffix}".strip()


def draw_panel(fig, panel, box, series):
    left, bottom, width, height = box
    frame = fig.add_axes(box)
    frame.set_facecolor(PANEL)
    frame.set_xticks([])
    frame.set_yticks([])
    for spine in frame.spines.values():
        spine.set_color(BORDER)
    frame.set_zorder(0)
    fig.text(left + 0.006, bottom + height - 0.006, panel["title"], color=TEXT, fontsize=10,
             fontweight="bold", va="top", ha="left")
    unit = panel.get("fieldConfig", {}).get("defaults", {}).get("unit", "short")
    # Grafana's layout: the title, the plot, its legend in a list under it.
    plot = fig.add_axes([left + 0.045, bottom + 0.046, width - 0.055, height - 0.082])
    plot.set_facecolor(PANEL)
    for spine in plot.spines.values():
        spine.set_visible(False)
    plot.tick_params(colors=MUTED, labelsize=7, length=0)
    plot.grid(color=BORDER, linewidth=0.6)
    plot.set_axisbelow(True)
    if not series:
        plot.set_xticks([])
        plot.set_yticks([])
        plot.text(0.5, 0.5, "No data", color=MUTED, fontsize=11, ha="center", va="center",
                  transform=plot.transAxes)
        return
    for i, (name, points) in enumerate(series):
        times = [datetime.fromtimestamp(t, tz=timezone.utc) for t, _ in points]
        values = [v for _, v in points]
        plot.plot(times, values, color=PALETTE[i % len(PALETTE)], linewidth=1.2, label=name)
    plot.xaxis.set_major_formatter(mdates.DateFormatter("%H:%M:%S", tz=timezone.utc))
    plot.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(5))
    plot.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(4))
    plot.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: format_value(v, unit)))
    plot.set_ylim(bottom=0)
    shown = series[:8]
    plot.legend([n for n, _ in shown], loc="upper left", bbox_to_anchor=(-0.06, -0.27),
                fontsize=6.5, frameon=False, labelcolor=TEXT, ncol=min(len(shown), 4),
                handlelength=1.2, columnspacing=1.2, borderaxespad=0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prometheus", required=True)
    parser.add_argument("--start", type=float, required=True)
    parser.add_argument("--end", type=float, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--dashboard", default="deploy/grafana/pixgate.json")
    parser.add_argument("--job", default="pixgate")
    parser.add_argument("--step", type=float, default=2)
    parser.add_argument("--rate-interval", default="8s")
    args = parser.parse_args()

    dashboard = json.load(open(args.dashboard))
    panels = dashboard["panels"]
    rows = max(p["gridPos"]["y"] + p["gridPos"]["h"] for p in panels)
    header = 2  # grid units above the panels: the dashboard's title and time range
    unit_w, unit_h = 0.75, 0.30  # inches per grid column and row, as Grafana's 24 x 30 px
    fig = plt.figure(figsize=(24 * unit_w, (rows + header) * unit_h), dpi=110)
    fig.patch.set_facecolor(BACKGROUND)
    total_h = rows + header
    start = datetime.fromtimestamp(args.start, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    end = datetime.fromtimestamp(args.end, tz=timezone.utc).strftime("%H:%M:%S UTC")
    fig.text(0.008, 1 - 0.6 / total_h, dashboard["title"], color=TEXT, fontsize=14,
             fontweight="bold", va="top")
    fig.text(0.992, 1 - 0.6 / total_h, f"job = {args.job}    {start} to {end}", color=MUTED,
             fontsize=10, va="top", ha="right")
    empty = []
    for panel in panels:
        pos = panel["gridPos"]
        gap = 0.004
        box = [pos["x"] / 24 + gap, 1 - (pos["y"] + pos["h"] + header) / total_h + gap,
               pos["w"] / 24 - 2 * gap, pos["h"] / total_h - 2 * gap]
        if panel["type"] == "row":
            fig.text(box[0], box[1] + box[3] / 2, panel["title"], color=TEXT, fontsize=12,
                     fontweight="bold", va="center")
            continue
        series = []
        for target in panel.get("targets", []):
            expr = substitute(target["expr"], args.job, args.rate_interval)
            for result in query_range(args.prometheus, expr, args.start, args.end, args.step):
                points = [(float(t), float(v)) for t, v in result["values"] if v not in ("NaN", "+Inf", "-Inf")]
                if points:
                    series.append((legend(target.get("legendFormat"), result["metric"]), points))
        if not series:
            empty.append(panel["title"])
        draw_panel(fig, panel, box, series)
    fig.savefig(args.out, facecolor=BACKGROUND)
    print(f"render: {args.out}; panels without data: {', '.join(empty) if empty else 'none'}")


if __name__ == "__main__":
    sys.exit(main())
