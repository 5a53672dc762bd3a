declare module 'pixgate:chain/types@1.0.0' {
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
