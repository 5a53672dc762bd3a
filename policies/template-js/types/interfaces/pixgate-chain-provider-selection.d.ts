/// <reference path="./pixgate-chain-types.d.ts" />
declare module 'pixgate:chain/provider-selection@1.1.0' {
  export function rank(input: ProviderInput): ProviderDecision;
  export type Charge = import('pixgate:chain/types@1.1.0').Charge;
  export type StoreContext = import('pixgate:chain/types@1.1.0').StoreContext;
  export type StepEnv = import('pixgate:chain/types@1.1.0').StepEnv;
  export type PolicyDecision = import('pixgate:chain/types@1.1.0').PolicyDecision;
  export type Gateway = import('pixgate:chain/types@1.1.0').Gateway;
  export type ProviderDecision = import('pixgate:chain/types@1.1.0').ProviderDecision;
  export type StepError = import('pixgate:chain/types@1.1.0').StepError;
  export interface ProviderInput {
    charge: Charge,
    store: StoreContext,
    policy: PolicyDecision,
    /**
     * Every active gateway the store may use, with the host's health figures.
     */
    gateways: Array<Gateway>,
    env: StepEnv,
    /**
     * The alias of the only gateway this charge may go to (a recurring charge goes to
     * the gateway that holds its mandate): the step may rank it alone or refuse the
     * charge, nothing else. (Since 1.1.0.)
     */
    pinnedGateway?: string,
  }
}
