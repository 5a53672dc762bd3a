/// <reference path="./pixgate-chain-types.d.ts" />
declare module 'pixgate:chain/policy@1.1.0' {
  export function decide(input: PolicyInput): PolicyDecision;
  export type Charge = import('pixgate:chain/types@1.1.0').Charge;
  export type StoreContext = import('pixgate:chain/types@1.1.0').StoreContext;
  export type StepEnv = import('pixgate:chain/types@1.1.0').StepEnv;
  export type PolicyDecision = import('pixgate:chain/types@1.1.0').PolicyDecision;
  export type StepError = import('pixgate:chain/types@1.1.0').StepError;
  export interface PolicyInput {
    charge: Charge,
    store: StoreContext,
    env: StepEnv,
  }
}
