// Providers (PSPs): configuration as the admin API shows it (never a secret), certificate
// expiry, gateways, and health where the server reports it.
import { get } from '../api.js';
import { Loaded, centavos, html, useLoad, when } from '../ui.js';

export function Providers() {
  const state = useLoad(async () => {
    const [providers, gateways] = await Promise.all([get('/providers'), get('/gateways')]);
    return { providers, gateways };
  }, []);
  return html`<h1>Providers</h1>
    <${Loaded} state=${state} what="the providers">${({ providers, gateways }) => html`
      ${providers.length === 0 ? html`<p class="muted">No provider is configured.</p>` : null}
      <div class="cards">${providers.map((p) => html`<article class="card" aria-labelledby=${`provider-${p.code}`}>
        <h2 id=${`provider-${p.code}`}>${p.name} <code>${p.code}</code></h2>
        <dl class="facts">
          <dt>Status</dt><dd><span class=${`badge ${p.active ? 'ok' : 'off'}`}>${p.active ? 'active' : 'inactive'}</span></dd>
          <dt>Health</dt><dd>${health(p.health)}</dd>
          <dt>API</dt><dd><code>${p.apiBaseUrl}</code></dd>
          <dt>Client id</dt><dd><code>${p.clientId}</code></dd>
          <dt>Client certificate</dt><dd>${p.tls?.clientCertificate ? `${p.tls.clientCertificate.subject}, until ${when(p.tls.clientCertificate.notAfter)}` : 'none'}</dd>
          <dt>Private CAs</dt><dd>${p.tls?.caCertificates?.length ?? 0}</dd>
        </dl>
      </article>`)}</div>
      <h2>Gateways</h2>
      <div class="scroll"><table>
        <thead><tr><th scope="col">Gateway</th><th scope="col">Provider</th><th scope="col">Release class</th><th scope="col">Fee terms</th><th scope="col">Status</th><th scope="col">Health</th></tr></thead>
        <tbody>${gateways.map((g) => html`<tr>
          <th scope="row"><code>${g.gatewayAlias}</code></th><td>${g.providerCode}</td><td>${g.releaseClass}</td>
          <td>${fees(g.feeTerms)}</td>
          <td><span class=${`badge ${g.active ? 'ok' : 'off'}`}>${g.active ? 'active' : 'inactive'}</span></td>
          <td>${health(g.health)}</td>
        </tr>`)}</tbody>
      </table></div>`}<//>`;
}

function fees(f) {
  if (!f) return '—';
  const cap = f.maxFeeCentavos === null || f.maxFeeCentavos === undefined ? 'no cap' : `cap ${centavos(f.maxFeeCentavos)}`;
  return `${(f.mdrBps / 100).toFixed(2)} % + ${centavos(f.fixedCentavos)}, min ${centavos(f.minFeeCentavos)}, ${cap}`;
}

/**
 * Recent call health: available or not, success rate, median latency, over how many calls
 * (the overview shows each provider's with this too).
 */
export function health(h) {
  if (!h) return html`<span class="muted">not reported</span>`;
  const rate = h.successRateBps !== undefined ? `${(h.successRateBps / 100).toFixed(1)} % ok` : null;
  const latency = h.latencyP50Ms !== undefined ? `p50 ${h.latencyP50Ms} ms` : null;
  return html`<span class=${`badge ${h.available ? 'ok' : 'off'}`}>${h.available ? 'available' : 'unavailable'}</span>
    ${[rate, latency, h.samples !== undefined ? `${h.samples} calls` : null].filter(Boolean).join(' · ')}`;
}
