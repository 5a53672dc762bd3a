/// <reference path="./interfaces/pixgate-chain-host-log.d.ts" />
/// <reference path="./interfaces/pixgate-chain-provider-selection.d.ts" />
/// <reference path="./interfaces/pixgate-chain-types.d.ts" />
declare module 'pixgate:chain/provider-step@1.1.0' {
  export type * as PixgateChainHostLog110 from 'pixgate:chain/host-log@1.1.0'; // import pixgate:chain/host-log@1.1.0
  export type * as PixgateChainTypes110 from 'pixgate:chain/types@1.1.0'; // import pixgate:chain/types@1.1.0
  export * as providerSelection from 'pixgate:chain/provider-selection@1.1.0'; // export pixgate:chain/provider-selection@1.1.0
}
