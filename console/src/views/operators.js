// Operators (named tokens with a role) and the audit trail of every admin write. An operator's
// id is shown beside the name: two names may look alike, the ids never do.
import { useState } from 'preact/hooks';
import { all, get, post } from '../api.js';
import { Confirm, ErrorBox, JsonView, Loaded, ROLES, can, html, useAction, useLoad, when } from '../ui.js';

export function Operators({ me }) {
  const state = useLoad(() => all('/operators', {}, (o) => o.id), []);
  const action = useAction();
  const [doomed, setDoomed] = useState(null);
  return html`<h1>Operators</h1>
    ${can(me, 'admin') ? html`<${NewOperator} onCreated=${state.reload} />` : null}
    <${ErrorBox} error=${action.error} />
    <${Loaded} state=${state} what="the operators">${(list) => html`<div class="scroll"><table>
      <caption>${list.length} operators</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Status</th>
        ${can(me, 'admin') ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : null}</tr></thead>
      <tbody>${list.map((o) => {
        const revoked = !!o.revokedAt || o.status === 'REVOKED' || o.revoked === true;
        return html`<tr>
          <th scope="row">${o.name}</th><td><code>${o.id}</code></td><td>${o.role}</td><td>${when(o.createdAt)}</td>
          <td>${revoked ? html`<span class="badge off">revoked ${when(o.revokedAt)}</span>` : html`<span class="badge ok">active</span>`}</td>
          ${can(me, 'admin') ? html`<td>${revoked || o.id === me.id ? null
            : html`<button type="button" onClick=${() => setDoomed(o)}>Revoke ${o.name}</button>`}</td>` : null}
        </tr>`;
      })}</tbody>
    </table></div>`}<//>
    <${Confirm} open=${!!doomed} title=${`Revoke ${doomed?.name ?? ''}?`} confirmLabel="Revoke"
      onCancel=${() => setDoomed(null)}
      onConfirm=${async () => {
        const o = doomed;
        setDoomed(null);
        if ((await action.run(() => post(`/operators/${encodeURIComponent(o.id)}/revoke`))) !== undefined) state.reload();
      }}>Their token stops working at once.<//>`;
}

function NewOperator({ onCreated }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState('viewer');
  const action = useAction();
  return html`<section aria-labelledby="new-operator">
    <h2 id="new-operator">Add an operator</h2>
    <form class="row" onSubmit=${async (e) => {
      e.preventDefault();
      if ((await action.run(() => post('/operators', { name: name.trim(), role }))) !== undefined) {
        setName('');
        onCreated();
      }
    }}>
      <label>Name <input value=${name} onInput=${(e) => setName(e.target.value)} required maxlength="120" /></label>
      <label>Role
        <select value=${role} onChange=${(e) => setRole(e.target.value)}>
          ${ROLES.map((r) => html`<option value=${r}>${r}</option>`)}
        </select>
      </label>
      <button type="submit" class="primary" disabled=${action.busy}>Add the operator</button>
    </form>
    <${ErrorBox} error=${action.error} />
    ${action.result?.token ? html`<div class="notice" role="status">
      <p>The token of <strong>${action.result.name}</strong> (${action.result.role}), shown this once: hand it over now.</p>
      <p><label>Token <input readonly value=${action.result.token} onFocus=${(e) => e.target.select()} /></label></p>
    </div>` : null}
  </section>`;
}

export function Audit() {
  const [form, setForm] = useState({ operator: '', action: '', target: '', since: '', until: '' });
  const [query, setQuery] = useState(form);
  const [more, setMore] = useState([]);
  const page = useAction();
  const toQuery = (q, after) => {
    const out = { ...q, limit: 50, after };
    for (const k of ['since', 'until']) if (out[k]) out[k] = new Date(out[k]).toISOString();
    return out;
  };
  const state = useLoad(async () => {
    setMore([]);
    return get('/audit-events', toQuery(query));
  }, [JSON.stringify(query)]);
  const field = (name) => (e) => setForm({ ...form, [name]: e.target.value });
  const events = [...(state.data ?? []), ...more];
  return html`<h1>Audit trail</h1>
    <form class="filters" role="search" aria-label="Filter the audit trail" onSubmit=${(e) => {
      e.preventDefault();
      setQuery({ ...form });
    }}>
      <label>Operator id <input value=${form.operator} onInput=${field('operator')} placeholder="bootstrap or an operator's id" /></label>
      <label>Action <input value=${form.action} onInput=${field('action')} placeholder="resource.verb, e.g. store.update" /></label>
      <label>Target <input value=${form.target} onInput=${field('target')} /></label>
      <label>Since <input type="datetime-local" value=${form.since} onInput=${field('since')} /></label>
      <label>Until <input type="datetime-local" value=${form.until} onInput=${field('until')} /></label>
      <button type="submit" class="primary">Filter</button>
    </form>
    <${ErrorBox} error=${page.error} />
    <${Loaded} state=${state} what="the audit trail">${() => html`
      ${events.length === 0 ? html`<p role="status">No event matches.</p>` : html`<div class="scroll"><table>
        <caption>${events.length} events, newest first</caption>
        <thead><tr><th scope="col">When</th><th scope="col">Operator</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Change</th></tr></thead>
        <tbody>${events.map((ev) => html`<tr>
          <td>${when(ev.at)}</td><td>${ev.operator?.name ?? ''} <code>${ev.operator?.id ?? ''}</code></td><td><code>${ev.action}</code></td><td><code>${ev.target}</code></td>
          <td>${ev.before !== undefined || ev.after !== undefined ? html`<${JsonView} value=${{ before: ev.before, after: ev.after }} summary="before and after" />` : ''}</td>
        </tr>`)}</tbody>
      </table></div>`}
      ${events.length && events.length % 50 === 0 ? html`<button type="button" disabled=${page.busy} onClick=${async () => {
        const next = await page.run(() => get('/audit-events', toQuery(query, events[events.length - 1].eventId)));
        if (next) setMore([...more, ...next]);
      }}>Older events</button>` : null}`}<//>`;
}
