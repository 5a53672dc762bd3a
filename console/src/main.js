// The pixgate console: sign-in, the section navigation and hash routing (#/overview, the
// landing view, #/stores, ...).
// Everything it shows comes from the admin API of the origin that served it.
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import './style.css';
import { ApiError, forgetToken, keepToken, setUnauthorizedHandler, storedToken, whoAmI } from './api.js';
import { ErrorBox, html } from './ui.js';
import { StoreDetail, Stores } from './views/stores.js';
import { Components } from './views/components.js';
import { Replay } from './views/replay.js';
import { Shadow } from './views/shadow.js';
import { Providers } from './views/providers.js';
import { Payment, Payments } from './views/payments.js';
import { Mandate, Mandates } from './views/mandates.js';
import { Audit, Operators } from './views/operators.js';
import { Overview } from './views/overview.js';
import { Deliveries } from './views/deliveries.js';
import { Evaluate } from './views/evaluate.js';
import { Reconciliation, Reconciliations, Settlements } from './views/reconciliations.js';

const SECTIONS = [
  ['overview', 'Overview'],
  ['stores', 'Stores'],
  ['components', 'Components'],
  ['replay', 'Replay'],
  ['shadow', 'Shadow'],
  ['providers', 'Providers'],
  ['payments', 'Payments'],
  ['mandates', 'Mandates'],
  ['reconciliations', 'Reconciliation'],
  ['settlements', 'Settlements'],
  ['deliveries', 'Webhook deliveries'],
  ['evaluate', 'Evaluate'],
  ['operators', 'Operators'],
  ['audit', 'Audit trail'],
];

function currentRoute() {
  const parts = window.location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  return { section: parts[0] || 'overview', id: parts[1] || null, sub: parts[2] || null };
}

function useRoute() {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const onChange = () =>
      setRoute((shown) => {
        const next = currentRoute();
        const same = shown.section === next.section && shown.id === next.id && shown.sub === next.sub;
        return same ? shown : next;
      });
    window.addEventListener('hashchange', onChange);
    // A hash that changed between the first render and this subscription (a payment's link
    // opened right after signing in) fired its event before anyone listened: read it now.
    onChange();
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

function SignIn({ onSignedIn, notice }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const input = useRef(null);
  useEffect(() => {
    input.current?.focus();
    // The moment the form can be used: bench/console.sh reads it.
    performance.mark('console-interactive');
  }, []);
  async function submit(event) {
    event.preventDefault();
    const token = input.current.value.trim();
    if (!token) {
      setError(new ApiError(0, 'missing_token', 'Enter an operator token.'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const me = await whoAmI(token);
      keepToken(token);
      input.current.value = '';
      onSignedIn(me);
    } catch (e) {
      setError(
        e.status === 401
          ? new ApiError(401, e.code, 'This token was not accepted: check it, or ask an admin for a new one.')
          : e,
      );
    } finally {
      setBusy(false);
    }
  }
  // The input has no name: even a form submitted without this script sends no token.
  return html`<main id="main" class="signin">
    <form method="post" onSubmit=${submit} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in to the pixgate console</h1>
      ${notice ? html`<p role="status">${notice}</p>` : null}
      <label for="token">Operator token</label>
      <input id="token" ref=${input} type="password" autocomplete="off" spellcheck="false" required aria-describedby="token-help" />
      <p id="token-help" class="muted">
        Your operator token, or the instance's admin token. It stays in this tab only and is
        forgotten when the tab closes.
      </p>
      <button type="submit" class="primary" disabled=${busy}>Sign in</button>
      <${ErrorBox} error=${error} />
    </form>
  </main>`;
}

function View({ route, me }) {
  switch (route.section) {
    case 'overview':
      return html`<${Overview} me=${me} />`;
    case 'stores':
      return route.id ? html`<${StoreDetail} code=${route.id} me=${me} />` : html`<${Stores} me=${me} />`;
    case 'components':
      return html`<${Components} me=${me} />`;
    case 'replay':
      return html`<${Replay} me=${me} />`;
    case 'shadow':
      return html`<${Shadow} me=${me} store=${route.id} step=${route.sub} />`;
    case 'providers':
      return html`<${Providers} me=${me} />`;
    case 'payments':
      return route.id ? html`<${Payment} id=${route.id} me=${me} />` : html`<${Payments} me=${me} />`;
    case 'mandates':
      return route.id ? html`<${Mandate} id=${route.id} me=${me} />` : html`<${Mandates} me=${me} />`;
    case 'reconciliations':
      return route.id ? html`<${Reconciliation} id=${route.id} me=${me} />` : html`<${Reconciliations} me=${me} />`;
    case 'settlements':
      return html`<${Settlements} me=${me} />`;
    case 'deliveries':
      return html`<${Deliveries} me=${me} />`;
    case 'evaluate':
      return html`<${Evaluate} me=${me} store=${route.id} />`;
    case 'operators':
      return html`<${Operators} me=${me} />`;
    case 'audit':
      return html`<${Audit} me=${me} />`;
    default:
      return html`<h1>Not found</h1><p>No such section. <a href="#/overview">Go to the overview</a>.</p>`;
  }
}

function Shell({ me, onSignOut }) {
  const route = useRoute();
  const main = useRef(null);
  const first = useRef(true);
  // A new section moves focus to the content, as a page load would.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [route.section, route.id, route.sub]);
  return html`
    <a class="skip" href="#/" onClick=${(e) => {
      e.preventDefault();
      main.current?.focus();
    }}>Skip to content</a>
    <header class="top">
      <span class="brand">pixgate</span>
      <nav aria-label="Sections">
        <ul>
          ${SECTIONS.map(
            ([id, label]) => html`<li><a href=${`#/${id}`} aria-current=${route.section === id ? 'page' : undefined}>${label}</a></li>`,
          )}
        </ul>
      </nav>
      <div class="who">
        <span>${me.name} <span class="role">${me.role}</span></span>
        <button type="button" onClick=${onSignOut}>Sign out</button>
      </div>
    </header>
    <main id="main" ref=${main} tabindex="-1">
      <${View} route=${route} me=${me} />
    </main>`;
}

function App() {
  const [me, setMe] = useState(null);
  const [checking, setChecking] = useState(!!storedToken());
  const [notice, setNotice] = useState(null);
  useEffect(() => {
    setUnauthorizedHandler(() => {
      forgetToken();
      setMe(null);
      setNotice('Your session ended (the token was revoked or is no longer valid). Sign in again.');
    });
    const token = storedToken();
    if (!token) return;
    whoAmI(token)
      .then(setMe, () => forgetToken())
      .finally(() => setChecking(false));
  }, []);
  if (checking) return html`<p role="status">Checking your session…</p>`;
  if (!me) return html`<${SignIn} notice=${notice} onSignedIn=${(m) => { setNotice(null); setMe(m); }} />`;
  return html`<${Shell} me=${me} onSignOut=${() => {
    forgetToken();
    setMe(null);
    setNotice('Signed out.');
  }} />`;
}

// The page's own "Loading" note goes: render() would keep it beside the app.
const root = document.getElementById('app');
root.replaceChildren();
render(html`<${App} />`, root);

