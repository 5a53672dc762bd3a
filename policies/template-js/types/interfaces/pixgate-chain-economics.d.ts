/// <reference path="./pixgate-chain-types.d.ts" />
declare module 'pixgate:chain/economics@1.1.0' {
  /**
   * One verdict per candidate, in the candidates' order.
   */
  export function evaluate(input: EconomicsInput): Array<CandidateEconomics>;
  export type Charge = import('pixgate:chain/types@1.1.0').Charge;
  export type StoreContext = import('pixgate:chain/types@1.1.0').StoreContext;
  export type StepEnv = import('pixgate:chain/types@1.1.0').StepEnv;
  export type PolicyDecision = import('pixgate:chain/types@1.1.0').PolicyDecision;
  export type Gateway = import('pixgate:chain/types@1.1.0').Gateway;
  export type CandidateEconomics = import('pixgate:chain/types@1.1.0').CandidateEconomics;
  export type StepError = import('pixgate:chain/types@1.1.0').StepError;
  export interface EconomicsInput {
    charge: Charge,
    store: StoreContext,
    policy: PolicyDecision,
    /**
     * The ranked gateways, in ranking order.
     */
    candidates: Array<Gateway>,
    /**
     * Non-business days besides weekends (national holidays), YYYY-MM-DD, ascending.
     */
    holidays: Array<string>,
    env: StepEnv,
  }
}
