// Charts with uPlot: grouped bars (a replay's provider distribution before and after) and
// lines over time (a shadow comparison, the overview's volume and rates). Each chart sits in
// a figure with its numbers as a table too, for screen readers and for copying.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'preact/hooks';
import { html } from './ui.js';

const COLORS = ['#1f6feb', '#d97706', '#b91c1c', '#15803d'];

function usePlot(makeOptions, data, deps) {
  const box = useRef(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const width = () => Math.max(280, el.clientWidth);
    const plot = new uPlot({ ...makeOptions(), width: width(), height: 240 }, data, el);
    const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: 240 }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, deps);
  return box;
}

/**
 * Bars per label: two series side by side (the first left of the tick, the second right); a
 * negative value hangs below zero. `labelHeading` names the labels' column in the table.
 */
export function BarChart({ title, labels, series, labelHeading = 'provider' }) {
  const xs = labels.map((_, i) => i);
  const data = [xs, ...series.map((s) => s.values)];
  const n = series.length;
  const box = usePlot(
    () => ({
      title,
      scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: (u, min, max) => [Math.min(0, min * 1.1), Math.max(1, max * 1.1)] } },
      axes: [
        { splits: () => xs, values: (u, splits) => splits.map((i) => labels[i] ?? ''), grid: { show: false } },
        {},
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: COLORS[i % COLORS.length],
          fill: `${COLORS[i % COLORS.length]}cc`,
          paths: uPlot.paths.bars({ size: [0.8 / n, 60], align: n === 2 ? (i === 0 ? -1 : 1) : 0 }),
          points: { show: false },
        })),
      ],
    }),
    data,
    [JSON.stringify(data), title],
  );
  return html`<figure class="chart">
    <div ref=${box} role="img" aria-label=${title}></div>
    <figcaption>
      <table>
        <caption class="visually-hidden">${title}</caption>
        <thead><tr><th scope="col">${labelHeading}</th>${series.map((s) => html`<th scope="col">${s.label}</th>`)}</tr></thead>
        <tbody>${labels.map((l, i) => html`<tr><th scope="row">${l}</th>${series.map((s) => html`<td>${s.values[i]}</td>`)}</tr>`)}</tbody>
      </table>
    </figcaption>
  </figure>`;
}

/**
 * Lines over time; `at` is RFC 3339. A point's `null` is a gap (no value), an absent key 0;
 * a series with gaps shows its points, so a lone value is seen. `unit` follows the values on
 * the axis and in the table (` %`); `max` fixes the top of the scale (100 for percentages);
 * `span` (`[from, to]`, RFC 3339) the time shown, the whole window rather than its points'.
 */
export function TimeChart({ title, points, series, unit = '', max, span }) {
  const xs = points.map((p) => Date.parse(p.at) / 1000);
  const value = (p, s) => (p[s.key] === undefined ? 0 : p[s.key]);
  const data = [xs, ...series.map((s) => points.map((p) => value(p, s)))];
  const shown = (v) => (v === null ? '—' : `${v}${unit}`);
  const box = usePlot(
    () => ({
      title,
      scales: {
        ...(span ? { x: { time: true, range: span.map((t) => Date.parse(t) / 1000) } } : {}),
        y: { range: (u, low, high) => [0, max ?? Math.max(1, high * 1.1)] },
      },
      ...(unit ? { axes: [{}, { values: (u, splits) => splits.map((v) => `${v}${unit}`) }] } : {}),
      series: [{}, ...series.map((s, i) => ({
        label: s.label,
        stroke: COLORS[i % COLORS.length],
        width: 2,
        ...(data[i + 1].includes(null) ? { points: { show: true, size: 6 } } : {}),
      }))],
    }),
    data,
    [JSON.stringify(data), title, unit, max, JSON.stringify(span)],
  );
  return html`<figure class="chart">
    <div ref=${box} role="img" aria-label=${title}></div>
    <figcaption>
      <details>
        <summary>The numbers</summary>
        <table>
          <caption class="visually-hidden">${title}</caption>
          <thead><tr><th scope="col">from</th>${series.map((s) => html`<th scope="col">${s.label}</th>`)}</tr></thead>
          <tbody>${points.map((p) => html`<tr><th scope="row">${new Date(p.at).toLocaleString()}</th>${series.map((s) => html`<td>${shown(value(p, s))}</td>`)}</tr>`)}</tbody>
        </table>
      </details>
    </figcaption>
  </figure>`;
}
