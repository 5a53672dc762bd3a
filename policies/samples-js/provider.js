// @ts-check
// Sample: pixgate's bundled provider-selection step written in JavaScript, built from source
// by `.ci/kits.sh` and run end to end by `tests/tests/e2e/languages.rs`. The ranking is the bundled
// step's (`policies/logic/src/provider.rs`): a gateway is left out when it is down, when its
// release class is not eligible under the policy, or when its success rate is below
// `routing.min-success-rate-bps` (default 8000) over at least `routing.min-health-samples`
// attempts (default 20); the rest is ordered by health tier (healthy: at least 95 % success or
// too few samples), then under `d0-first` by the policy's release-class preference, then by
// fee, median latency and alias. Without cross-release-class failover only the primary's
// release class stays in the failover order. A charge pinned to one gateway (`pinnedGateway`, a
// recurring charge's mandate) is only confirmed or refused, as the bundled step does.
//
// It also reads the clock and randomness, `Date.now()` and `Math.random()`, and writes both
// into the primary's reason and the log: the sandbox serves them from the charge's `env`, so a
// replay of a recorded charge must reproduce them exactly, and the tests check that it does.

import { log } from 'pixgate:chain/host-log@1.1.0';

/**
 * @typedef {import('pixgate:chain/provider-selection@1.1.0').ProviderInput} ProviderInput
 * @typedef {import('pixgate:chain/types@1.1.0').ProviderDecision} ProviderDecision
 * @typedef {import('pixgate:chain/types@1.1.0').FeeTerms} FeeTerms
 * @typedef {import('pixgate:chain/types@1.1.0').StoreContext} StoreContext
 * @typedef {import('pixgate:chain/types@1.1.0').Gateway} Gateway
 */

const HEALTHY_BPS = 9500;
const D0_FIRST = 'd0-first';

class StepRefusal extends Error {
  /**
   * @param {string} code
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
    if (input.pinnedGateway !== undefined) return confirmPinned(input, input.pinnedGateway);
    const { store, policy } = input;
    const floor = configOr(store, 'routing.min-success-rate-bps', 8000n);
    const minSamples = configOr(store, 'routing.min-health-samples', 20n);
    const amount = input.charge.amountCentavos;

    /** @type {ProviderDecision['excluded']} */
    const excluded = [];
    /** @type {{ g: Gateway, key: [number, number, bigint, number], health: string }[]} */
    const eligible = [];
    for (const g of input.gateways) {
      const classPref = policy.eligibleReleaseClasses.indexOf(g.releaseClass);
      const enoughSamples = BigInt(g.health.samples) >= minSamples;
      let exclusion = null;
      if (!g.health.available) {
        exclusion = 'gateway unavailable';
      } else if (policy.eligibleReleaseClasses.length > 0 && classPref < 0) {
        exclusion = `release class ${g.releaseClass} not eligible under ${policy.policy}`;
      } else if (enoughSamples && BigInt(g.health.successRateBps) < floor) {
        exclusion = `success rate ${g.health.successRateBps} bps below the floor of ${floor} bps`;
      }
      if (exclusion !== null) {
        excluded.push({ gatewayAlias: g.gatewayAlias, reason: exclusion });
        continue;
      }
      const healthy = !enoughSamples || g.health.successRateBps >= HEALTHY_BPS;
      const pref = policy.policy === D0_FIRST ? (classPref < 0 ? Infinity : classPref) : 0;
      eligible.push({
        g,
        key: [healthy ? 0 : 1, pref, feeFor(amount, g.feeTerms), g.health.latencyP50Ms],
        health: healthy ? 'healthy' : 'degraded',
      });
    }
    eligible.sort((a, b) => {
      for (let i = 0; i < a.key.length; i++) {
        const order = compare(a.key[i], b.key[i]);
        if (order !== 0) return order;
      }
      return compare(a.g.gatewayAlias, b.g.gatewayAlias);
    });

    if (eligible.length === 0) {
      throw new StepRefusal(
        'no_eligible_gateway',
        `none of the ${input.gateways.length} gateways is eligible under ${policy.policy}`,
      );
    }
    const primaryClass = eligible[0].g.releaseClass;
    // The sandbox's clock is the charge's time and its randomness follows the charge's seed.
    const rankedAt = new Date(Date.now()).toISOString();
    const draw = Math.random().toFixed(6);
    /** @type {ProviderDecision['ranking']} */
    const ranking = [];
    for (const { g, key, health } of eligible) {
      if (!policy.crossReleaseClassFailover && g.releaseClass !== primaryClass) {
        excluded.push({
          gatewayAlias: g.gatewayAlias,
          reason: `cross-release-class failover not allowed (primary is ${primaryClass})`,
        });
        continue;
      }
      const reason = `${health}, fee ${key[2]} centavos`;
      ranking.push({
        gatewayAlias: g.gatewayAlias,
        providerCode: g.providerCode,
        releaseClass: g.releaseClass,
        reason: ranking.length === 0 ? `${reason} (ranked at ${rankedAt}, draw ${draw})` : reason,
      });
    }
    log('info', `javascript: ranked at ${rankedAt}, draw ${draw}`);
    return { ranking, excluded };
  },
};

/**
 * The bundled step's answer for a pinned charge: the pinned gateway alone, unless it is not
 * among the store's gateways or the host reports it unavailable; no other rule applies.
 *
 * @param {ProviderInput} input
 * @param {string} pinned
 * @returns {ProviderDecision}
 */
function confirmPinned(input, pinned) {
  const g = input.gateways.find((o) => o.gatewayAlias === pinned);
  if (g === undefined) {
    throw new StepRefusal(
      'pinned_gateway_unknown',
      `the charge is pinned to ${pinned}, which is not among the store's gateways`,
    );
  }
  if (!g.health.available) {
    throw new StepRefusal(
      'pinned_gateway_unavailable',
      `the charge is pinned to ${pinned}, which is unavailable`,
    );
  }
  return {
    ranking: [
      {
        gatewayAlias: g.gatewayAlias,
        providerCode: g.providerCode,
        releaseClass: g.releaseClass,
        reason: 'pinned',
      },
    ],
    excluded: input.gateways
      .filter((o) => o.gatewayAlias !== pinned)
      .map((o) => ({ gatewayAlias: o.gatewayAlias, reason: `the charge is pinned to ${pinned}` })),
  };
}

/**
 * The bundled economics' fee: MDR in basis points rounded half up, plus the fixed fee, raised
 * to the minimum and capped at the maximum.
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
 * A whole number from the store's configuration, or `fallback` when it is not set.
 *
 * @param {StoreContext} store
 * @param {string} key
 * @param {bigint} fallback
 * @returns {bigint}
 */
function configOr(store, key, fallback) {
  const entry = store.config.find((e) => e.key === key);
  if (entry === undefined) return fallback;
  const text = entry.value.trim();
  if (!/^[0-9]{1,19}$/.test(text)) {
    throw new StepRefusal(
      'invalid_store_config',
      `store configuration \`${key}\` is \`${entry.value}\`; expected a whole number`,
    );
  }
  return BigInt(text);
}

/**
 * @template {bigint | number | string} T
 * @param {T} a
 * @param {T} b
 */
function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
