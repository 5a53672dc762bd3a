// @ts-check
// A pixgate provider-selection step: which gateways may take this charge, and in which order.
// pixgate tries them in the order returned: the first is the primary, the rest the failover
// order of a LIVE charge.
//
// This example ranks the gateways cheapest first for the charge's amount. It leaves out a
// gateway that is down, whose release class the policy step did not allow, or whose fee is
// above the store's `ranking.max-fee-centavos` (when the store sets it). A charge pinned to one
// gateway (`input.pinnedGateway`) leaves every other one out: it goes to that gateway if the
// rules above keep it, and is refused otherwise.
//
// The rules every component lives by: the same input must give the same output. `Date.now()`
// is the charge's time (`input.env.nowMs`) and `Math.random()` is seeded from
// `input.env.seed`, so both replay exactly; there is no network, no files, no environment.
// Money is integer centavos: WIT's u64 and s64 are BigInt here (`12990n`), never a float.

import { log } from 'pixgate:chain/host-log@1.1.0';

/**
 * @typedef {import('pixgate:chain/provider-selection@1.1.0').ProviderInput} ProviderInput
 * @typedef {import('pixgate:chain/types@1.1.0').ProviderDecision} ProviderDecision
 * @typedef {import('pixgate:chain/types@1.1.0').FeeTerms} FeeTerms
 * @typedef {import('pixgate:chain/types@1.1.0').StoreContext} StoreContext
 * @typedef {import('pixgate:chain/types@1.1.0').Gateway} Gateway
 */

/** The store configuration key this component reads. Pick keys of your own for your settings. */
const MAX_FEE_KEY = 'ranking.max-fee-centavos';

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

export const providerSelection = {
  /**
   * @param {ProviderInput} input
   * @returns {ProviderDecision}
   */
  rank(input) {
    const amount = input.charge.amountCentavos;
    // A malformed setting refuses the charge with a clear code rather than guessing.
    const maxFee = configBigInt(input.store, MAX_FEE_KEY);
    const classes = input.policy.eligibleReleaseClasses;
    // A recurring charge must go to the gateway that holds its mandate: pixgate accepts that
    // gateway ranked alone, or a refusal.
    const pinned = input.pinnedGateway;

    /** @type {Array<{ fee: bigint, gateway: Gateway }>} */
    const ranked = [];
    /** @type {ProviderDecision['excluded']} */
    const excluded = [];
    for (const gateway of input.gateways) {
      const fee = feeFor(amount, gateway.feeTerms);
      let reason = null;
      if (pinned !== undefined && gateway.gatewayAlias !== pinned) {
        reason = `the charge is pinned to ${pinned}`;
      } else if (!gateway.health.available) {
        reason = 'gateway unavailable';
      } else if (classes.length > 0 && !classes.includes(gateway.releaseClass)) {
        reason = `release class ${gateway.releaseClass} not eligible under ${input.policy.policy}`;
      } else if (maxFee !== undefined && fee > maxFee) {
        reason = `fee of ${fee} centavos is above ${MAX_FEE_KEY}`;
      }
      if (reason === null) {
        ranked.push({ fee, gateway });
      } else {
        excluded.push({ gatewayAlias: gateway.gatewayAlias, reason });
      }
    }
    // The alias breaks ties: the order must be the same on every run.
    ranked.sort(
      (a, b) =>
        compare(a.fee, b.fee) || compare(a.gateway.gatewayAlias, b.gateway.gatewayAlias),
    );

    if (ranked.length === 0) {
      throw new StepRefusal(
        'no_eligible_gateway',
        `none of the ${excluded.length} gateways is eligible`,
      );
    }
    // Log lines are kept with the decision trace (1 KB per call in all): keep them short.
    log('info', `${ranked.length} ranked, ${excluded.length} left out`);
    return {
      ranking: ranked.map(({ fee, gateway }) => ({
        gatewayAlias: gateway.gatewayAlias,
        providerCode: gateway.providerCode,
        releaseClass: gateway.releaseClass,
        reason: `fee ${fee} centavos`,
      })),
      excluded,
    };
  },
};

/**
 * The fee a gateway charges for `amount`, as pixgate's bundled economics computes it: the MDR
 * (basis points, rounded half up to the centavo) plus the fixed fee, raised to the minimum
 * and capped at the maximum.
 *
 * @param {bigint} amount
 * @param {FeeTerms} terms
 * @returns {bigint}
 */
function feeFor(amount, terms) {
  const mdr = (amount * BigInt(terms.mdrBps) + 5000n) / 10000n;
  let fee = mdr + terms.fixedCentavos;
  if (fee < terms.minFeeCentavos) fee = terms.minFeeCentavos;
  if (terms.maxFeeCentavos !== undefined && fee > terms.maxFeeCentavos) {
    fee = terms.maxFeeCentavos;
  }
  return fee;
}

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

/**
 * @template {bigint | string} T
 * @param {T} a
 * @param {T} b
 */
function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
