/// <reference path="./interfaces/pixgate-chain-economics.d.ts" />
/// <reference path="./interfaces/pixgate-chain-host-log.d.ts" />
/// <reference path="./interfaces/pixgate-chain-types.d.ts" />
declare module 'pixgate:chain/economics-step@1.0.0' {
  export type * as PixgateChainHostLog100 from 'pixgate:chain/host-log@1.0.0'; // import pixgate:chain/host-log@1.0.0
  export type * as PixgateChainTypes100 from 'pixgate:chain/types@1.0.0'; // import pixgate:chain/types@1.0.0
  export * as economics from 'pixgate:chain/economics@1.0.0'; // export pixgate:chain/economics@1.0.0
}
