import { resources, type Resources } from "./generated.js";
import { Transport, type ClientOptions } from "./transport.js";

/**
 * pixgate's merchant API.
 *
 * ```ts
 * const pixgate = new Pixgate({ apiKey: process.env.PIXGATE_API_KEY!, baseUrl: "https://pix.example.com/api/v1" });
 * const intent = await pixgate.payments.charge({ store: "padaria-web", amount: 42.5, reference: "order-1042",
 *   payer: { name: "Ana Souza", taxId: "529.982.247-25" } });
 * for await (const payment of pixgate.payments.list({ status: "SUCCEEDED" })) { ... }
 * ```
 */
export class Pixgate {
  readonly payments: Resources["payments"];
  readonly refunds: Resources["refunds"];
  readonly mandates: Resources["mandates"];
  readonly chargeBatches: Resources["chargeBatches"];
  readonly settlements: Resources["settlements"];
  readonly webhookEndpoints: Resources["webhookEndpoints"];
  /** The transport: its `sleep` may be replaced (tests), its `baseUrl` read. */
  readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    const all = resources(this.transport);
    this.payments = all.payments;
    this.refunds = all.refunds;
    this.mandates = all.mandates;
    this.chargeBatches = all.chargeBatches;
    this.settlements = all.settlements;
    this.webhookEndpoints = all.webhookEndpoints;
  }

  /** Never the key. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.transport.baseUrl };
  }
}
