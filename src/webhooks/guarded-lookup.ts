import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { AddressRefusedError, findAddressRefusal } from './address-refused-error.ts';

/**
 * A `lookup` for http.request that resolves every address of the host and fails the connection
 * unless all of them are public. Security: the check runs on the very addresses the socket will
 * connect to, so a DNS answer that changes between a check and the connect (rebinding) cannot
 * slip through; refusing when any address is private stops a host that mixes public and private
 * answers. Node skips `lookup` for a literal IP host: those are checked before the request.
 */
export function guardLookup(resolve: LookupFunction = dns.lookup as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, resolved) => {
      if (error) return callback(error, '');
      const addresses =
        typeof resolved === 'string' ? [{ address: resolved, family: isIP(resolved) }] : resolved;
      const refusal = addresses.map((entry) => findAddressRefusal(entry.address)).find(Boolean);
      if (refusal) return callback(new AddressRefusedError(refusal), '');
      const [first] = addresses;
      if (!first) {
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      }
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}
