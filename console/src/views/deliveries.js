// Webhook deliveries on their own, every merchant's: the failing ones first (exhausted, a
// failed test, or still retrying after a failed attempt), then all the recent ones, newest
// first, a page at a time; an operator sends one again behind a confirmation.
import { useState } from 'preact/hooks';
import { get, post } from '../api.js';
import { Confirm, ErrorBox, Loaded, can, html, useAction, useLoad, when } from '../ui.js';

const PAGE = 20;

/** The merchant filter, kept while the tab lives. */
let lastMerchant = '';

export function Deliveries({ me }) {
  const [form, setForm] = useState(lastMerchant);
  const [merchant, setMerchant] = useState(lastMerchant);
  // Bumped after a resend: both lists read again from their first page.
  const [round, setRound] = useState(0);
  const action = useAction();
  const [doomed, setDoomed] = useState(null);
  const [resent, setResent] = useState(null);
  async function resend() {
    const d = doomed;
    setDoomed(null);
    setResent(d);
    const done = await action.run(() => post(`/webhook-deliveries/${d.deliveryId}/resend`));
    if (done !== undefined) setRound((n) => n + 1);
  }
  return html`<h1>Webhook deliveries</h1>
    <p>The events pixgate sends to merchants' webhook endpoints, every merchant's. Each one links to its payment, where
      its attempts are listed one by one.</p>
    <form class="filters" role="search" aria-label="Filter the deliveries" onSubmit=${(e) => {
      e.preventDefault();
      lastMerchant = form.trim();
      setMerchant(lastMerchant);
    }}>
      <label>Merchant <input value=${form} onInput=${(e) => setForm(e.target.value)} placeholder="every merchant" /></label>
      <button type="submit" class="primary">Filter</button>
    </form>
    <${ErrorBox} error=${action.error} />
    ${action.busy ? html`<p role="status">Sending again…</p>` : null}
    ${action.result && resent ? html`<p role="status">The <code>${resent.event}</code> delivery to ${resent.endpointName} is being sent again.</p>` : null}
    <${DeliveryList} id="failing" title="Failing" state="failing" merchant=${merchant} round=${round} me=${me} onResend=${setDoomed}
      caption="exhausted, a failed test, or retrying after a failed attempt"
      none="No delivery is failing." />
    <${DeliveryList} id="recent" title="All recent" merchant=${merchant} round=${round} me=${me} onResend=${setDoomed}
      none="No webhook delivery yet." />
    <${Confirm} open=${!!doomed} title="Send this delivery again?" confirmLabel="Resend"
      onCancel=${() => setDoomed(null)} onConfirm=${resend}>${doomed ? html`The <code>${doomed.event}</code> event goes to
        ${doomed.endpointName} (<code>${doomed.endpointUrl}</code>) again, with the same event id: a receiver that keeps
        the ids it saw handles it once.` : null}<//>`;
}

function DeliveryList({ id, title, state, merchant, round, me, onResend, caption, none }) {
  const [extra, setExtra] = useState([]);
  const [done, setDone] = useState(false);
  const more = useAction();
  const list = useLoad(async () => {
    const page = await get('/webhook-deliveries', { state, merchant, limit: PAGE });
    setExtra([]);
    setDone(page.length < PAGE);
    return page;
  }, [state, merchant, round]);
  const shown = [...(list.data ?? []), ...extra];
  return html`<section aria-labelledby=${`deliveries-${id}`}>
    <h2 id=${`deliveries-${id}`}>${title}</h2>
    <${Loaded} state=${list} what=${`the ${title.toLowerCase()} deliveries`}>${() => shown.length === 0
      ? html`<p class="muted">${none}</p>`
      : html`<div class="scroll"><table>
          <caption>${shown.length} ${shown.length === 1 ? 'delivery' : 'deliveries'}${done ? '' : ' so far'}, newest first${caption ? `: ${caption}` : ''}</caption>
          <thead><tr><th scope="col">Endpoint</th><th scope="col">Merchant</th><th scope="col">Event</th><th scope="col">Status</th>
            <th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Payment</th><th scope="col">Created</th>
            ${can(me, 'operator') ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : null}</tr></thead>
          <tbody>${shown.map((d) => html`<tr>
            <th scope="row"><span title=${d.endpointUrl}>${d.endpointName}</span></th>
            <td>${d.merchant}</td><td class="nowrap"><code>${d.event}</code></td>
            <td><span class=${`badge ${d.status}`}>${d.status}</span>${d.nextAttemptAt ? html`<br /><span class="muted">next ${when(d.nextAttemptAt)}</span>` : null}</td>
            <td>${d.attemptCount}</td>
            <td>${d.lastError ? html`<code>${d.lastError}</code>` : html`<span class="muted">none</span>`}</td>
            <td class="nowrap">${d.paymentIntentId
              ? html`<a href=${`#/payments/${d.paymentIntentId}`}><code title=${d.paymentIntentId}>…${d.paymentIntentId.slice(-12)}</code></a>`
              : html`<span class="muted">none</span>`}</td>
            <td>${when(d.createdAt)}</td>
            ${can(me, 'operator') ? html`<td><button type="button" onClick=${() => onResend(d)}
              aria-label=${`Resend ${d.event} to ${d.endpointName}`}>Resend</button></td>` : null}
          </tr>`)}</tbody>
        </table></div>`}<//>
    <${ErrorBox} error=${more.error} />
    ${list.data && !done ? html`<button type="button" disabled=${more.busy} onClick=${async () => {
      const page = await more.run(() => get('/webhook-deliveries', { state, merchant, limit: PAGE, after: shown[shown.length - 1].deliveryId }));
      if (page) {
        setExtra([...extra, ...page]);
        setDone(page.length < PAGE);
      }
    }}>Load more ${title.toLowerCase()} deliveries</button>` : null}
  </section>`;
}
