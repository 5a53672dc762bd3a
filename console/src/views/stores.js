// Stores: the list, and one store with what it runs per step, its candidate, canary, kill
// switch and activation history; activation, rollback and promotion behind a confirmation.
import { useState } from 'preact/hooks';
import { all, get, post, put, del } from '../api.js';
import { Confirm, ErrorBox, Loaded, STEPS, Version, can, html, useAction, useLoad, when } from '../ui.js';

export function Stores() {
  const state = useLoad(() => all('/stores', {}, (s) => s.code), []);
  const [filter, setFilter] = useState('');
  const [mode, setMode] = useState('');
  return html`<h1>Stores</h1>
    <form class="filters" role="search" aria-label="Filter stores" onSubmit=${(e) => e.preventDefault()}>
      <label>Find a store <input type="search" value=${filter} onInput=${(e) => setFilter(e.target.value)} placeholder="code, name or merchant" /></label>
      <label>Mode
        <select value=${mode} onChange=${(e) => setMode(e.target.value)}>
          <option value="">any</option><option value="SHADOW">SHADOW</option><option value="LIVE">LIVE</option>
        </select>
      </label>
    </form>
    <${Loaded} state=${state} what="the stores">${(stores) => {
      const needle = filter.trim().toLowerCase();
      const shown = stores.filter(
        (s) =>
          (!mode || s.mode === mode) &&
          (!needle || [s.code, s.name, s.merchant].some((v) => String(v).toLowerCase().includes(needle))),
      );
      return html`<div class="scroll"><table>
        <caption>${shown.length} of ${stores.length} stores</caption>
        <thead><tr><th scope="col">Store</th><th scope="col">Name</th><th scope="col">Merchant</th><th scope="col">Mode</th>
          ${STEPS.map((s) => html`<th scope="col">${s}</th>`)}</tr></thead>
        <tbody>${shown.map(
          (s) => html`<tr>
            <th scope="row"><a href=${`#/stores/${encodeURIComponent(s.code)}`}>${s.code}</a></th>
            <td>${s.name}</td><td>${s.merchant}</td><td><span class=${`badge ${s.mode}`}>${s.mode}</span></td>
            ${STEPS.map((step) => html`<td><${Version} value=${s.components?.[step]} /></td>`)}
          </tr>`,
        )}</tbody>
      </table></div>`;
    }}<//>`;
}

async function loadStore(code) {
  const path = `/stores/${encodeURIComponent(code)}`;
  const [store, components, ...versions] = await Promise.all([
    get(path),
    get(`${path}/components`),
    ...STEPS.map((step) => get(`/components/${step}`)),
  ]);
  return { store, components, versions: Object.fromEntries(STEPS.map((s, i) => [s, versions[i]])) };
}

export function StoreDetail({ code, me }) {
  const state = useLoad(() => loadStore(code), [code]);
  const action = useAction();
  const [pending, setPending] = useState(null);
  const path = `/stores/${encodeURIComponent(code)}`;

  async function confirm() {
    const p = pending;
    setPending(null);
    const done = await action.run(p.run);
    if (done !== undefined) state.reload();
  }

  return html`<h1>Store <code>${code}</code></h1>
    <p><a href="#/stores">All stores</a>${can(me, 'tester')
      ? html` · <a href=${`#/evaluate/${encodeURIComponent(code)}`}>Evaluate a charge on this store</a>` : null}</p>
    <${ErrorBox} error=${action.error} />
    ${action.busy ? html`<p role="status">Working…</p>` : null}
    <${Loaded} state=${state} what="the store">${({ store, components, versions }) => html`
      <section aria-labelledby="store-facts">
        <h2 id="store-facts">Facts</h2>
        <dl class="facts">
          <dt>Name</dt><dd>${store.name}</dd>
          <dt>Merchant</dt><dd>${store.merchant}</dd>
          <dt>Mode</dt><dd><span class=${`badge ${store.mode}`}>${store.mode}</span></dd>
          <dt>Gateways</dt><dd>${store.gateways?.length ? store.gateways.join(', ') : 'every active gateway'}</dd>
          <dt>Kill switch</dt><dd>${killSwitchText(components.killSwitch)}</dd>
        </dl>
      </section>
      <section aria-labelledby="store-steps">
        <h2 id="store-steps">Components per step</h2>
        <div class="steps">
          ${STEPS.map((step) => html`<${StepCard}
            key=${step} step=${step} view=${components.steps[step]} versions=${versions[step]} me=${me}
            onActivate=${(version) => setPending({
              title: `Activate ${step} ${version === 'bundled' ? 'bundled' : version.slice(0, 12)}?`,
              body: `Every new charge of ${code} will run this ${step} version. Charges in flight finish on the version they started with.`,
              label: 'Activate',
              run: () => put(`${path}/components/${step}`, { version }),
            })}
            onRollback=${() => setPending({
              title: `Roll back ${step}?`,
              body: `The ${step} step of ${code} goes back to ${components.steps[step].previous}.`,
              label: 'Roll back',
              run: () => post(`${path}/components/${step}/rollback`),
            })}
            onCanary=${(body) => action.run(() => put(`${path}/components/${step}/canary`, body))
              .then((r) => r !== undefined && state.reload())}
            onPromote=${() => setPending({
              title: `Promote the ${step} canary?`,
              body: `Every new charge of ${code} will run ${components.steps[step].canary.version.slice(0, 12)} for ${step}; the canary ends.`,
              label: 'Promote',
              run: () => post(`${path}/components/${step}/canary/promote`),
            })}
            onEndCanary=${() => action.run(() => del(`${path}/components/${step}/canary`))
              .then((r) => r !== undefined && state.reload())}
            store=${code}
            onCandidate=${(version) => action.run(() =>
              version ? put(`${path}/components/${step}/candidate`, { version }) : del(`${path}/components/${step}/candidate`),
            ).then((r) => r !== undefined && state.reload())}
          />`)}
        </div>
      </section>
      ${can(me, 'operator') ? html`<${KillSwitchForm} value=${components.killSwitch} onSave=${(patch) =>
        action.run(() => put(`${path}/kill-switch`, patch)).then((r) => r !== undefined && state.reload())} />` : null}
      <section aria-labelledby="store-history">
        <h2 id="store-history">Activation history</h2>
        ${components.history.length === 0
          ? html`<p class="muted">Nothing was activated on this store yet.</p>`
          : html`<div class="scroll"><table>
              <thead><tr><th scope="col">When</th><th scope="col">Step</th><th scope="col">Action</th><th scope="col">Version</th><th scope="col">Before</th><th scope="col">Why</th></tr></thead>
              <tbody>${components.history.map((h) => html`<tr>
                <td>${when(h.at)}</td><td>${h.step}</td><td>${h.action}</td>
                <td><${Version} value=${h.version} /></td><td><${Version} value=${h.previousVersion} /></td><td>${h.reason ?? ''}</td>
              </tr>`)}</tbody>
            </table></div>`}
      </section>`}<//>
    <${Confirm} open=${!!pending} title=${pending?.title} confirmLabel=${pending?.label ?? 'Confirm'}
      onConfirm=${confirm} onCancel=${() => setPending(null)}>${pending?.body}<//>`;
}

function killSwitchText(k) {
  if (!k) return 'unknown';
  return k.enabled
    ? `armed: rolls back at ${k.errorRatePercent} % failed calls over ${k.windowSeconds} s (at least ${k.minCalls} calls)`
    : 'off';
}

function StepCard({ step, view, versions, me, store, onActivate, onRollback, onCandidate, onCanary, onPromote, onEndCanary }) {
  const choices = ['bundled', ...versions.map((v) => v.version)];
  const source = Object.fromEntries(versions.map((v) => [v.version, v.source]));
  const label = (v) => (v === 'bundled' ? 'bundled' : `${v.slice(0, 12)} (${source[v]})`);
  const [chosen, setChosen] = useState(choices.find((v) => v !== view.active) ?? view.active);
  const [candidate, setCandidate] = useState(choices.find((v) => v !== view.active) ?? '');
  const id = `step-${step}`;
  return html`<article class="card" aria-labelledby=${id}>
    <h3 id=${id}>${step}</h3>
    <dl class="facts">
      <dt>Active</dt><dd><${Version} value=${view.active} /></dd>
      <dt>Since</dt><dd>${when(view.activatedAt)}</dd>
      <dt>Previous</dt><dd><${Version} value=${view.previous} /></dd>
      <dt>Candidate</dt><dd><${Version} value=${view.candidate} /></dd>
      <dt>Canary</dt><dd>${view.canary
        ? html`<${Version} value=${view.canary.version} /> on ${view.canary.percent} % of charges`
        : html`<span class="muted">none</span>`}</dd>
    </dl>
    ${view.canary ? html`<${CanaryFigures} store=${store} step=${step} />` : null}
    ${can(me, 'operator') ? html`<div class="row">
      <label>Version to activate
        <select value=${chosen} onChange=${(e) => setChosen(e.target.value)}>
          ${choices.map((v) => html`<option value=${v}>${label(v)}${v === view.active ? ', active' : ''}</option>`)}
        </select>
      </label>
      <button type="button" class="primary" disabled=${chosen === view.active} onClick=${() => onActivate(chosen)}>Activate ${step}</button>
      ${view.previous ? html`<button type="button" onClick=${onRollback}>Roll back ${step}</button>` : null}
    </div>` : null}
    ${can(me, 'tester') ? html`<div class="row">
      ${view.candidate
        ? html`<button type="button" onClick=${() => onCandidate(null)}>Clear ${step} candidate</button>
            <a href=${`#/shadow/${encodeURIComponent(store)}/${step}`}>See the comparison</a>`
        : html`<label>Shadow candidate
            <select value=${candidate} onChange=${(e) => setCandidate(e.target.value)}>
              ${choices.map((v) => html`<option value=${v}>${label(v)}</option>`)}
            </select>
          </label>
          <button type="button" onClick=${() => onCandidate(candidate)}>Set ${step} candidate</button>`}
    </div>` : null}
    ${can(me, 'operator') ? (view.canary
      ? html`<div class="row">
          <button type="button" class="primary" onClick=${onPromote}>Promote ${step} canary</button>
          <button type="button" onClick=${onEndCanary}>End ${step} canary</button>
        </div>`
      : html`<${CanaryForm} step=${step} choices=${choices.filter((v) => v !== view.active)} label=${label} onStart=${onCanary} />`)
      : null}
  </article>`;
}

// Starts a canary: a version and the share of new charges it decides.
function CanaryForm({ step, choices, label, onStart }) {
  const [version, setVersion] = useState(choices[0] ?? '');
  const [percent, setPercent] = useState(5);
  if (choices.length === 0) return null;
  return html`<form class="row" aria-label=${`Start a ${step} canary`} onSubmit=${(e) => {
      e.preventDefault();
      onStart({ version, percent: Number(percent) });
    }}>
    <label>Canary version
      <select value=${version} onChange=${(e) => setVersion(e.target.value)}>
        ${choices.map((v) => html`<option value=${v}>${label(v)}</option>`)}
      </select>
    </label>
    <label>Share (%) <input type="number" min="0.1" max="100" step="0.1" value=${percent} onInput=${(e) => setPercent(e.target.value)} /></label>
    <button type="submit">Start ${step} canary</button>
  </form>`;
}

// A running canary's figures: its share so far and its error and changed rates.
function CanaryFigures({ store, step }) {
  const state = useLoad(() => get(`/stores/${encodeURIComponent(store)}/components/${step}/canary`), [store, step]);
  return html`<${Loaded} state=${state} what="the canary">${(c) => html`
    <dl class="facts" aria-label=${`${step} canary figures`}>
      <dt>Share so far</dt><dd>${c.sharePercent} % (${c.total.calls} calls)</dd>
      <dt>Errors</dt><dd>${c.total.errors} (${c.total.errorRatePercent} %; ends at ${c.maxErrorRatePercent} % over ${c.windowSeconds} s)</dd>
      <dt>Changed</dt><dd>${c.total.changed} (${c.total.changedRatePercent} %${c.maxChangedRatePercent ? `; ends at ${c.maxChangedRatePercent} %` : ''})</dd>
    </dl>`}<//>`;
}

function KillSwitchForm({ value, onSave }) {
  const [form, setForm] = useState({ ...value });
  const field = (name) => (e) => setForm({ ...form, [name]: e.target.type === 'checkbox' ? e.target.checked : Number(e.target.value) });
  return html`<section aria-labelledby="kill-switch">
    <h2 id="kill-switch">Kill switch</h2>
    <form class="row" onSubmit=${(e) => {
      e.preventDefault();
      onSave({ enabled: form.enabled, errorRatePercent: form.errorRatePercent, windowSeconds: form.windowSeconds, minCalls: form.minCalls });
    }}>
      <label><input type="checkbox" checked=${form.enabled} onChange=${field('enabled')} /> Armed</label>
      <label>Error rate (%) <input type="number" min="1" max="100" value=${form.errorRatePercent} onInput=${field('errorRatePercent')} /></label>
      <label>Window (s) <input type="number" min="10" max="86400" value=${form.windowSeconds} onInput=${field('windowSeconds')} /></label>
      <label>Minimum calls <input type="number" min="1" max="1000000" value=${form.minCalls} onInput=${field('minCalls')} /></label>
      <button type="submit">Save the kill switch</button>
    </form>
  </section>`;
}
