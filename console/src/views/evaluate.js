// Evaluate: one charge run through a store's chain, with its active versions or others per
// step, as a charge would be; the decision and the whole trace come back and nothing is
// stored or sent (`POST /evaluate`, a tester's).
import { useState } from 'preact/hooks';
import { ApiError, all, call, get } from '../api.js';
import { ErrorBox, JsonView, Loaded, STEPS, Version, can, centavos, html, useAction, useLoad } from '../ui.js';
import { ChainTrace } from './payments.js';
import { outcome } from './replay.js';

/** A charge as a merchant would send it, without `store`. */
const SAMPLE = `{
  "amount": 129.90,
  "reference": "evaluate-0001",
  "description": "2 cafes e 1 pao de queijo",
  "payer": {
    "name": "Ana Souza",
    "taxId": "529.982.247-25",
    "email": "ana.souza@example.com"
  },
  "metadata": {"orderId": "evaluate-0001"}
}`;

/** The form as last filled, kept while the tab lives. */
let last = { store: '', chosen: { policy: '', provider: '', economics: '' }, charge: SAMPLE, idempotencyKey: '' };

export function Evaluate({ me, store }) {
  const state = useLoad(async () => {
    const [stores, ...lists] = await Promise.all([
      all('/stores', {}, (s) => s.code),
      ...STEPS.map((s) => get(`/components/${s}`)),
    ]);
    return { stores, versions: Object.fromEntries(STEPS.map((s, i) => [s, lists[i]])) };
  }, []);
  return html`<h1>Evaluate a charge</h1>
    <p>Runs one charge through a store's chain, as the charge route would, and shows the decision and its trace.
      Nothing is stored and no PSP is called.</p>
    ${can(me, 'tester')
      ? html`<${Loaded} state=${state} what="stores and versions">${(d) => html`<${EvaluateForm} key=${store ?? ''} initial=${store} ...${d} />`}<//>`
      : html`<p role="note">Your role (${me.role}) may not evaluate charges: a tester may.</p>`}`;
}

function EvaluateForm({ stores, versions, initial }) {
  const first = stores.find((s) => s.code === initial) ?? stores.find((s) => s.code === last.store) ?? stores[0];
  const [store, setStore] = useState(first?.code ?? '');
  const [chosen, setChosen] = useState(last.chosen);
  const [charge, setCharge] = useState(last.charge);
  const [idempotencyKey, setIdempotencyKey] = useState(last.idempotencyKey);
  const action = useAction();
  const active = stores.find((s) => s.code === store)?.components ?? {};
  async function submit(e) {
    e.preventDefault();
    last = { store, chosen, charge, idempotencyKey };
    await action.run(() => {
      // The charge goes as typed (its amount and metadata are judged as written), once it
      // parses as a JSON object.
      let parsed;
      try {
        parsed = JSON.parse(charge);
      } catch (err) {
        throw new ApiError(0, 'invalid_json', `The charge is not JSON: ${err.message}`, 'charge');
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new ApiError(0, 'invalid_json', 'The charge must be a JSON object.', 'charge');
      }
      const components = Object.fromEntries(Object.entries(chosen).filter(([, v]) => v));
      const rest = { store, components };
      if (idempotencyKey.trim()) rest.idempotencyKey = idempotencyKey.trim();
      const body = `${JSON.stringify(rest).slice(0, -1)},"charge":${charge.trim()}}`;
      return call('POST', '/evaluate', { body: new Blob([body]), contentType: 'application/json' });
    });
  }
  return html`<form class="stack" onSubmit=${submit} aria-label="The charge to evaluate">
      <label>Store
        <select value=${store} onChange=${(e) => setStore(e.target.value)}>
          ${stores.map((s) => html`<option value=${s.code}>${s.code} (${s.mode})</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Versions</legend>
        ${STEPS.map((step) => html`<label>${step}
          <select value=${chosen[step]} onChange=${(e) => setChosen({ ...chosen, [step]: e.target.value })}>
            <option value="">the store's active (${short(active[step])})</option>
            <option value="bundled">bundled</option>
            ${versions[step].map((v) => html`<option value=${v.version}>${v.version.slice(0, 12)} ${v.label ? `${v.label} ` : ''}(${v.source})</option>`)}
          </select>
        </label>`)}
      </fieldset>
      <label class="wide"><span>Charge (JSON, as a merchant sends it, without <code>store</code>)</span>
        <textarea rows="14" spellcheck="false" value=${charge} onInput=${(e) => setCharge(e.target.value)} aria-describedby="charge-help"></textarea>
      </label>
      <p id="charge-help" class="muted">Amount in reais with at most two decimals, a reference, a description and the
        payer (name, CPF or CNPJ, e-mail); metadata is optional.</p>
      <label>Idempotency-Key (optional)
        <input value=${idempotencyKey} onInput=${(e) => setIdempotencyKey(e.target.value)} maxLength="200" size="48"
          placeholder="the store's canary arms as for this key" />
      </label>
      <div class="row">
        <button type="submit" class="primary" disabled=${action.busy || !store}>Evaluate</button>
        <button type="button" onClick=${() => setCharge(SAMPLE)}>Reset the charge</button>
      </div>
    </form>
    <${ErrorBox} error=${action.error} />
    ${action.busy ? html`<p role="status">Evaluating…</p>` : null}
    ${action.result ? html`<${Evaluation} evaluation=${action.result} store=${last.store} />` : null}`;
}

function short(version) {
  if (!version) return 'none';
  return /^[0-9a-f]{64}$/.test(version) ? version.slice(0, 12) : version;
}

function Evaluation({ evaluation: e, store }) {
  const o = e.outcome ?? {};
  return html`<section aria-labelledby="evaluation-title" class="report">
    <h2 id="evaluation-title">Decision for ${store}</h2>
    <dl class="facts">
      <dt>Outcome</dt><dd><span class=${`badge ${o.status === 'resolved' ? 'ok' : 'off'}`}>${o.status}</span> ${outcome(o)}</dd>
      ${o.status === 'resolved' ? html`
        <dt>Policy</dt><dd><code>${o.policy}</code></dd>
        <dt>Provider</dt><dd>${o.providerCode}</dd>
        <dt>Fee / net</dt><dd>${centavos(o.feeCentavos)} / ${centavos(o.netCentavos)}, settles ${o.settlementDate}</dd>
        ${e.routes?.length ? html`<dt>Routes</dt><dd>${e.routes.length}, tried in the order below by a LIVE charge</dd>` : null}`
      : html`<dt>Message</dt><dd>${o.message}</dd>`}
    </dl>
    ${e.canaries?.length ? html`<h3>Canary arms</h3><ul>${e.canaries.map((c) => html`<li>
      ${c.step}: the ${c.arm === 'canary' ? 'canary' : 'active version'} (canary <${Version} value=${c.version} /> on ${c.percent} %)</li>`)}</ul>` : null}
    <h3>Trace</h3>
    <${ChainTrace} trace=${e.trace ?? {}} />
    <${JsonView} value=${e} summary="The evaluation as JSON" />
  </section>`;
}
