// Shared pieces of the views: the html tag, roles, loading state, errors, the confirmation
// dialog and formatting.
import { h } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);

/** The roles, each including the ones before it (DESIGN §13). */
export const ROLES = ['viewer', 'tester', 'operator', 'admin'];

/** Whether `me` may do what `role` may. */
export function can(me, role) {
  return ROLES.indexOf(me?.role) >= ROLES.indexOf(role);
}

/** Runs `load` now and whenever `deps` change; `reload` runs it again. */
export function useLoad(load, deps) {
  const [state, setState] = useState({ loading: true, data: undefined, error: null });
  const run = useCallback(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    load().then(
      (data) => live && setState({ loading: false, data, error: null }),
      (error) => live && setState({ loading: false, data: undefined, error }),
    );
    return () => {
      live = false;
    };
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

/** An action's state: `busy` while it runs, its error or result after. */
export function useAction() {
  const [state, setState] = useState({ busy: false, error: null, result: undefined });
  const run = useCallback(async (action) => {
    setState({ busy: true, error: null, result: undefined });
    try {
      const result = await action();
      setState({ busy: false, error: null, result });
      return result;
    } catch (error) {
      setState({ busy: false, error, result: undefined });
      return undefined;
    }
  }, []);
  return { ...state, run };
}

export function ErrorBox({ error }) {
  if (!error) return null;
  return html`<p class="error" role="alert">
    ${error.message}${error.code ? html` <code>${error.code}</code>` : null}
  </p>`;
}

export function Loading({ what }) {
  return html`<p class="muted" role="status">Loading ${what}…</p>`;
}

/** A view's loaded state: the loading note, the error, or `children(data)`. */
export function Loaded({ state, what, children }) {
  if (state.error) return html`<${ErrorBox} error=${state.error} />`;
  if (state.loading && state.data === undefined) return html`<${Loading} what=${what} />`;
  return children(state.data);
}

/**
 * A modal confirmation (the native dialog: focus moves into it and Escape cancels). Opens
 * while `open` is true; `onConfirm` runs the action.
 */
export function Confirm({ open, title, children, confirmLabel, onConfirm, onCancel }) {
  const ref = useRef(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return html`<dialog ref=${ref} aria-labelledby="confirm-title" onCancel=${(e) => {
    e.preventDefault();
    onCancel();
  }}>
    <h2 id="confirm-title">${title}</h2>
    <div>${children}</div>
    <div class="actions">
      <button type="button" onClick=${onCancel}>Cancel</button>
      <button type="button" class="primary" onClick=${onConfirm}>${confirmLabel}</button>
    </div>
  </dialog>`;
}

/** A value as pretty JSON, folded. */
export function JsonView({ value, summary }) {
  return html`<details class="json">
    <summary>${summary ?? 'JSON'}</summary>
    <pre tabindex="0">${JSON.stringify(value, null, 2)}</pre>
  </details>`;
}

/** A version hash shortened for reading; the full one in its title. */
export function Version({ value }) {
  if (!value) return html`<span class="muted">none</span>`;
  if (!/^[0-9a-f]{64}$/.test(value)) return html`<code>${value}</code>`;
  return html`<code title=${value}>${value.slice(0, 12)}</code>`;
}

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

export function centavos(n) {
  if (n === null || n === undefined) return '—';
  return brl.format(n / 100);
}

export function money(amount) {
  if (amount === null || amount === undefined) return '—';
  return brl.format(Number(amount));
}

export function signedCentavos(n) {
  if (n === null || n === undefined) return '—';
  return `${n > 0 ? '+' : ''}${centavos(n)}`;
}

/** A share (0 to 1) as a percentage with one decimal; `—` when there is none. */
export function percent(share) {
  if (share === null || share === undefined || Number.isNaN(share)) return '—';
  return `${(share * 100).toFixed(1)} %`;
}

export function when(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export const STEPS = ['policy', 'provider', 'economics'];
