import assert from 'node:assert/strict';
import { it } from 'node:test';
import { toTrustedProxies } from './trusted-proxies.ts';

it('reads --trust-proxy: bare is one hop, a number is hops, else proxy addresses', () => {
  const cases: Array<[string | boolean, ReturnType<typeof toTrustedProxies>]> = [
    [true, { hops: 1 }],
    [false, false],
    ['true', { hops: 1 }],
    ['on', { hops: 1 }],
    ['off', false],
    ['', false],
    ['0', false],
    ['2', { hops: 2 }],
    ['10', { hops: 10 }],
    ['11', undefined],
    ['10.0.0.5', { addresses: ['10.0.0.5'] }],
    ['10.0.0.5, 10.1.0.0/16,loopback', { addresses: ['10.0.0.5', '10.1.0.0/16', 'loopback'] }],
    ['fd00::/8,::1', { addresses: ['fd00::/8', '::1'] }],
    ['10.0.0.0/33', undefined],
    ['10.0.0.0/8/8', undefined],
    ['proxy.example.com', undefined],
    ['10.0.0.5,', undefined],
    ['-1', undefined],
  ];
  for (const [raw, expected] of cases) assert.deepEqual(toTrustedProxies(raw), expected, String(raw));
});
