// @ts-check
// A pixgate economics/release step: for each gateway the provider step ranked, the fee, the
// net amount, the release class and the settlement date, or a rejection. pixgate routes the
// charge to the first accepted candidate.
//
// This example prices like pixgate's bundled step (the fee of the gateway's terms; the money is
// released `n` business days after the charge for release class `D<n>`) and adds one rule of
// the store's: a candidate whose fee is above `economics.max-fee-centavos` is rejected.
//
// pixgate checks every quote: fee plus net must equal the amount, a quote keeps its gateway's
// release class, and a settlement date may not precede the charge.
//
// The rules every component lives by: the same input must give the same output. `Date.now()`
// is the charge's time (`input.env.nowMs`) and `Math.random()` is seeded from
// `input.env.seed`, so both replay exactly; there is no network, no files, no environment.
// Money is integer centavos: WIT's u64 and s64 are BigInt here (`12990n`), never a float.

import { log } from 'pixgate:chain/host-log@1.1.0';

/**
 * @typedef {import('pixgate:chain/economics@1.1.0').EconomicsInput} EconomicsInput
 * @typedef {import('pixgate:chain/types@1.1.0').CandidateEconomics} CandidateEconomics
 * @typedef {import('pixgate:chain/types@1.1.0').CandidateOutcome} CandidateOutcome
 * @typedef {import('pixgate:chain/types@1.1.0').FeeTerms} FeeTerms
 * @typedef {import('pixgate:chain/types@1.1.0').StoreContext} StoreContext
 */

/** The store configuration key this component reads. Pick keys of your own for your settings. */
const MAX_FEE_KEY = 'economics.max-fee-centavos';

/** Brasília has been UTC-3 all year since 2019; settlement follows its calendar. */
const BRASILIA_OFFSET_MS = -3n * 3600000n;
const DAY_MS = 86400000n;

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

export const economics = {
  /**
   * @param {EconomicsInput} input
   * @returns {CandidateEconomics[]}
   */
  evaluate(input) {
    const amount = input.charge.amountCentavos;
    // A malformed setting refuses the charge with a clear code rather than guessing.
    const maxFee = configBigInt(input.store, MAX_FEE_KEY);
    const chargeDay = floorDiv(input.charge.createdAtMs + BRASILIA_OFFSET_MS, DAY_MS);
    const holidays = new Set(input.holidays);

    const verdicts = input.candidates.map((gateway) => {
      const fee = feeFor(amount, gateway.feeTerms);
      const days = releaseDays(gateway.releaseClass);
      /** @type {CandidateOutcome} */
      let outcome;
      if (days === undefined) {
        outcome = { tag: 'rejected', val: `unknown release class ${gateway.releaseClass}` };
      } else if (fee >= amount) {
        outcome = { tag: 'rejected', val: `fee of ${fee} centavos would take the whole amount` };
      } else if (maxFee !== undefined && fee > maxFee) {
        outcome = { tag: 'rejected', val: `fee of ${fee} centavos is above ${MAX_FEE_KEY}` };
      } else {
        outcome = {
          tag: 'accepted',
          val: {
            feeCentavos: fee,
            netCentavos: amount - fee,
            releaseClass: gateway.releaseClass,
            settlementDate: settlementDate(chargeDay, days, holidays),
          },
        };
      }
      return { gatewayAlias: gateway.gatewayAlias, outcome };
    });
    const accepted = verdicts.filter((v) => v.outcome.tag === 'accepted').length;
    // Log lines are kept with the decision trace (1 KB per call in all): keep them short.
    log('info', `${accepted} of ${verdicts.length} candidates accepted`);
    return verdicts;
  },
};

/**
 * The fee a gateway charges for `amount`: the MDR (basis points, rounded half up to the
 * centavo) plus the fixed fee, raised to the minimum and capped at the maximum.
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
 * `D<n>` releases the money `n` business days after the charge.
 *
 * @param {string} releaseClass
 * @returns {number | undefined}
 */
function releaseDays(releaseClass) {
  const match = /^D([0-9]{1,3})$/.exec(releaseClass);
  const days = match ? Number(match[1]) : undefined;
  return days !== undefined && days <= 365 ? days : undefined;
}

/**
 * The first business day on or after the charge's day, then `days` business days more, as
 * `YYYY-MM-DD`. Weekends and the holidays pixgate supplies are not business days.
 *
 * @param {bigint} chargeDay days since 1970-01-01
 * @param {number} days
 * @param {Set<string>} holidays
 * @returns {string}
 */
function settlementDate(chargeDay, days, holidays) {
  /** @param {bigint} day */
  const isBusiness = (day) => {
    // 1970-01-01 (day 0) was a Thursday: 2 and 3 after it are Saturday and Sunday.
    const weekday = ((day % 7n) + 7n) % 7n;
    return weekday !== 2n && weekday !== 3n && !holidays.has(isoDate(day));
  };
  let day = chargeDay;
  while (!isBusiness(day)) day += 1n;
  for (let i = 0; i < days; i++) {
    day += 1n;
    while (!isBusiness(day)) day += 1n;
  }
  return isoDate(day);
}

/**
 * Days since 1970-01-01 as `YYYY-MM-DD`.
 *
 * @param {bigint} day
 * @returns {string}
 */
function isoDate(day) {
  // Date works in milliseconds of UTC; this is calendar arithmetic, not a clock read.
  return new Date(Number(day * DAY_MS)).toISOString().slice(0, 10);
}

/**
 * @param {bigint} a
 * @param {bigint} b
 */
function floorDiv(a, b) {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
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
