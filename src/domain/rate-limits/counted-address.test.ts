import assert from 'node:assert/strict';
import { it } from 'node:test';
import { toCountedAddress } from './counted-address.ts';

it('counts IPv4 addresses whole and IPv6 addresses by their /64', () => {
  const cases: Array<[string, string]> = [
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['::1', '::/64'],
    ['not an address', 'not an address'],
  ];
  for (const [address, counted] of cases) assert.equal(toCountedAddress(address), counted, address);
});
