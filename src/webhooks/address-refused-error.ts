import { toAddressRange } from './is-public-address.ts';

const rangePhrases: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  invalid: 'not a usable IP address',
};

/** Why a webhook may not reach this address ("127.0.0.1 is a loopback address"); undefined if it may. */
export function findAddressRefusal(address: string): string | undefined {
  const range = toAddressRange(address);
  if (range === 'public') return undefined;
  return `${address} is ${rangePhrases[range] ?? `a special-purpose address (${range})`}`;
}

/** A connection refused before it was made, because the target is, or resolved to, a non-public address. */
export class AddressRefusedError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS_REFUSED';
  readonly reason: string;

  constructor(reason: string) {
    super(`refused: ${reason}`);
    this.name = 'AddressRefusedError';
    this.reason = reason;
  }
}
