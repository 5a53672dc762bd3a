// Reconciliation: the ledger sweep's runs (each provider's day as its PSP lists it, matched
// against pixgate's books), newest first, with a form to sweep a day now (operators); one run
// with its counts and findings, each finding linking to its payment; and the settlement
// calendar, what arrives from which PSP on which day, as a chart and a table, with its CSV.
import { useEffect, useState } from 'preact/hooks';
import { get, getText, post } from '../api.js';
import { BarChart } from '../chart.js';
import { ErrorBox, Loaded, can, html, money, useAction, useLoad, when } from '../ui.js';

const PAGE = 20;

/** The finding kinds, and what each means in a few words. */
const KINDS = {
  matched: 'paid at the PSP and here, the same',
  settled_late: 'paid at the PSP while pending here: settled by the sweep',
  paid_after_cancel: 'paid at the PSP, canceled here',
  amount_mismatch: 'paid another amount than the charge’s',
  unknown_pix: 'a pix no charge explains',
  missing_at_psp: 'paid here, absent from the PSP’s list',
  refund_mismatch: 'a devolução unlike pixgate’s refund, or made at the PSP',
  med_refund: 'money the payer’s bank took back (MED)',
};

/** `YYYY-MM-DD` of today in Brasília (UTC-3 all year), moved by `days`. */
function brasiliaDay(days = 0) {
  return new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

/** Offers `text` as a file download named `name`. */
function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Counts({ counts }) {
  const kinds = Object.entries(counts ?? {});
  if (kinds.length === 0) return html`<span class="muted">none</span>`;
  return html`${kinds.map(([kind, n], i) => html`${i ? ', ' : ''}<span class=${`finding ${kind}`}>${kind} ${n}</span>`)}`;
}

export function Reconciliations({ me }) {
  const [provider, setProvider] = useState('');
  const [shown, setShown] = useState('');
  const [extra, setExtra] = useState([]);
  const [done, setDone] = useState(false);
  const more = useAction();
  const list = useLoad(async () => {
    const page = await get('/reconciliations', { provider: shown, limit: PAGE });
    setExtra([]);
    setDone(page.length < PAGE);
    return page;
  }, [shown]);
  const runs = [...(list.data ?? []), ...extra];
  // A run still sweeping is read again until it ends.
  const running = runs.some((r) => r.status === 'RUNNING');
  useEffect(() => {
    if (!running) return undefined;
    const timer = setTimeout(list.reload, 1000);
    return () => clearTimeout(timer);
  }, [running, list.data]);
  return html`<h1>Reconciliation</h1>
    <p>Each provider's day as its PSP lists it (API Pix <code>GET /pix</code>), matched against pixgate's books: what
      matched, and exactly which payments did not and why. The schedule sweeps every provider's day before each
      morning; an operator can sweep a day now. <a href="#/settlements">The settlement calendar</a> shows what arrives
      from which PSP on which day.</p>
    ${can(me, 'operator') ? html`<${SweepForm} onStarted=${() => list.reload()} />` : null}
    <form class="filters" role="search" aria-label="Filter runs" onSubmit=${(e) => {
      e.preventDefault();
      setShown(provider.trim());
    }}>
      <label>Provider <input value=${provider} onInput=${(e) => setProvider(e.target.value)} placeholder="every provider" /></label>
      <button type="submit">Filter</button>
    </form>
    <${Loaded} state=${list} what="runs">${() => runs.length === 0
      ? html`<p role="status">No run yet.</p>`
      : html`<div class="scroll"><table>
          <caption>${runs.length} ${runs.length === 1 ? 'run' : 'runs'}${done ? '' : ' so far'}, newest first</caption>
          <thead><tr><th scope="col">Day</th><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">Asked by</th>
            <th scope="col">Pix</th><th scope="col">Findings</th><th scope="col">Started</th></tr></thead>
          <tbody>${runs.map((r) => html`<tr>
            <th scope="row"><a href=${`#/reconciliations/${r.reconciliationId}`}>${r.date}</a></th>
            <td>${r.provider}</td><td><span class=${`badge ${r.status}`}>${r.status}</span></td>
            <td>${r.requestedBy ?? html`<span class="muted">the schedule</span>`}</td>
            <td>${r.pix}</td><td><${Counts} counts=${r.counts} /></td><td>${when(r.startedAt)}</td>
          </tr>`)}</tbody>
        </table></div>`}<//>
    <${ErrorBox} error=${more.error} />
    ${list.data && !done ? html`<button type="button" disabled=${more.busy} onClick=${async () => {
      const page = await more.run(() => get('/reconciliations', {
        provider: shown, limit: PAGE, after: runs[runs.length - 1].reconciliationId,
      }));
      if (page) {
        setExtra([...extra, ...page]);
        setDone(page.length < PAGE);
      }
    }}>More runs</button>` : null}`;
}

/** Sweeps a provider's day now; the run appears in the list. */
function SweepForm({ onStarted }) {
  const providers = useLoad(() => get('/providers'), []);
  const [form, setForm] = useState({ provider: '', date: brasiliaDay(-1) });
  const action = useAction();
  const chosen = form.provider || providers.data?.[0]?.code || '';
  return html`<form class="filters" aria-label="Sweep a day" onSubmit=${async (e) => {
    e.preventDefault();
    const run = await action.run(() => post('/reconciliations', { provider: chosen, date: form.date }));
    if (run) onStarted(run);
  }}>
    <label>Provider
      <select value=${chosen} onChange=${(e) => setForm({ ...form, provider: e.target.value })}>
        ${(providers.data ?? []).map((p) => html`<option value=${p.code}>${p.code}</option>`)}
      </select>
    </label>
    <label>Day <input type="date" value=${form.date} max=${brasiliaDay()} required
      onInput=${(e) => setForm({ ...form, date: e.target.value })} /></label>
    <button type="submit" class="primary" disabled=${action.busy || !chosen}>Sweep this day</button>
    <${ErrorBox} error=${action.error} />
  </form>`;
}

export function Reconciliation({ id }) {
  const run = useLoad(() => get(`/reconciliations/${encodeURIComponent(id)}`), [id]);
  const [kind, setKind] = useState('');
  const findings = useLoad(
    () => get(`/reconciliations/${encodeURIComponent(id)}/findings`, { kind, limit: 100 }),
    [id, kind, run.data?.status],
  );
  const csv = useAction();
  useEffect(() => {
    if (run.data?.status !== 'RUNNING') return undefined;
    const timer = setTimeout(run.reload, 1000);
    return () => clearTimeout(timer);
  }, [run.data]);
  return html`<h1>Reconciliation of ${run.data ? html`${run.data.provider} for ${run.data.date}` : html`<code>${id}</code>`}</h1>
    <p><a href="#/reconciliations">Back to the runs</a></p>
    <${Loaded} state=${run} what="the run">${(r) => html`<dl class="facts">
        <dt>Status</dt><dd><span class=${`badge ${r.status}`}>${r.status}</span></dd>
        ${r.error ? html`<dt>Error</dt><dd>${r.error}</dd>` : null}
        <dt>Asked by</dt><dd>${r.requestedBy ?? 'the schedule'}</dd>
        <dt>Read</dt><dd>${r.pages} ${r.pages === 1 ? 'page' : 'pages'}, ${r.pix} pix</dd>
        <dt>Findings</dt><dd><${Counts} counts=${r.counts} /></dd>
        <dt>Started</dt><dd>${when(r.startedAt)}</dd>
        ${r.finishedAt ? html`<dt>Finished</dt><dd>${when(r.finishedAt)}</dd>` : null}
      </dl>`}<//>
    <section aria-labelledby="findings-title">
      <h2 id="findings-title">Findings</h2>
      <form class="filters" aria-label="Filter findings" onSubmit=${(e) => e.preventDefault()}>
        <label>Kind
          <select value=${kind} onChange=${(e) => setKind(e.target.value)}>
            <option value="">every kind but matched</option>
            ${Object.keys(KINDS).map((k) => html`<option value=${k}>${k}</option>`)}
          </select>
        </label>
        <button type="button" disabled=${csv.busy} onClick=${() => csv.run(async () => {
          download(await getText(`/reconciliations/${encodeURIComponent(id)}/findings.csv`, { kind }), `findings-${id}.csv`);
        })}>Download CSV</button>
      </form>
      <${ErrorBox} error=${csv.error} />
      <${Loaded} state=${findings} what="the findings">${(list) => list.length === 0
        ? html`<p role="status">${kind ? `No ${kind} finding.` : 'Nothing to look at: every pix matched.'}</p>`
        : html`<div class="scroll"><table>
            <caption>${list.length} ${list.length === 1 ? 'finding' : 'findings'}${list.length === 100 ? ' (the first 100: the CSV has them all)' : ''}</caption>
            <thead><tr><th scope="col">Kind</th><th scope="col">Payment</th><th scope="col">Amount at the PSP</th>
              <th scope="col">Here</th><th scope="col">endToEndId / txid</th><th scope="col">What</th></tr></thead>
            <tbody>${list.map((f) => html`<tr>
              <th scope="row"><span class=${`finding ${f.kind}`} title=${KINDS[f.kind] ?? ''}>${f.kind}</span></th>
              <td>${f.paymentIntentId ? html`<a href=${`#/payments/${f.paymentIntentId}`}><code>${f.paymentIntentId.slice(0, 8)}</code></a>` : html`<span class="muted">none</span>`}</td>
              <td class="nowrap">${money(f.amount)}</td><td class="nowrap">${money(f.localAmount)}</td>
              <td><code>${f.endToEndId ?? f.txid ?? ''}</code></td><td>${f.detail}</td>
            </tr>`)}</tbody>
          </table></div>`}<//>
    </section>`;
}

/** The settlement form's fields, kept while the tab lives. */
let lastPeriod = null;

export function Settlements() {
  const [form, setForm] = useState(() => lastPeriod ?? { from: brasiliaDay(-7), to: brasiliaDay(30), merchant: '', provider: '' });
  const [query, setQuery] = useState(form);
  const rows = useLoad(() => get('/settlements', query), [JSON.stringify(query)]);
  const csv = useAction();
  const field = (name) => (e) => setForm({ ...form, [name]: e.target.value });
  return html`<h1>Settlement calendar</h1>
    <p>What arrives from which PSP on which day: per settlement date, merchant, provider, gateway and release class, the
      LIVE payments that succeeded (gross, and the fees their economics quoted) less the refunds completed that day.
      SHADOW payments moved no money and are not in it.</p>
    <form class="filters" role="search" aria-label="Settlement period" onSubmit=${(e) => {
      e.preventDefault();
      lastPeriod = form;
      setQuery(form);
    }}>
      <label>From <input type="date" value=${form.from} required onInput=${field('from')} /></label>
      <label>To <input type="date" value=${form.to} required onInput=${field('to')} /></label>
      <label>Merchant <input value=${form.merchant} onInput=${field('merchant')} placeholder="every merchant" /></label>
      <label>Provider <input value=${form.provider} onInput=${field('provider')} placeholder="every provider" /></label>
      <button type="submit" class="primary">Show</button>
      <button type="button" disabled=${csv.busy} onClick=${() => csv.run(async () => {
        download(await getText('/settlements.csv', query), `settlements-${query.from}-${query.to}.csv`);
      })}>Download CSV</button>
    </form>
    <${ErrorBox} error=${csv.error} />
    <${Loaded} state=${rows} what="the calendar">${(list) => list.length === 0
      ? html`<p role="status">Nothing settles from ${query.from} to ${query.to}.</p>`
      : html`<${Calendar} rows=${list} />`}<//>`;
}

/** The net by date and provider as bars, then every row. */
function Calendar({ rows }) {
  const dates = [...new Set(rows.map((r) => r.settlementDate))].sort();
  const providers = [...new Set(rows.map((r) => r.provider))].sort();
  const net = (date, provider) => rows
    .filter((r) => r.settlementDate === date && r.provider === provider)
    .reduce((sum, r) => sum + Math.round(r.net * 100), 0) / 100;
  const total = (key) => rows.reduce((sum, r) => sum + Math.round(r[key] * 100), 0) / 100;
  return html`<${BarChart} title="Net to receive by settlement date and provider (BRL)" labelHeading="date" labels=${dates}
      series=${providers.map((p) => ({ label: p, values: dates.map((d) => net(d, p)) }))} />
    <div class="scroll"><table>
      <caption>${rows.length} ${rows.length === 1 ? 'row' : 'rows'}: ${money(total('net'))} net of ${money(total('gross'))} gross</caption>
      <thead><tr><th scope="col">Date</th><th scope="col">Merchant</th><th scope="col">Provider</th><th scope="col">Gateway</th>
        <th scope="col">Class</th><th scope="col">Payments</th><th scope="col">Gross</th><th scope="col">Fees</th>
        <th scope="col">Refunds</th><th scope="col">Net</th></tr></thead>
      <tbody>${rows.map((r) => html`<tr>
        <th scope="row" class="nowrap">${r.settlementDate}</th><td>${r.merchant}</td><td>${r.provider}</td>
        <td>${r.gatewayAlias}</td><td>${r.releaseClass}</td><td>${r.payments}</td>
        <td class="nowrap">${money(r.gross)}</td><td class="nowrap">${money(r.fees)}</td>
        <td class="nowrap">${money(r.refunds)}</td><td class="nowrap">${money(r.net)}</td>
      </tr>`)}</tbody>
    </table></div>`;
}
