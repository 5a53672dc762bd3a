// The overview, for the person on call: is anything on fire? The verdict first (PSPs down,
// LIVE charges stuck, charges failing, webhook deliveries failing), then the volume and the
// status rates over the last hours, the totals, each PSP's health, the pending LIVE charges by
// age and the stores trying a canary or a shadow candidate.
import { useState } from 'preact/hooks';
import { get } from '../api.js';
import { TimeChart } from '../chart.js';
import { ErrorBox, Loaded, Version, centavos, html, percent, useLoad, when } from '../ui.js';
import { IntentTable, PaymentLookup } from './payments.js';
import { health } from './providers.js';

const HOURS = [1, 6, 24, 72, 168];

/** The window chosen, kept while the tab lives so coming back shows the same one. */
let lastHours = 24;

/** The age buckets of `pendingLive.byAge` from this one on: pending for over 2 hours, past the
 * PIX expiry of an hour by default, a charge is stuck rather than waiting for its payer. */
const STUCK_FROM = 3;

/** A failing-deliveries page this long or longer is shown as "or more". */
const FAILING_PAGE = 100;

export function Overview() {
  const [hours, setHours] = useState(lastHours);
  const overview = useLoad(() => get('/overview', { hours }), [hours]);
  const providers = useLoad(() => get('/providers'), []);
  const failing = useLoad(() => get('/webhook-deliveries', { state: 'failing', limit: FAILING_PAGE }), []);
  const refresh = () => {
    overview.reload();
    providers.reload();
    failing.reload();
  };
  const span = windowText(hours);
  return html`<h1>Is anything on fire?</h1>
    <${Verdict} overview=${overview} providers=${providers} failing=${failing} span=${span} />
    <form class="row" aria-label="Which window" onSubmit=${(e) => e.preventDefault()}>
      <label>Hours
        <select value=${hours} onChange=${(e) => {
          lastHours = Number(e.target.value);
          setHours(lastHours);
        }}>
          ${HOURS.map((h) => html`<option value=${h}>${windowText(h)}</option>`)}
        </select>
      </label>
      <button type="button" onClick=${refresh} disabled=${overview.loading}>Refresh</button>
    </form>
    <${PaymentLookup} />
    <${Loaded} state=${overview} what="the overview">${(o) => html`
      <${Totals} overview=${o} span=${span} />
      <${Volume} overview=${o} />`}<//>
    <section aria-labelledby="psp-health">
      <h2 id="psp-health">PSP health</h2>
      <${Loaded} state=${providers} what="the providers">${(list) => html`<${ProviderHealth} providers=${list} />`}<//>
    </section>
    ${overview.data ? html`
      <${PendingLive} pending=${overview.data.pendingLive} />
      <${FlaggedStores} stores=${overview.data.flaggedStores} />` : null}`;
}

function windowText(hours) {
  if (hours === 1) return 'the last hour';
  if (hours % 24 === 0) return hours === 24 ? 'the last 24 hours' : `the last ${hours / 24} days`;
  return `the last ${hours} hours`;
}

/** LIVE charges: the ones a PSP was asked for (a SHADOW store's charges stop at the chain). */
function live(byStatus) {
  return ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED'].reduce((n, k) => n + (byStatus?.[k] ?? 0), 0);
}

/** A share of the LIVE charges, or `null` when there was none. */
function rate(byStatus, status) {
  const n = live(byStatus);
  return n ? (byStatus?.[status] ?? 0) / n : null;
}

/** The answer to the page's title: what needs a look, or why nothing seems to. */
function Verdict({ overview: o, providers: p, failing: f, span }) {
  if (o.error || p.error || f.error) {
    return html`<section class="verdict warn" aria-label="Verdict">
      <p><strong>Unknown:</strong> the overview, the providers or the failing webhook deliveries could not be read.</p>
      <${ErrorBox} error=${f.error} />
    </section>`;
  }
  if (!o.data || !p.data || !f.data) {
    return html`<p class="muted" role="status">Checking the PSPs, the charges and the webhook deliveries…</p>`;
  }
  const overview = o.data;
  const failing = f.data;
  const down = p.data.filter((x) => x.active && x.health && x.health.available === false);
  const stuck = (overview.pendingLive?.byAge ?? []).slice(STUCK_FROM).reduce((n, b) => n + b.count, 0);
  const failed = overview.totals?.byStatus?.FAILED ?? 0;
  const failingCount = failing.length >= FAILING_PAGE ? `${FAILING_PAGE} or more` : `${failing.length}`;
  const issues = [
    ...down.map((x) => html`<a href="#/providers">PSP ${x.name} (<code>${x.code}</code>) is unavailable</a>`),
    stuck ? html`${stuck} LIVE ${stuck === 1 ? 'charge has' : 'charges have'} been pending for over 2 hours (the oldest are listed below)` : null,
    failed ? html`${failed} LIVE ${failed === 1 ? 'charge' : 'charges'} failed in ${span} (${percent(rate(overview.totals.byStatus, 'FAILED'))} of the LIVE charges)` : null,
    failing.length ? html`<a href="#/deliveries">${failingCount} webhook ${failing.length === 1 ? 'delivery is' : 'deliveries are'} failing</a>` : null,
  ].filter(Boolean);
  if (!issues.length) {
    return html`<section class="verdict ok" aria-label="Verdict">
      <p><strong>No.</strong> Every PSP that reports its health is available, no LIVE charge has been pending for over 2 hours,
        none failed in ${span} and no webhook delivery is failing.</p>
    </section>`;
  }
  return html`<section class="verdict warn" aria-label="Verdict">
    <p><strong>Maybe: ${issues.length === 1 ? 'this needs' : 'these need'} a look.</strong></p>
    <ul>${issues.map((i) => html`<li>${i}</li>`)}</ul>
  </section>`;
}

/** One figure of the totals. */
function Tile({ label, children }) {
  return html`<div class="tile"><dt>${label}</dt><dd>${children}</dd></div>`;
}

function Totals({ overview: o, span }) {
  const by = o.totals?.byStatus ?? {};
  return html`<section aria-labelledby="totals-title">
    <h2 id="totals-title">Totals, ${span}</h2>
    <p class="muted">Charges created from ${when(o.from)} to ${when(o.to)}. The rates are shares of the LIVE charges
      (${live(by)}); a SHADOW store's charges stop at the decision.</p>
    <dl class="tiles">
      <${Tile} label="Charges">${o.totals?.charges ?? 0}<//>
      <${Tile} label="Amount">${centavos(o.totals?.amountCentavos ?? 0)}<//>
      <${Tile} label="Success rate">${percent(rate(by, 'SUCCEEDED'))}<//>
      <${Tile} label="Failed rate">${percent(rate(by, 'FAILED'))}<//>
      <${Tile} label="Succeeded">${by.SUCCEEDED ?? 0}<//>
      <${Tile} label="Failed">${by.FAILED ?? 0}<//>
      <${Tile} label="Pending">${by.PENDING ?? 0}<//>
      <${Tile} label="Canceled">${by.CANCELED ?? 0}<//>
      <${Tile} label="Shadow only">${by.SHADOW_ONLY ?? 0}<//>
    </dl>
  </section>`;
}

/** Every bucket of the window, the empty ones (left out by the server) as zero charges. */
function buckets(o) {
  const step = (o.bucketSeconds || 3600) * 1000;
  const byAt = new Map((o.series ?? []).map((p) => [Date.parse(p.at), p]));
  const start = Math.floor(Date.parse(o.from) / step) * step;
  const end = Date.parse(o.to);
  const ats = new Set(byAt.keys());
  if (Number.isFinite(start) && Number.isFinite(end) && (end - start) / step <= 1000) {
    for (let at = start; at < end; at += step) ats.add(at);
  }
  return [...ats].sort((a, b) => a - b).map((at) => {
    const p = byAt.get(at);
    const by = p?.byStatus ?? {};
    const share = (status) => {
      const r = rate(by, status);
      return r === null ? null : Math.round(r * 1000) / 10;
    };
    return {
      at: new Date(at).toISOString(),
      charges: p?.charges ?? 0,
      succeeded: by.SUCCEEDED ?? 0,
      failed: by.FAILED ?? 0,
      pending: by.PENDING ?? 0,
      shadow: by.SHADOW_ONLY ?? 0,
      successRate: share('SUCCEEDED'),
      failedRate: share('FAILED'),
    };
  });
}

function bucketText(seconds) {
  if (!seconds || seconds === 3600) return 'hour';
  if (seconds % 3600 === 0) return `${seconds / 3600} hours`;
  return `${Math.round(seconds / 60)} minutes`;
}

function Volume({ overview: o }) {
  const points = buckets(o);
  const per = bucketText(o.bucketSeconds);
  return html`<section aria-labelledby="volume-title">
    <h2 id="volume-title">Volume and outcomes</h2>
    ${(o.series ?? []).length === 0
      ? html`<p class="muted">No charge in this window.</p>`
      : html`<div class="charts">
          <${TimeChart} title=${`Charges per ${per}`} points=${points} span=${[o.from, o.to]}
            series=${[
              { key: 'charges', label: 'charges' },
              { key: 'succeeded', label: 'succeeded' },
              { key: 'failed', label: 'failed' },
              { key: 'pending', label: 'pending' },
            ]} />
          <${TimeChart} title=${`Success and failed rates per ${per} (% of LIVE charges)`} points=${points} span=${[o.from, o.to]}
            unit=" %" max=${100}
            series=${[
              { key: 'successRate', label: 'success rate' },
              { key: 'failedRate', label: 'failed rate' },
            ]} />
        </div>`}
  </section>`;
}

function ProviderHealth({ providers }) {
  if (!providers.length) return html`<p class="muted">No provider is configured: every store decides in SHADOW only.</p>`;
  return html`<div class="scroll"><table>
    <caption>Each PSP's recent calls, as the <a href="#/providers">Providers</a> page shows them</caption>
    <thead><tr><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">Health</th></tr></thead>
    <tbody>${providers.map((p) => html`<tr>
      <th scope="row">${p.name} <code>${p.code}</code></th>
      <td><span class=${`badge ${p.active ? 'ok' : 'off'}`}>${p.active ? 'active' : 'inactive'}</span></td>
      <td>${health(p.health)}</td>
    </tr>`)}</tbody>
  </table></div>`;
}

function PendingLive({ pending }) {
  const byAge = pending?.byAge ?? [];
  const oldest = pending?.oldest ?? [];
  return html`<section aria-labelledby="pending-title">
    <h2 id="pending-title">Pending LIVE charges</h2>
    <p>${pending?.count ?? 0} LIVE ${pending?.count === 1 ? 'charge is' : 'charges are'} waiting for the payer or the PSP, whenever created.</p>
    <div class="scroll"><table class="narrow">
      <caption>Pending LIVE charges by age</caption>
      <thead><tr><th scope="col">Pending for</th><th scope="col">Charges</th></tr></thead>
      <tbody>${byAge.map((b, n) => html`<tr class=${n >= STUCK_FROM && b.count ? 'alarm' : undefined}>
        <th scope="row">${b.label}</th><td>${b.count}</td>
      </tr>`)}</tbody>
    </table></div>
    ${oldest.length
      ? html`<${IntentTable} intents=${oldest} caption=${`The ${oldest.length} oldest, oldest first`}
          extra=${{ label: 'Pending for', cell: (i) => age(i.createdAt) }} />`
      : null}
  </section>`;
}

/** How long ago `iso` was, in words. */
function age(iso) {
  const ms = Date.now() - Date.parse(iso);
  if (!Number.isFinite(ms)) return '—';
  const minutes = Math.max(0, Math.floor(ms / 60000));
  if (minutes < 1) return 'under a minute';
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
}

function FlaggedStores({ stores }) {
  return html`<section aria-labelledby="flagged-title">
    <h2 id="flagged-title">Stores trying a new version</h2>
    ${!stores?.length
      ? html`<p class="muted">No store runs a canary or a shadow candidate.</p>`
      : html`<div class="scroll"><table>
          <caption>Stores running a canary or a shadow candidate</caption>
          <thead><tr><th scope="col">Store</th><th scope="col">Merchant</th><th scope="col">Mode</th><th scope="col">Canaries</th><th scope="col">Shadow candidates</th></tr></thead>
          <tbody>${stores.map((s) => html`<tr>
            <th scope="row"><a href=${`#/stores/${encodeURIComponent(s.store)}`}>${s.store}</a></th>
            <td>${s.merchant}</td><td><span class=${`badge ${s.mode}`}>${s.mode}</span></td>
            <td>${(s.canaries ?? []).length ? html`<ul class="plain">${s.canaries.map((c) => html`<li>
              ${c.step} <${Version} value=${c.version} /> on ${c.basisPoints / 100} % since ${when(c.startedAt)}
            </li>`)}</ul>` : html`<span class="muted">none</span>`}</td>
            <td>${(s.candidates ?? []).length ? html`<ul class="plain">${s.candidates.map((c) => html`<li>
              ${c.step} <${Version} value=${c.version} /> since ${when(c.since)}:${' '}
              <a href=${`#/shadow/${encodeURIComponent(s.store)}/${c.step}`}>${`${s.store} ${c.step} comparison`}</a>
            </li>`)}</ul>` : html`<span class="muted">none</span>`}</td>
          </tr>`)}</tbody>
        </table></div>`}
  </section>`;
}
