// Shadow comparison: a store step's candidate against the active version, over time.
// `#/shadow/<store>/<step>` opens one store's step (the overview and the store link here).
import { useState } from 'preact/hooks';
import { all, get } from '../api.js';
import { TimeChart } from '../chart.js';
import { ErrorBox, Loaded, STEPS, Version, html, percent, useLoad, when } from '../ui.js';
import { Counts, Deltas, ProviderShift, outcome } from './replay.js';

export function Shadow({ store, step }) {
  const stores = useLoad(() => all('/stores', {}, (s) => s.code), []);
  return html`<h1>Shadow comparison</h1>
    <p>A shadow candidate runs beside the active version on every new charge, off the request path; here is how often it decides differently.</p>
    <${Loaded} state=${stores} what="the stores">${(list) => html`<${Picker} key=${`${store}/${step}`} stores=${list} initialStore=${store} initialStep=${step} />`}<//>`;
}

function Picker({ stores, initialStore, initialStep }) {
  const withCandidate = stores.find((s) => s.code === initialStore) ?? stores.find((s) => s.mode === 'SHADOW') ?? stores[0];
  const [store, setStore] = useState(withCandidate?.code ?? '');
  const [step, setStep] = useState(STEPS.includes(initialStep) ? initialStep : 'provider');
  return html`<form class="row" aria-label="Which comparison" onSubmit=${(e) => e.preventDefault()}>
      <label>Store
        <select value=${store} onChange=${(e) => setStore(e.target.value)}>
          ${stores.map((s) => html`<option value=${s.code}>${s.code}</option>`)}
        </select>
      </label>
      <label>Step
        <select value=${step} onChange=${(e) => setStep(e.target.value)}>
          ${STEPS.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
    </form>
    ${store ? html`<${Comparison} key=${`${store}/${step}`} store=${store} step=${step} />` : null}`;
}

function Comparison({ store, step }) {
  const state = useLoad(() => get(`/stores/${encodeURIComponent(store)}/components/${step}/shadow`), [store, step]);
  return html`<${Loaded} state=${state} what="the comparison">${(c) => html`
    <section aria-labelledby="shadow-title" class="report">
      <h2 id="shadow-title">${c.store} · ${c.step}</h2>
      <div class="row"><button type="button" onClick=${state.reload}>Refresh</button></div>
      ${state.error ? html`<${ErrorBox} error=${state.error} />` : null}
      <dl class="facts">
        <dt>Active</dt><dd><${Version} value=${c.active} /></dd>
        <dt>Candidate</dt><dd>${c.candidate ? html`<${Version} value=${c.candidate} />` : html`none attached: set one on the <a href=${`#/stores/${encodeURIComponent(c.store)}`}>store</a>`}</dd>
        <dt>Since</dt><dd>${when(c.since)}</dd>
        <dt>Compared</dt><dd>${c.charges} charges</dd>
        <dt>Changed</dt><dd>${c.changed} (${percent(changedShare(c))} of the charges)</dd>
        <dt>Unchanged</dt><dd>${c.unchanged}</dd>
        <dt>Candidate errors</dt><dd>${c.errors}</dd>
        <${Deltas} fee=${c.feeDeltaCentavos} net=${c.netDeltaCentavos} />
      </dl>
      <p class="muted">The deltas are the candidate's minus the active version's, summed over the compared charges both resolved.</p>
      <${ProviderShift} before=${c.providersBefore} after=${c.providersAfter}
        title="Charges per provider, active and candidate" names=${['active', 'candidate']}
        empty="No compared charge to chart per provider yet." />
      ${Array.isArray(c.series) && c.series.length
        ? html`<${TimeChart} title="Compared charges over time" points=${c.series} span=${seriesSpan(c)}
            series=${[
              { key: 'charges', label: 'charges' },
              { key: 'changed', label: 'changed' },
              { key: 'errors', label: 'errors' },
            ]} />`
        : html`<p class="muted">No comparisons over time yet.</p>`}
      <${Counts} title="Changes by kind" counts=${c.changesByKind} />
      <${Counts} title="Candidate errors by kind" counts=${c.errorsByKind} />
      <h3>Latest differences</h3>
      ${c.recent.length === 0
        ? html`<p class="muted">No difference recorded.</p>`
        : html`<div class="scroll"><table>
            <thead><tr><th scope="col">Payment</th><th scope="col">When</th><th scope="col">What changed</th><th scope="col">Active</th><th scope="col">Candidate</th></tr></thead>
            <tbody>${c.recent.map((d) => html`<tr>
              <th scope="row"><a href=${`#/payments/${d.paymentIntentId}`}><code title=${d.paymentIntentId}>…${d.paymentIntentId.slice(-12)}</code></a></th>
              <td>${when(d.at)}</td><td>${d.kinds.join(', ')}</td><td>${outcome(d.before)}</td><td>${outcome(d.after)}</td>
            </tr>`)}</tbody>
          </table></div>`}
    </section>`}<//>`;
}

/** The share of compared charges the candidate decided differently (the server's, or ours). */
function changedShare(c) {
  if (typeof c.changedShare === 'number') return c.changedShare;
  return c.charges ? c.changed / c.charges : 0;
}

/** From the first bucket to the end of the last: one bucket alone is not a span of years. */
function seriesSpan(c) {
  if (!c.bucketSeconds) return undefined;
  const first = c.series[0].at;
  const last = Date.parse(c.series[c.series.length - 1].at) + c.bucketSeconds * 1000;
  return [first, new Date(last).toISOString()];
}
