// Replay: re-run a store's recorded charges with other versions and see what would change.
import { useState } from 'preact/hooks';
import { all, get, replayStreaming } from '../api.js';
import { BarChart } from '../chart.js';
import { ErrorBox, JsonView, Loaded, STEPS, can, centavos, html, signedCentavos, useAction, useLoad, when } from '../ui.js';

export function Replay({ me }) {
  const state = useLoad(async () => {
    const [stores, ...lists] = await Promise.all([
      all('/stores', {}, (s) => s.code),
      ...STEPS.map((s) => get(`/components/${s}`)),
    ]);
    return { stores, versions: Object.fromEntries(STEPS.map((s, i) => [s, lists[i]])) };
  }, []);
  return html`<h1>Replay</h1>
    <p>Re-runs a store's recorded charges with the versions you choose and shows what would change. Nothing is stored or sent.</p>
    ${can(me, 'tester')
      ? html`<${Loaded} state=${state} what="stores and versions">${(d) => html`<${ReplayForm} ...${d} />`}<//>`
      : html`<p role="note">Your role (${me.role}) may not run replays: a tester may.</p>`}`;
}

function ReplayForm({ stores, versions }) {
  const [store, setStore] = useState(stores.find((s) => s.mode === 'SHADOW')?.code ?? stores[0]?.code ?? '');
  const [chosen, setChosen] = useState({ policy: '', provider: '', economics: '' });
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [limit, setLimit] = useState('');
  const [progress, setProgress] = useState(null);
  const action = useAction();
  async function submit(e) {
    e.preventDefault();
    const components = Object.fromEntries(Object.entries(chosen).filter(([, v]) => v));
    const body = { store, components };
    if (since) body.since = new Date(since).toISOString();
    if (until) body.until = new Date(until).toISOString();
    if (limit) body.limit = Number(limit);
    setProgress(null);
    await action.run(() => replayStreaming(body, setProgress));
  }
  return html`<form class="stack" onSubmit=${submit} aria-label="Replay settings">
      <label>Store
        <select value=${store} onChange=${(e) => setStore(e.target.value)}>
          ${stores.map((s) => html`<option value=${s.code}>${s.code} (${s.mode})</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Versions to try</legend>
        ${STEPS.map((step) => html`<label>${step}
          <select value=${chosen[step]} onChange=${(e) => setChosen({ ...chosen, [step]: e.target.value })}>
            <option value="">as recorded</option>
            <option value="bundled">bundled</option>
            ${versions[step].map((v) => html`<option value=${v.version}>${v.version.slice(0, 12)} ${v.label ? `${v.label} ` : ''}(${v.source})</option>`)}
          </select>
        </label>`)}
      </fieldset>
      <div class="row">
        <label>Since <input type="datetime-local" value=${since} onInput=${(e) => setSince(e.target.value)} /></label>
        <label>Until <input type="datetime-local" value=${until} onInput=${(e) => setUntil(e.target.value)} /></label>
        <label>At most this many charges <input type="number" min="1" max="100000" value=${limit} onInput=${(e) => setLimit(e.target.value)} placeholder="10000" /></label>
      </div>
      <button type="submit" class="primary" disabled=${action.busy || !store}>Run the replay</button>
    </form>
    <${ErrorBox} error=${action.error} />
    ${action.busy ? html`<p role="status">${progress
      ? html`Replaying ${progress.replayed} of ${progress.total} charges <progress value=${progress.replayed} max=${Math.max(progress.total, 1)}></progress>`
      : 'Replaying…'}</p>` : null}
    ${action.result ? html`<${ReplayReport} report=${action.result} />` : null}`;
}

export function ReplayReport({ report }) {
  return html`<section aria-labelledby="replay-report" class="report">
    <h2 id="replay-report">Replay of ${report.store}</h2>
    <dl class="facts">
      <dt>Replayed</dt><dd>${report.replayed} charges</dd>
      <dt>Changed</dt><dd>${report.changed}</dd>
      <dt>Unchanged</dt><dd>${report.unchanged}</dd>
      <dt>Candidate errors</dt><dd>${report.errors}</dd>
      <dt>Unreadable</dt><dd>${report.unreadable}</dd>
      <${Deltas} fee=${report.feeDeltaCentavos} net=${report.netDeltaCentavos} />
      <dt>Took</dt><dd>${report.durationMs} ms</dd>
    </dl>
    <${ProviderShift} before=${report.providersBefore} after=${report.providersAfter} empty="No charges in this window." />
    <${Counts} title="Changes by kind" counts=${report.changesByKind} />
    <${Counts} title="Candidate errors by kind" counts=${report.errorsByKind} />
    <h3>Changed charges</h3>
    ${report.firstChanged.length === 0
      ? html`<p class="muted">No charge changed.</p>`
      : html`<div class="scroll"><table>
          <caption>The first ${report.firstChanged.length} changed charges, oldest first</caption>
          <thead><tr><th scope="col">Payment</th><th scope="col">Created</th><th scope="col">What changed</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
          <tbody>${report.firstChanged.map((c) => html`<tr>
            <th scope="row"><a href=${`#/payments/${c.paymentIntentId}`}><code title=${c.paymentIntentId}>…${c.paymentIntentId.slice(-12)}</code></a></th>
            <td>${when(c.createdAt)}</td>
            <td>${c.kinds.join(', ')}</td>
            <td>${outcome(c.before)}</td><td>${outcome(c.after)}</td>
          </tr>`)}</tbody>
        </table></div>`}
    <${JsonView} value=${report} summary="The report as JSON" />
  </section>`;
}

/** The fee and net deltas (candidate minus recorded or active), as terms of a `<dl>`. */
export function Deltas({ fee, net }) {
  return html`<dt>Fee delta</dt><dd>${signedCentavos(fee)}</dd>
    <dt>Net delta</dt><dd>${signedCentavos(net)}</dd>`;
}

/**
 * Charges per provider before and after (a replay's; a shadow comparison's, active and
 * candidate), as bars.
 */
export function ProviderShift({ before, after, empty, title = 'Charges per provider, before and after', names = ['before', 'after'] }) {
  const providers = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  if (!providers.length) return html`<p class="muted">${empty}</p>`;
  return html`<${BarChart} title=${title}
    labels=${providers}
    series=${[
      { label: names[0], values: providers.map((p) => before?.[p] ?? 0) },
      { label: names[1], values: providers.map((p) => after?.[p] ?? 0) },
    ]} />`;
}

/** Nonzero counts by kind, or nothing. */
export function Counts({ title, counts }) {
  const shown = Object.entries(counts ?? {}).filter(([, n]) => n > 0);
  if (!shown.length) return null;
  return html`<h3>${title}</h3><ul>${shown.map(([k, n]) => html`<li><code>${k}</code>: ${n}</li>`)}</ul>`;
}

/** A decision in a few words: the gateway and fee, or who refused or failed and why. */
export function outcome(o) {
  if (!o) return '—';
  if (o.status === 'resolved') return html`${o.gatewayAlias} (${o.releaseClass}) · fee ${centavos(o.feeCentavos)}`;
  return html`${o.status} at ${o.step}: <code>${o.code}</code>`;
}

