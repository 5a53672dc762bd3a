declare module 'pixgate:chain/types@1.1.0' {
  /**
   * Kind of the payer's tax id. The number itself never reaches a component.
   * # Variants
   * 
   * ## `"cpf"`
   * 
   * Individual (11-digit CPF).
   * ## `"cnpj"`
   * 
   * Company (14-character CNPJ, numeric or alphanumeric).
   */
  export type PayerKind = 'cpf' | 'cnpj';
  /**
   * Execution mode of the store.
   * # Variants
   * 
   * ## `"shadow"`
   * 
   * Everything is resolved and recorded; no real PIX is created.
   * ## `"live"`
   * 
   * Charges are created at a PSP.
   */
  export type StoreMode = 'shadow' | 'live';
  /**
   * A fine or an abatement: a fixed amount or a percentage of the amount.
   * # Variants
   * 
   * ## `"fixed"`
   * 
   * ## `"percent"`
   */
  export type FixedOrPercent = 'fixed' | 'percent';
  /**
   * A fine or an abatement. `value` is centavos when `kind` is `fixed`, hundredths of a
   * percent when it is `percent` (250 = 2.50 %).
   */
  export interface FixedOrPercentRule {
    kind: FixedOrPercent,
    value: bigint,
  }
  /**
   * How interest accrues after the due date (API Pix `juros` modalities 1 to 8, in order).
   * # Variants
   * 
   * ## `"amount-per-calendar-day"`
   * 
   * ## `"percent-per-calendar-day"`
   * 
   * ## `"percent-per-calendar-month"`
   * 
   * ## `"percent-per-calendar-year"`
   * 
   * ## `"amount-per-business-day"`
   * 
   * ## `"percent-per-business-day"`
   * 
   * ## `"percent-per-business-month"`
   * 
   * ## `"percent-per-business-year"`
   */
  export type InterestModality = 'amount-per-calendar-day' | 'percent-per-calendar-day' | 'percent-per-calendar-month' | 'percent-per-calendar-year' | 'amount-per-business-day' | 'percent-per-business-day' | 'percent-per-business-month' | 'percent-per-business-year';
  /**
   * Interest after the due date. `value` is centavos per day for the `amount-...`
   * modalities, hundredths of a percent per period for the `percent-...` ones.
   */
  export interface InterestRule {
    modality: InterestModality,
    value: bigint,
  }
  /**
   * How a discount for paying early is granted (API Pix `desconto` modalities 1 to 6).
   * # Variants
   * 
   * ## `"fixed-until-dates"`
   * 
   * ## `"percent-until-dates"`
   * 
   * ## `"amount-per-calendar-day-early"`
   * 
   * ## `"amount-per-business-day-early"`
   * 
   * ## `"percent-per-calendar-day-early"`
   * 
   * ## `"percent-per-business-day-early"`
   */
  export type DiscountModality = 'fixed-until-dates' | 'percent-until-dates' | 'amount-per-calendar-day-early' | 'amount-per-business-day-early' | 'percent-per-calendar-day-early' | 'percent-per-business-day-early';
  /**
   * A discount granted on payments up to `date` (YYYY-MM-DD). `value` as in `discount-rule`.
   */
  export interface DiscountDate {
    date: string,
    value: bigint,
  }
  /**
   * A discount. `-until-dates` modalities: `dates` holds 1 to 3 dates in order and `value`
   * is 0. Per-day modalities: `dates` is empty and `value` is per day paid early. Values
   * are centavos (`fixed-...`, `amount-...`) or hundredths of a percent (`percent-...`).
   */
  export interface DiscountRule {
    modality: DiscountModality,
    value: bigint,
    dates: Array<DiscountDate>,
  }
  /**
   * The terms of a charge with a due date (API Pix `cobv`). Percentages of the fine,
   * interest and discount are of the amount minus the abatement.
   */
  export interface DueTerms {
    /**
     * The due date as the merchant set it, YYYY-MM-DD (Brasília). A due date on a
     * weekend or a national holiday moves to the next business day.
     */
    dueDate: string,
    /**
     * Calendar days after the due date the charge can still be paid.
     */
    daysAfterDue: number,
    fine?: FixedOrPercentRule,
    interest?: InterestRule,
    abatement?: FixedOrPercentRule,
    discount?: DiscountRule,
  }
  /**
   * How often a mandate (Pix Automático) charges.
   * # Variants
   * 
   * ## `"weekly"`
   * 
   * ## `"monthly"`
   * 
   * ## `"quarterly"`
   * 
   * ## `"semiannual"`
   * 
   * ## `"annual"`
   */
  export type MandateFrequency = 'weekly' | 'monthly' | 'quarterly' | 'semiannual' | 'annual';
  /**
   * The mandate a recurring charge is made under.
   */
  export interface MandateTerms {
    /**
     * pixgate's id of the mandate.
     */
    mandateId: string,
    frequency: MandateFrequency,
    /**
     * The cycle this charge is for, from 1.
     */
    cycle: number,
    /**
     * The charge's due date, YYYY-MM-DD (Brasília).
     */
    dueDate: string,
  }
  /**
   * What kind of PIX charge this is.
   */
  export type ChargeKind = ChargeKindImmediate | ChargeKindDueDate | ChargeKindRecurring;
  /**
   * An immediate charge (API Pix `cob`), paid within its expiry.
   */
  export interface ChargeKindImmediate {
    tag: 'immediate',
  }
  /**
   * A charge with a due date (API Pix `cobv`).
   */
  export interface ChargeKindDueDate {
    tag: 'due-date',
    val: DueTerms,
  }
  /**
   * A charge of a mandate the payer authorised once (Pix Automático, API Pix `cobr`);
   * it must go to the gateway that holds the mandate (`pinned-gateway`).
   */
  export interface ChargeKindRecurring {
    tag: 'recurring',
    val: MandateTerms,
  }
  /**
   * The charge being resolved.
   */
  export interface Charge {
    /**
     * Amount in centavos, at least 1.
     */
    amountCentavos: bigint,
    /**
     * ISO 4217 code; only "BRL" today.
     */
    currency: string,
    /**
     * The merchant's reference (at most 160 characters).
     */
    reference: string,
    payerKind: PayerKind,
    /**
     * The merchant's metadata object as JSON text ("{}" when absent; at most 16 KB).
     */
    metadataJson: string,
    /**
     * When the charge was created, Unix time in milliseconds (UTC).
     */
    createdAtMs: bigint,
    /**
     * Immediate, due date or recurring, with the kind's terms. (Since 1.1.0.)
     */
    kind: ChargeKind,
  }
  /**
   * One entry of the store's configuration. Keys are dotted names such as
   * `routing.policy`; values are text and each component documents the keys it reads.
   */
  export interface ConfigEntry {
    key: string,
    value: string,
  }
  /**
   * The store the charge is for.
   */
  export interface StoreContext {
    /**
     * Store code, as the merchant sends it.
     */
    code: string,
    /**
     * Code of the merchant that owns the store.
     */
    merchant: string,
    mode: StoreMode,
    /**
     * The store's configuration, sorted by key.
     */
    config: Array<ConfigEntry>,
  }
  /**
   * The only time and randomness a step may use. The host derives both from the charge,
   * so a replay of a recorded charge sees exactly the same values.
   */
  export interface StepEnv {
    /**
     * "Now" for this decision, Unix time in milliseconds (the charge's creation time).
     */
    nowMs: bigint,
    /**
     * Seed for any pseudo-random choice.
     */
    seed: bigint,
  }
  /**
   * A gateway's contract terms for PIX charges.
   */
  export interface FeeTerms {
    /**
     * Merchant discount rate in basis points of the amount (150 = 1.50 %).
     */
    mdrBps: number,
    /**
     * Fixed fee per charge, centavos.
     */
    fixedCentavos: bigint,
    /**
     * The total fee is never below this, centavos.
     */
    minFeeCentavos: bigint,
    /**
     * The total fee is never above this, centavos, when set.
     */
    maxFeeCentavos?: bigint,
  }
  /**
   * Recent health of a gateway as the host observed it.
   */
  export interface GatewayHealth {
    /**
     * False while the host considers the gateway down.
     */
    available: boolean,
    /**
     * Share of successful charge creations over the host's window, basis points
     * (10000 = 100 %). 10000 when there are no samples.
     */
    successRateBps: number,
    /**
     * Median latency of charge creation over the window, milliseconds.
     */
    latencyP50Ms: number,
    /**
     * Attempts in the window; 0 means no data.
     */
    samples: number,
  }
  /**
   * A gateway the store may use: one provider account in one release class.
   */
  export interface Gateway {
    /**
     * Provider (PSP) code, e.g. "sandbox-a".
     */
    providerCode: string,
    /**
     * The gateway's alias, unique in the catalog, e.g. "sandbox-a-d0".
     */
    gatewayAlias: string,
    /**
     * When the money is released to the merchant: "D0", "D1", "D2", "D30", ...
     */
    releaseClass: string,
    feeTerms: FeeTerms,
    health: GatewayHealth,
  }
  /**
   * Outcome of the policy step.
   */
  export interface PolicyDecision {
    /**
     * Name of the routing policy that applies (shown as routing.policy).
     */
    policy: string,
    /**
     * Release classes the charge may go to, most preferred first.
     */
    eligibleReleaseClasses: Array<string>,
    /**
     * Whether a LIVE charge may fail over to a gateway of another release class.
     */
    crossReleaseClassFailover: boolean,
    /**
     * How many gateways the host may try for a LIVE charge (at least 1).
     */
    maxAttempts: number,
  }
  /**
   * One gateway in the provider ranking.
   */
  export interface RankedGateway {
    gatewayAlias: string,
    providerCode: string,
    releaseClass: string,
    /**
     * Why it stands where it stands, for the decision trace.
     */
    reason: string,
  }
  /**
   * A gateway the provider step left out, with the reason.
   */
  export interface ExcludedGateway {
    gatewayAlias: string,
    reason: string,
  }
  /**
   * Outcome of the provider-selection step.
   */
  export interface ProviderDecision {
    /**
     * Gateways in the order the host tries them: the first is the primary, the rest is
     * the failover order. Never empty.
     */
    ranking: Array<RankedGateway>,
    excluded: Array<ExcludedGateway>,
  }
  /**
   * Economics of routing the charge through one gateway.
   */
  export interface EconomicsQuote {
    /**
     * Total fee, centavos (MDR plus fixed fee, within the terms' bounds).
     */
    feeCentavos: bigint,
    /**
     * Amount minus fee, centavos.
     */
    netCentavos: bigint,
    /**
     * Release class the money is released in.
     */
    releaseClass: string,
    /**
     * Date the money is released, ISO 8601 (YYYY-MM-DD), Brasília calendar.
     */
    settlementDate: string,
  }
  /**
   * The economics step's verdict on one candidate.
   */
  export type CandidateOutcome = CandidateOutcomeAccepted | CandidateOutcomeRejected;
  export interface CandidateOutcomeAccepted {
    tag: 'accepted',
    val: EconomicsQuote,
  }
  /**
   * The candidate may not be used; the text says why.
   */
  export interface CandidateOutcomeRejected {
    tag: 'rejected',
    val: string,
  }
  export interface CandidateEconomics {
    gatewayAlias: string,
    outcome: CandidateOutcome,
  }
  /**
   * A step's refusal to decide, e.g. an amount over the store's limit.
   */
  export interface StepError {
    /**
     * Stable snake_case code.
     */
    code: string,
    message: string,
  }
}
