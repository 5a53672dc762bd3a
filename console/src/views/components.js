// Policy components: the versions of each step, upload and delete.
import { useRef, useState } from 'preact/hooks';
import { call, del, get } from '../api.js';
import { Confirm, ErrorBox, Loaded, STEPS, Version, can, html, useAction, useLoad, when } from '../ui.js';

export function Components({ me }) {
  const state = useLoad(async () => {
    const lists = await Promise.all(STEPS.map((s) => get(`/components/${s}`)));
    return Object.fromEntries(STEPS.map((s, i) => [s, lists[i]]));
  }, []);
  const action = useAction();
  const [doomed, setDoomed] = useState(null);
  return html`<h1>Components</h1>
    ${can(me, 'operator') ? html`<${Upload} onUploaded=${state.reload} />` : null}
    <${ErrorBox} error=${action.error} />
    <${Loaded} state=${state} what="the components">${(byStep) => STEPS.map((step) => html`
      <section aria-labelledby=${`versions-${step}`}>
        <h2 id=${`versions-${step}`}>${step}</h2>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Version</th><th scope="col">Label</th><th scope="col">Source</th><th scope="col">Size</th><th scope="col">Uploaded</th><th scope="col">In use</th>
            ${can(me, 'operator') ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : null}</tr></thead>
          <tbody>${byStep[step].map((v) => html`<tr>
            <th scope="row"><${Version} value=${v.version} /></th>
            <td>${v.label ?? html`<span class="muted">none</span>`}</td>
            <td>${v.source}</td>
            <td>${(v.sizeBytes / 1024).toFixed(1)} KiB</td>
            <td>${when(v.createdAt)}</td>
            <td>${v.inUse.length ? v.inUse.map((u) => `${u.store} (${u.role})`).join(', ') : html`<span class="muted">no store</span>`}</td>
            ${can(me, 'operator') ? html`<td>${v.source !== 'bundled' && v.inUse.length === 0
              ? html`<button type="button" onClick=${() => setDoomed(v)} aria-label=${`Delete ${step} version ${v.version.slice(0, 12)}`}>Delete</button>`
              : null}</td>` : null}
          </tr>`)}</tbody>
        </table></div>
      </section>`)}<//>
    <${Confirm} open=${!!doomed} title="Delete this version?" confirmLabel="Delete"
      onCancel=${() => setDoomed(null)}
      onConfirm=${async () => {
        const v = doomed;
        setDoomed(null);
        if ((await action.run(() => del(`/components/${v.step}/${v.version}`))) !== undefined) state.reload();
      }}>${doomed ? html`The ${doomed.step} version <code>${doomed.version}</code> will be gone for good.` : null}<//>`;
}

function Upload({ onUploaded }) {
  const file = useRef(null);
  const [step, setStep] = useState('provider');
  const [label, setLabel] = useState('');
  const action = useAction();
  // The label people will know the version by: the file's name unless one is typed.
  function chose() {
    const chosen = file.current.files[0];
    if (chosen && !label) setLabel(chosen.name.replace(/\.wasm$/i, ''));
  }
  async function submit(e) {
    e.preventDefault();
    const chosen = file.current.files[0];
    if (!chosen) return;
    const query = label ? `?label=${encodeURIComponent(label)}` : '';
    const result = await action.run(() =>
      call('POST', `/components/${step}${query}`, { body: chosen, contentType: 'application/wasm' }),
    );
    if (result) {
      file.current.value = '';
      setLabel('');
      onUploaded();
    }
  }
  return html`<section aria-labelledby="upload-title">
    <h2 id="upload-title">Upload a component</h2>
    <form class="row" onSubmit=${submit}>
      <label>Step
        <select value=${step} onChange=${(e) => setStep(e.target.value)}>
          ${STEPS.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
      <label>Component file (.wasm) <input type="file" ref=${file} onChange=${chose} accept=".wasm,application/wasm" required /></label>
      <label>Label <input value=${label} onInput=${(e) => setLabel(e.target.value)} maxLength="100" placeholder="the file's name" /></label>
      <button type="submit" class="primary" disabled=${action.busy}>Upload</button>
    </form>
    <${ErrorBox} error=${action.error} />
    ${action.result ? html`<p role="status">Uploaded ${action.result.step} version <code>${action.result.version}</code>${action.result.label ? ` (${action.result.label})` : ''}.</p>` : null}
  </section>`;
}
