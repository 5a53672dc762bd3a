// Mandates: every merchant's Pix Automático mandates, newest first, a page at a time and
// filtered by merchant, store, status and reference; one mandate with its terms, where it
// lives (the PSP and its recurrence), the payer's answer, a link to its first payment and its
// charges by cycle, each linking to its payment.
import { useState } from 'preact/hooks';
import { get } from '../api.js';
import { ErrorBox, JsonView, Loaded, html, money, useAction, useLoad, when } from '../ui.js';

const PAGE = 20;

const STATUSES = ['PENDING_AUTHORIZATION', 'ACTIVE', 'REJECTED', 'EXPIRED', 'CANCELED', 'FAILED', 'SHADOW_ONLY'];

/** The frequencies, as a person reads them. */
const FREQUENCIES = {
  WEEKLY: 'Weekly', MONTHLY: 'Monthly', QUARTERLY: 'Quarterly', SEMIANNUAL: 'Every six months', ANNUAL: 'Yearly',
};

/** How the payer authorises the mandate. */
const JOURNEYS = {
  QR: 'QR code that authorises',
  QR_WITH_FIRST_PAYMENT: 'QR code that pays the first payment and authorises',
  PUSH: "Request to the payer's bank app",
};

const RETRY_POLICIES = {
  NONE: 'No retry',
  UP_TO_3_IN_7_DAYS: 'Up to 3 retries within 7 days of the due date',
};

/** Who canceled a mandate (`cancellation.by`). */
const CANCELED_BY = {
  PAYER: 'the payer', PAYER_PSP: "the payer's bank", MERCHANT: 'the merchant', MERCHANT_PSP: "the merchant's PSP",
  UNKNOWN: 'someone the standard names otherwise',
};

/** The search form's fields, kept while the tab lives so "back" returns to the results. */
let lastSearch = { merchant: '', store: '', status: '', reference: '' };

/** The search's query: the form's fields, trimmed, with the empty ones left out by the client. */
function queryOf(form) {
  return Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v.trim()]));
}

/** A cycle's amount in a few words: fixed, a minimum, or named each cycle. */
function cycleAmount(m) {
  if (m.amount !== undefined && m.amount !== null) return money(m.amount);
  if (m.minimumAmount !== undefined && m.minimumAmount !== null) return `at least ${money(m.minimumAmount)}`;
  return 'named each cycle';
}

export function Mandates() {
  const [form, setForm] = useState(lastSearch);
  const [query, setQuery] = useState(() => queryOf(lastSearch));
  const [extra, setExtra] = useState([]);
  const [done, setDone] = useState(false);
  const more = useAction();
  const list = useLoad(async () => {
    const page = await get('/mandates', { ...query, limit: PAGE });
    setExtra([]);
    setDone(page.length < PAGE);
    return page;
  }, [JSON.stringify(query)]);
  const field = (name) => (e) => setForm({ ...form, [name]: e.target.value });
  const shown = [...(list.data ?? []), ...extra];
  return html`<h1>Mandates</h1>
    <p>Every merchant's Pix Automático mandates: what each payer authorised (or was asked to), newest first. Each one
      links to its detail, with its charges by cycle; a mandate that pays its first cycle with the authorisation links
      to that payment.</p>
    <form class="filters" role="search" aria-label="Search mandates" onSubmit=${(e) => {
      e.preventDefault();
      lastSearch = form;
      setQuery(queryOf(form));
    }}>
      <label>Merchant <input value=${form.merchant} onInput=${field('merchant')} placeholder="every merchant" /></label>
      <label>Store <input value=${form.store} onInput=${field('store')} /></label>
      <label>Status
        <select value=${form.status} onChange=${field('status')}>
          <option value="">any</option>
          ${STATUSES.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
      <label>Reference <input value=${form.reference} onInput=${field('reference')} maxLength="35" /></label>
      <button type="submit" class="primary">Search</button>
    </form>
    <${Loaded} state=${list} what="mandates">${() => shown.length === 0
      ? html`<p role="status">No mandate matches.</p>`
      : html`<div class="scroll"><table>
          <caption>${shown.length} ${shown.length === 1 ? 'mandate' : 'mandates'}${done ? '' : ' so far'}, newest first</caption>
          <thead><tr><th scope="col">Reference</th><th scope="col">Status</th><th scope="col">Merchant</th><th scope="col">Store</th>
            <th scope="col">Payer</th><th scope="col">Frequency</th><th scope="col">Amount</th><th scope="col">Journey</th><th scope="col">Created</th></tr></thead>
          <tbody>${shown.map((m) => html`<tr>
            <th scope="row"><a href=${`#/mandates/${m.mandateId}`}>${m.reference || m.mandateId}</a></th>
            <td><span class=${`badge ${m.status}`}>${m.status}</span></td>
            <td>${m.merchant}</td><td>${m.store?.code}</td><td>${m.payer?.name}</td>
            <td>${FREQUENCIES[m.frequency] ?? m.frequency}</td><td class="nowrap">${cycleAmount(m)}</td>
            <td><code>${m.journey}</code></td><td>${when(m.createdAt)}</td>
          </tr>`)}</tbody>
        </table></div>`}<//>
    <${ErrorBox} error=${more.error} />
    ${list.data && !done ? html`<button type="button" disabled=${more.busy} onClick=${async () => {
      const page = await more.run(() => get('/mandates', { ...query, limit: PAGE, after: shown[shown.length - 1].mandateId }));
      if (page) {
        setExtra([...extra, ...page]);
        setDone(page.length < PAGE);
      }
    }}>More mandates</button>` : null}`;
}

export function Mandate({ id }) {
  // Read by id, so a link or a reload shows the mandate as it is now.
  const state = useLoad(() => get(`/mandates/${encodeURIComponent(id)}`), [id]);
  const reference = state.data?.reference;
  return html`<h1>Mandate ${reference ? html`<q>${reference}</q>` : html`<code>${id}</code>`}</h1>
    <p><a href="#/mandates">Back to the mandates</a></p>
    <${Loaded} state=${state} what="the mandate">${(m) => html`<${MandateFacts} mandate=${m} />
      <${Charges} charges=${m.charges} />
      <${JsonView} value=${m.metadata} summary="Metadata, as the merchant sent it" />
      <${JsonView} value=${m} summary="The whole mandate as JSON" />`}<//>`;
}

/** A charge's attempts in a few words: how many, and the last one's day, status and code. */
function attemptsSummary(attempts) {
  if (!Array.isArray(attempts) || attempts.length === 0) return html`<span class="muted">none yet</span>`;
  const last = attempts[attempts.length - 1];
  return html`${attempts.length} · last on ${last.date} <span class=${`badge ${last.status}`}>${last.status}</span>
    ${last.failure?.code ? html` <code>${last.failure.code}</code>` : null}`;
}

/** The mandate's charges (`charges`, read with the mandate), by cycle, each linking to its payment. */
function Charges({ charges }) {
  const byCycle = [...(Array.isArray(charges) ? charges : [])].sort((a, b) => a.cycle - b.cycle);
  return html`<section aria-labelledby="charges-title">
    <h2 id="charges-title">Charges</h2>
    ${byCycle.length === 0
      ? html`<p class="muted">No cycle charged yet.</p>`
      : html`<div class="scroll"><table>
          <caption>${byCycle.length} ${byCycle.length === 1 ? 'charge' : 'charges'}, by cycle</caption>
          <thead><tr><th scope="col">Cycle</th><th scope="col">Due date</th><th scope="col">Status</th><th scope="col">Amount</th><th scope="col">Attempts</th></tr></thead>
          <tbody>${byCycle.map((c) => html`<tr>
            <th scope="row"><a href=${`#/payments/${c.paymentIntentId}`}>Cycle ${c.cycle}</a></th>
            <td class="nowrap">${c.dueDate}</td><td><span class=${`badge ${c.status}`}>${c.status}</span></td>
            <td class="nowrap">${money(c.amount)}</td><td>${attemptsSummary(c.attempts)}</td>
          </tr>`)}</tbody>
        </table></div>`}
  </section>`;
}

function MandateFacts({ mandate: m }) {
  const auth = m.authorization;
  return html`<section aria-labelledby="mandate-title">
    <h2 id="mandate-title">The mandate</h2>
    <dl class="facts">
      <dt>Id</dt><dd><code>${m.mandateId}</code></dd>
      <dt>Status</dt><dd><span class=${`badge ${m.status}`}>${m.status}</span></dd>
      <dt>Store</dt><dd>${m.store?.code}</dd>
      <dt>Merchant</dt><dd>${m.merchant}</dd>
      ${m.description ? html`<dt>Description</dt><dd>${m.description}</dd>` : null}
      <dt>Payer</dt><dd>${m.payer?.name}</dd>
      <dt>Frequency</dt><dd>${FREQUENCIES[m.frequency] ?? m.frequency}</dd>
      <dt>Cycles</dt><dd>from ${m.startDate}${m.endDate ? ` to ${m.endDate}` : ', with no end date'}</dd>
      ${m.minimumAmount !== undefined && m.minimumAmount !== null
        ? html`<dt>Minimum amount</dt><dd>${money(m.minimumAmount)} a cycle (the payer sets their own ceiling)</dd>`
        : html`<dt>Amount</dt><dd>${m.amount !== undefined && m.amount !== null ? `${money(m.amount)} a cycle` : 'named by the merchant each cycle'}</dd>`}
      <dt>Charged by pixgate</dt><dd>${m.autoCharge ? 'yes, each cycle' : 'no: the merchant asks for each cycle\'s charge'}</dd>
      <dt>Retry policy</dt><dd>${RETRY_POLICIES[m.retryPolicy] ?? m.retryPolicy} <code>${m.retryPolicy}</code></dd>
      <dt>Journey</dt><dd>${JOURNEYS[m.journey] ?? m.journey} <code>${m.journey}</code></dd>
      <dt>First payment</dt><dd>${m.firstPayment?.paymentIntentId
        ? html`<a href=${`#/payments/${m.firstPayment.paymentIntentId}`}>Payment <code>${m.firstPayment.paymentIntentId}</code></a>`
        : html`<span class="muted">none</span>`}</dd>
      <dt>Provider</dt><dd>${m.provider?.code ?? '—'}</dd>
      <dt>Recurrence id</dt><dd>${m.provider?.recurrenceId
        ? html`<code>${m.provider.recurrenceId}</code>`
        : html`<span class="muted">none${m.routing?.mode === 'SHADOW' ? ' (a SHADOW store: nothing was sent to a PSP)' : ''}</span>`}</dd>
      <dt>Route</dt><dd>${m.routing ? `${m.routing.mode} · ${m.routing.policy} → ${m.routing.gatewayAlias}` : '—'}</dd>
      ${auth?.expiresAt ? html`<dt>Authorization expires</dt><dd>${when(auth.expiresAt)}</dd>` : null}
      ${auth?.copyAndPaste ? html`<dt>Authorization code</dt><dd><code>${auth.copyAndPaste}</code></dd>` : null}
      ${m.rejection ? html`<dt>Rejection</dt><dd><code>${m.rejection.code}</code> ${m.rejection.message}</dd>` : null}
      ${m.cancellation ? html`<dt>Cancellation</dt><dd>by ${CANCELED_BY[m.cancellation.by] ?? m.cancellation.by} (<code>${m.cancellation.by}</code>): <code>${m.cancellation.code}</code> ${m.cancellation.message}</dd>` : null}
      ${m.failure ? html`<dt>Failure</dt><dd><code>${m.failure.code}</code> ${m.failure.message}</dd>` : null}
      <dt>Created</dt><dd>${when(m.createdAt)}</dd>
      <dt>Updated</dt><dd>${when(m.updatedAt)}</dd>
    </dl>
  </section>`;
}
