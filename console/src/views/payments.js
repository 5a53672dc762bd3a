// Payments: find one by id, txid or endToEndId, search PaymentIntents, and one intent with its
// decision trace, PSP calls, refunds and webhook deliveries; a due-date charge with its invoice,
// a recurring one (Pix Automático) with its mandate, due date and attempts.
import { useState } from 'preact/hooks';
import { get, post } from '../api.js';
import { ErrorBox, JsonView, Loaded, STEPS, Version, can, centavos, html, money, useAction, useLoad, when } from '../ui.js';

const STATUSES = ['SHADOW_ONLY', 'SCHEDULED', 'PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED'];

/** The kinds of charge (`kind`), as a person reads them. */
const KINDS = { IMMEDIATE: 'Immediate', DUE_DATE: 'Due date', RECURRING: 'Recurring' };

/** The search form's fields, kept while the tab lives so "back" returns to the results. */
let lastSearch = { reference: '', store: '', merchant: '', status: '', kind: '', createdFrom: '', createdTo: '' };

export function Payments() {
  const [form, setForm] = useState(lastSearch);
  const [query, setQuery] = useState(lastSearch);
  const [pages, setPages] = useState([]);
  const state = useLoad(async () => {
    const q = { ...query, limit: 20 };
    for (const k of ['createdFrom', 'createdTo']) if (q[k]) q[k] = new Date(q[k]).toISOString();
    const items = await get('/payment-intents', q);
    setPages([]);
    return items;
  }, [JSON.stringify(query)]);
  const more = useAction();
  const field = (name) => (e) => setForm({ ...form, [name]: e.target.value });
  const shown = [...(state.data ?? []), ...pages];
  return html`<h1>Payments</h1>
    <${PaymentLookup} />
    <form class="filters" role="search" aria-label="Search payments" onSubmit=${(e) => {
      e.preventDefault();
      lastSearch = form;
      setQuery({ ...form });
    }}>
      <label>Reference <input value=${form.reference} onInput=${field('reference')} /></label>
      <label>Store <input value=${form.store} onInput=${field('store')} /></label>
      <label>Merchant <input value=${form.merchant} onInput=${field('merchant')} /></label>
      <label>Status
        <select value=${form.status} onChange=${field('status')}>
          <option value="">any</option>
          ${STATUSES.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
      <label>Kind
        <select value=${form.kind} onChange=${field('kind')}>
          <option value="">All</option>
          ${Object.entries(KINDS).map(([k, label]) => html`<option value=${k}>${label}</option>`)}
        </select>
      </label>
      <label>Created from <input type="datetime-local" value=${form.createdFrom} onInput=${field('createdFrom')} /></label>
      <label>Created before <input type="datetime-local" value=${form.createdTo} onInput=${field('createdTo')} /></label>
      <button type="submit" class="primary">Search</button>
    </form>
    <${ErrorBox} error=${more.error} />
    <${Loaded} state=${state} what="payments">${() => html`
      ${shown.length === 0 ? html`<p role="status">No payment matches.</p>`
        : html`<${IntentTable} intents=${shown} caption=${`${shown.length} payments, newest first`} />`}
      ${shown.length && shown.length % 20 === 0 ? html`<button type="button" disabled=${more.busy} onClick=${async () => {
        const q = { ...query, limit: 20, after: shown[shown.length - 1].paymentIntentId };
        for (const k of ['createdFrom', 'createdTo']) if (q[k]) q[k] = new Date(q[k]).toISOString();
        const page = await more.run(() => get('/payment-intents', q));
        if (page) setPages([...pages, ...page]);
      }}>More payments</button>` : null}`}<//>`;
}

/**
 * Payments as a table, each linking to `#/payments/<id>`; `extra` adds a column
 * (`{label, cell(intent)}`): how a lookup matched, how long a charge has waited.
 */
export function IntentTable({ intents, caption, extra }) {
  return html`<div class="scroll"><table>
    <caption>${caption}</caption>
    <thead><tr><th scope="col">Reference</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Store</th><th scope="col">Provider</th><th scope="col">Created</th>
      ${extra ? html`<th scope="col">${extra.label}</th>` : null}</tr></thead>
    <tbody>${intents.map((i) => html`<tr>
      <th scope="row"><a href=${`#/payments/${i.paymentIntentId}`}>${i.reference || i.paymentIntentId}</a></th>
      <td>${money(i.amount)}</td><td><span class=${`badge ${i.status}`}>${i.status}</span></td>
      <td>${i.store?.code}</td><td>${i.routing?.providerCode ?? i.provider?.code ?? '—'}</td><td>${when(i.createdAt)}</td>
      ${extra ? html`<td>${extra.cell(i)}</td>` : null}
    </tr>`)}</tbody>
  </table></div>`;
}

const MATCHED_BY = { paymentIntentId: 'payment id', txid: 'txid', endToEndId: 'endToEndId' };

/**
 * One box for a payment's id, its txid at the PSP or the endToEndId of the pix that paid it
 * (`GET /lookup`): one match opens the payment, several are listed, none says so.
 */
export function PaymentLookup() {
  const [q, setQ] = useState('');
  const [asked, setAsked] = useState('');
  const action = useAction();
  async function submit(e) {
    e.preventDefault();
    const value = q.trim();
    if (!value) return;
    setAsked(value);
    const found = await action.run(() => get('/lookup', { q: value }));
    if (found?.length === 1) location.hash = `#/payments/${encodeURIComponent(found[0].paymentIntentId)}`;
  }
  const found = action.result;
  return html`<form class="row" role="search" aria-label="Find a payment" onSubmit=${submit}>
      <label>Payment id, txid or endToEndId
        <input type="search" value=${q} onInput=${(e) => setQ(e.target.value)} maxLength="64" size="40"
          autocomplete="off" spellcheck="false" aria-describedby="lookup-help" />
      </label>
      <button type="submit" disabled=${action.busy}>Find</button>
      <span id="lookup-help" class="muted">One match opens the payment.</span>
    </form>
    <${ErrorBox} error=${action.error} />
    ${found?.length === 0 ? html`<p role="status">Nothing matches <code>${asked}</code>: no payment has it as its id, txid or endToEndId.</p>` : null}
    ${found?.length > 1 ? html`<${IntentTable} intents=${found} caption=${`${found.length} payments match ${asked}`}
      extra=${{ label: 'Matched by', cell: (i) => MATCHED_BY[i.matchedBy] ?? i.matchedBy }} />` : null}`;
}

export function Payment({ id, me }) {
  // Read by id, so a link or a reload shows the payment as it is now.
  const intent = useLoad(() => get(`/payment-intents/${id}`), [id]);
  const trace = useLoad(() => get(`/payment-intents/${id}/trace`), [id]);
  const reference = intent.data?.reference;
  return html`<h1>Payment ${reference ? html`<q>${reference}</q>` : html`<code>${id}</code>`}</h1>
    <p><a href="#/payments">Back to the search</a></p>
    <${Loaded} state=${intent} what="the payment">${(i) => html`<${IntentFacts} intent=${i} />
      ${i.kind === 'DUE_DATE' ? html`<${Invoice} intent=${i} />` : null}
      ${i.kind === 'RECURRING' ? html`<${Recurring} intent=${i} />` : null}`}<//>
    <section aria-labelledby="trace-title">
      <h2 id="trace-title">Decision trace</h2>
      <${Loaded} state=${trace} what="the trace">${(t) => html`<${Trace} trace=${t} />`}<//>
    </section>
    <${Refunds} id=${id} />
    <${Deliveries} id=${id} me=${me} />`;
}

/** The payment's refunds, whoever asked for them (merchant, MED, a resolution). */
function Refunds({ id }) {
  const state = useLoad(() => get(`/payment-intents/${id}/refunds`), [id]);
  return html`<section aria-labelledby="refunds-title">
    <h2 id="refunds-title">Refunds</h2>
    <${Loaded} state=${state} what="the refunds">${(refunds) => refunds.length === 0
      ? html`<p class="muted">No refund of this payment.</p>`
      : html`<div class="scroll"><table>
          <caption>The refunds of this payment, oldest first</caption>
          <thead><tr><th scope="col">Refund</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Created</th></tr></thead>
          <tbody>${refunds.map((r) => html`<tr>
            <th scope="row"><code>${r.refundId}</code></th><td>${money(r.amount)}</td>
            <td><span class=${`badge ${r.status}`}>${r.status}</span></td><td>${r.reason ?? ''}</td><td>${when(r.createdAt)}</td>
          </tr>`)}</tbody>
        </table></div>`}<//>
  </section>`;
}

function IntentFacts({ intent: i }) {
  return html`<section aria-labelledby="intent-title">
    <h2 id="intent-title">The intent</h2>
    <dl class="facts">
      <dt>Id</dt><dd><code>${i.paymentIntentId}</code></dd>
      <dt>Status</dt><dd><span class=${`badge ${i.status}`}>${i.status}</span></dd>
      <dt>Kind</dt><dd>${KINDS[i.kind] ?? i.kind ?? '—'}</dd>
      <dt>Amount</dt><dd>${money(i.amount)}${i.amountRefunded ? ` (refunded ${money(i.amountRefunded)})` : ''}</dd>
      <dt>Store</dt><dd>${i.store?.code} · ${i.merchant}</dd>
      <dt>Route</dt><dd>${i.routing ? `${i.routing.policy ?? ''} → ${i.routing.gatewayAlias ?? '—'} (${i.routing.releaseClass ?? ''})` : '—'}</dd>
      <dt>Fee / net</dt><dd>${i.economics ? `${money(i.economics.feeAmount)} / ${money(i.economics.netAmount)}, settles ${i.economics.settlementDate}` : '—'}</dd>
      <dt>At the PSP</dt><dd>${i.provider ? html`${i.provider.code} <code>${i.provider.paymentId ?? 'not paid yet'}</code>` : '—'}</dd>
      ${i.pix?.txid ? html`<dt>txid</dt><dd><code>${i.pix.txid}</code></dd>` : null}
      ${i.failure ? html`<dt>Failure</dt><dd><code>${i.failure.code}</code> ${i.failure.message}</dd>` : null}
      <dt>Created</dt><dd>${when(i.createdAt)}</dd>
      ${i.completedAt ? html`<dt>Completed</dt><dd>${when(i.completedAt)}</dd>` : null}
    </dl>
  </section>`;
}

/** A rule's value: a percentage for the PERCENT_* types, reais for the others. */
function ruleValue(type, value) {
  return String(type).startsWith('PERCENT') ? `${value} %` : money(value);
}

/** A rule's type after its unit, as words: `PERCENT_PER_CALENDAR_MONTH` → `per calendar month`. */
function rulePeriod(type) {
  return String(type).replace(/^(PERCENT|AMOUNT|FIXED)_?/, '').toLowerCase().replace(/_/g, ' ');
}

/** A fine or an abatement: `2 % (PERCENT)`. */
function flatRule(rule) {
  return `${ruleValue(rule.type, rule.value)} (${rule.type})`;
}

/** Interest: `1 % per calendar month`. */
function interestRule(rule) {
  return `${ruleValue(rule.type, rule.value)} ${rulePeriod(rule.type)}`;
}

/** A discount: `R$ 20,00 until 2027-03-01` per date, or `0.5 % per calendar day early`. */
function discountRule(rule) {
  if (Array.isArray(rule.dates)) {
    return rule.dates.map((d) => `${ruleValue(rule.type, d.value)} until ${d.date}`).join('; ');
  }
  return `${ruleValue(rule.type, rule.value)} ${rulePeriod(rule.type)}`;
}

/** A charge with a due date (`DUE_DATE`): its due date, its rules and, once paid, what the
 * amount paid is made of. */
function Invoice({ intent: i }) {
  const c = i.amountComponents;
  const part = (n) => money(n ?? 0);
  return html`<section aria-labelledby="invoice-title">
    <h2 id="invoice-title">Invoice</h2>
    <dl class="facts">
      <dt>Due date</dt><dd>${i.dueDate ?? '—'}</dd>
      <dt>Payable after it</dt><dd>${i.daysAfterDue ?? 0} days</dd>
      ${i.fine ? html`<dt>Fine</dt><dd>${flatRule(i.fine)}</dd>` : null}
      ${i.interest ? html`<dt>Interest</dt><dd>${interestRule(i.interest)}</dd>` : null}
      ${i.abatement ? html`<dt>Abatement</dt><dd>${flatRule(i.abatement)}</dd>` : null}
      ${i.discount ? html`<dt>Discount</dt><dd>${discountRule(i.discount)}</dd>` : null}
      ${i.amountPaid !== undefined && i.amountPaid !== null ? html`<dt>Paid</dt><dd>${money(i.amountPaid)}${c
        ? ` = original ${part(c.original)} + fine ${part(c.fine)} + interest ${part(c.interest)} − abatement ${part(c.abatement)} − discount ${part(c.discount)}`
        : ''}</dd>` : null}
    </dl>
  </section>`;
}

/**
 * A recurring charge (`RECURRING`, Pix Automático): the mandate it charges under, its due date
 * and each attempt at the payer's bank, as its PSP reports them. There is no code to scan (no
 * `pix.copyAndPaste`): the payer's bank debits it on the due date.
 */
function Recurring({ intent: i }) {
  const attempts = Array.isArray(i.attempts) ? i.attempts : [];
  return html`<section aria-labelledby="recurring-title">
    <h2 id="recurring-title">Recurring charge</h2>
    <p class="muted">Pix Automático: the payer's bank debits it under the mandate on its due date (the next
      business day when that is not one); there is no code to scan.</p>
    <dl class="facts">
      <dt>Mandate</dt><dd>${i.mandateId
        ? html`<a href=${`#/mandates/${i.mandateId}`}>Mandate <code>${i.mandateId}</code></a>`
        : '—'}</dd>
      <dt>Due date</dt><dd>${i.dueDate ?? '—'}</dd>
    </dl>
    <h3>Attempts</h3>
    ${attempts.length === 0
      ? html`<p class="muted">No attempt yet${i.status === 'SHADOW_ONLY'
        ? ": a SHADOW store's charge never reaches a payer's bank"
        : ''}.</p>`
      : html`<div class="scroll"><table>
          <caption>The attempts at the payer's bank, oldest first</caption>
          <thead><tr><th scope="col">Date</th><th scope="col">Status</th><th scope="col">Failure code</th><th scope="col">Failure</th></tr></thead>
          <tbody>${attempts.map((a) => html`<tr>
            <th scope="row" class="nowrap">${a.date}</th>
            <td><span class=${`badge ${a.status}`}>${a.status}</span></td>
            <td>${a.failure?.code ? html`<code>${a.failure.code}</code>` : ''}</td><td>${a.failure?.message ?? ''}</td>
          </tr>`)}</tbody>
        </table></div>`}
  </section>`;
}

/** The chain's run: each step with its component, fuel, time, log, input and output; where it
 * stopped (a refusal, a failure); the ranked routes. A payment's trace and an evaluation's. */
export function ChainTrace({ trace }) {
  const steps = STEPS.map((s) => trace[s]).filter(Boolean);
  const routes = Array.isArray(trace.routes) ? trace.routes : [];
  const stopped = trace.stopped;
  return html`
    <ol class="trace">${steps.map((s) => html`<li>
      <h3>${s.step}</h3>
      <p>
        Version <${Version} value=${s.component} /> · fuel ${s.fuelUsed} · ${s.durationUs} µs
        ${s.error ? html` · <strong>error</strong> <code>${s.error.code ?? JSON.stringify(s.error)}</code>` : ''}
      </p>
      ${s.log ? html`<pre class="log" tabindex="0">${s.log}</pre>` : null}
      <${JsonView} value=${s.output} summary=${`${s.step} output`} />
      <${JsonView} value=${s.input} summary=${`${s.step} input`} />
    </li>`)}</ol>
    ${stopped ? html`<p role="note">Stopped at the <strong>${stopped.step}</strong> step (version <${Version} value=${stopped.component} />):
      <code>${stopped.code}</code> ${stopped.message}</p>
      ${stopped.input !== undefined ? html`<${JsonView} value=${stopped.input} summary=${`${stopped.step} input`} />` : null}` : null}
    ${routes.length ? html`<h3>Routes, in order</h3><div class="scroll"><table>
      <caption>The gateways the chain ranked for this charge</caption>
      <thead><tr><th scope="col">#</th><th scope="col">Gateway</th><th scope="col">Provider</th><th scope="col">Release class</th><th scope="col">Fee</th><th scope="col">Net</th><th scope="col">Why</th></tr></thead>
      <tbody>${routes.map((r, n) => html`<tr>
        <td>${n + 1}</td><th scope="row"><code>${r.gateway?.gatewayAlias}</code></th><td>${r.gateway?.providerCode}</td>
        <td>${r.gateway?.releaseClass}</td><td>${centavos(r.quote?.feeCentavos)}</td><td>${centavos(r.quote?.netCentavos)}</td><td>${r.gateway?.reason ?? ''}</td>
      </tr>`)}</tbody>
    </table></div>` : null}`;
}

/** A payment's trace: the chain's run, then the calls made to the PSP (charges, reads,
 * devoluções). */
function Trace({ trace }) {
  const calls = Array.isArray(trace.pspCalls) ? trace.pspCalls : [];
  return html`<${ChainTrace} trace=${trace} />
    <h3>PSP calls</h3>
    ${calls.length === 0
      ? html`<p class="muted">No PSP was called for this payment.</p>`
      : html`<div class="scroll"><table>
          <caption>The calls made to PSPs for this payment, in order</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Provider</th><th scope="col">Gateway</th><th scope="col">Call</th><th scope="col">Outcome</th><th scope="col">Took</th><th scope="col">Error</th></tr></thead>
          <tbody>${calls.map((c) => html`<tr>
            <td>${when(new Date(c.at).toISOString())}</td><td>${c.providerCode}</td><td>${c.gatewayAlias ?? '—'}</td>
            <td><code>${c.operation}</code></td><td>${c.outcome}</td><td>${c.durationMs} ms</td><td>${c.error ?? ''}</td>
          </tr>`)}</tbody>
        </table></div>`}
    <${JsonView} value=${trace} summary="The whole trace as JSON" />`;
}

function Deliveries({ id, me }) {
  const state = useLoad(() => get(`/payment-intents/${id}/deliveries`), [id]);
  const action = useAction();
  return html`<section aria-labelledby="deliveries-title">
    <h2 id="deliveries-title">Webhook deliveries</h2>
    <${ErrorBox} error=${action.error} />
    ${action.result ? html`<p role="status">The delivery is being sent again.</p>` : null}
    ${html`<${Loaded} state=${state} what="the deliveries">${(deliveries) => {
          if (!deliveries.length) return html`<p class="muted">No webhook delivery for this payment.</p>`;
          return html`<ul class="cards">${deliveries.map((d) => html`<li class="card">
            <h3>${d.event} <span class=${`badge ${d.status}`}>${d.status}</span></h3>
            <p>Delivery <code>${d.deliveryId}</code> to endpoint <code>${d.endpointId}</code></p>
            ${d.nextAttemptAt ? html`<p>Next attempt ${when(d.nextAttemptAt)}</p>` : null}
            <div class="scroll"><table>
              <caption>Attempts</caption>
              <thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">HTTP</th><th scope="col">Took</th><th scope="col">Error</th></tr></thead>
              <tbody>${d.attempts.map((a) => html`<tr>
                <td>${a.attempt}</td><td>${when(a.attemptedAt)}</td><td>${a.httpStatus ?? '—'}</td>
                <td>${a.durationMs} ms</td><td>${a.error ?? ''}</td>
              </tr>`)}</tbody>
            </table></div>
            ${can(me, 'operator') ? html`<button type="button" disabled=${action.busy}
              onClick=${() => action.run(() => post(`/webhook-deliveries/${d.deliveryId}/resend`)).then((r) => r !== undefined && state.reload())}>
              Resend ${d.event}</button>` : null}
          </li>`)}</ul>`;
        }}<//>`}
  </section>`;
}
