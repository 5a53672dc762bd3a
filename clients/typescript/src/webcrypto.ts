/** Web Crypto: the global one (browsers, Node 19+), else Node 18's from `node:crypto`. */
export async function webCrypto(): Promise<Crypto> {
  const global = (globalThis as { crypto?: Crypto }).crypto;
  if (global?.subtle) return global;
  // A specifier in a variable: bundlers for browsers leave it alone (browsers have the global).
  const nodeCrypto = "node:crypto";
  const module = (await import(nodeCrypto)) as { webcrypto: Crypto };
  return module.webcrypto;
}
