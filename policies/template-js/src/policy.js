// @ts-check
// A pixgate policy step: which routing policy applies to this charge, and its constraints (the
// release classes it may go to, cross-class failover, how many gateways to try).
//
// This example keeps same-day money for ordinary tickets and saves fees on large ones:
// - a charge above the store's `limits.max-amount-centavos` is refused;
// - from `policy.lowest-cost-from-centavos` (default R$ 1,000.00) up, and for a charge with a
//   due date (`charge.kind` is `due-date`) of any amount, `lowest-cost` in any release class;
// - below it, `d0-first` over D0 then D1 only.
//
// The policy names `d0-first` and `lowest-cost` are the ones pixgate's bundled provider step
// understands; a provider step of your own may read any name you choose.
//
// The rules every component lives by: the same input must give the same output. `Date.now()`
// is the charge's time (`input.env.nowMs`) and `Math.random()` is seeded from
// `input.env.seed`, so both replay exactly; there is no network, no files, no environment.
// Money is integer centavos: WIT's u64 and s64 are BigInt here (`12990n`), never a float.

import { log } from 'pixgate:chain/host-log@1.1.0';

/**
 * @typedef {import('pixgate:chain/policy@1.1.0').PolicyInput} PolicyInput
 * @typedef {import('pixgate:chain/types@1.1.0').PolicyDecision} PolicyDecision
 * @typedef {import('pixgate:chain/types@1.1.0').StoreContext} StoreContext
 */

/** The store configuration keys this component reads. Pick keys of your own for your settings. */
const MAX_AMOUNT_KEY = 'limits.max-amount-centavos';
const LOWEST_COST_FROM_KEY = 'policy.lowest-cost-from-centavos';
const DEFAULT_LOWEST_COST_FROM = 100000n;

/**
 * Refuses the charge: the merchant gets `code`, nothing is created. pixgate reads the
 * `payload` of what an export throws as the WIT `step-error`.
 */
class StepRefusal extends Error {
  /**
   * @param {string} code stable snake_case code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.payload = { code, message };
  }
}

export const policy = {
  /**
   * @param {PolicyInput} input
   * @returns {PolicyDecision}
   */
  decide(input) {
    const amount = input.charge.amountCentavos;
    // A malformed setting refuses the charge with a clear code rather than guessing.
    const max = configBigInt(input.store, MAX_AMOUNT_KEY);
    if (max !== undefined && amount > max) {
      throw new StepRefusal(
        'amount_above_store_limit',
        `amount is above the store's maximum of ${max} centavos`,
      );
    }
    const lowestCostFrom =
      configBigInt(input.store, LOWEST_COST_FROM_KEY) ?? DEFAULT_LOWEST_COST_FROM;

    // The merchant waits for the due date anyway: a later release class costs little there.
    // (A variant is `{ tag, val }`: here `val` holds the due terms, `val.dueDate`, ...)
    const dueDate = input.charge.kind.tag === 'due-date';

    /** @type {PolicyDecision} */
    const decision =
      dueDate || amount >= lowestCostFrom
        ? {
            policy: 'lowest-cost',
            // Empty: every release class is eligible.
            eligibleReleaseClasses: [],
            crossReleaseClassFailover: true,
            maxAttempts: 3,
          }
        : {
            policy: 'd0-first',
            eligibleReleaseClasses: ['D0', 'D1'],
            crossReleaseClassFailover: true,
            maxAttempts: 2,
          };
    // Log lines are kept with the decision trace (1 KB per call in all): keep them short.
    log('info', `${decision.policy} for ${amount} centavos`);
    return decision;
  },
};

/**
 * A whole number from the store's configuration; `undefined` when the store does not set it.
 *
 * @param {StoreContext} store
 * @param {string} key
 * @returns {bigint | undefined}
 */
function configBigInt(store, key) {
  const entry = store.config.find((e) => e.key === key);
  if (entry === undefined) return undefined;
  const text = entry.value.trim();
  if (!/^[0-9]{1,19}$/.test(text)) {
    throw new StepRefusal(
      'invalid_store_config',
      `${key} must be a whole number, not \`${entry.value}\``,
    );
  }
  return BigInt(text);
}
