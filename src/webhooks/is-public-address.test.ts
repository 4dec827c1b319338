import assert from 'node:assert/strict';
import { it } from 'node:test';
import { findAddressRefusal } from './address-refused-error.ts';
import { isPublicAddress, toAddressRange } from './is-public-address.ts';

it('finds public unicast addresses public, the edges of special ranges included', () => {
  const publicAddresses = [
    '1.1.1.1',
    '8.8.8.8',
    '11.0.0.0',
    '9.255.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8', // IPv4-mapped: Node connects to 8.8.8.8
    '64:ff9b::808:808', // NAT64 well-known prefix around 8.8.8.8
    '2002:808:808::1', // 6to4 around 8.8.8.8
  ];
  for (const address of publicAddresses) assert.equal(toAddressRange(address), 'public', address);
});

it('refuses every loopback, private, link-local, CGNAT, reserved and translated-private address', () => {
  const cases: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'], // the cloud metadata service
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.1', 'reserved'],
    ['203.0.113.1', 'reserved'],
    ['192.175.48.1', 'as112'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'], // the AWS metadata service over IPv6
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:0:7f00:1', 'loopback'], // SIIT, RFC 6145
    ['::127.0.0.1', 'reserved'], // IPv4-compatible, deprecated: judged by its bits, not as mapped
    ['::8.8.8.8', 'reserved'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b:1::808:808', 'rfc6052'], // NAT64 local-use prefix
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a9fe:a9fe::1', 'linkLocal'],
    ['2001::1', 'teredo'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'discard'],
    ['4000::1', 'reserved'], // outside 2000::/3, not yet allocated
    ['fe80::1%eth0', 'invalid'],
    ['localhost', 'invalid'],
    ['1.2.3', 'invalid'],
    ['', 'invalid'],
  ];
  for (const [address, range] of cases) {
    assert.equal(toAddressRange(address), range, address);
    assert.equal(isPublicAddress(address), false, address);
  }
});

it('names the range in the refusal', () => {
  assert.equal(findAddressRefusal('127.0.0.1'), '127.0.0.1 is a loopback address');
  assert.equal(findAddressRefusal('169.254.169.254'), '169.254.169.254 is a link-local address');
  assert.equal(findAddressRefusal('0.0.0.0'), '0.0.0.0 is an unspecified address');
  assert.equal(findAddressRefusal('2001::1'), '2001::1 is a special-purpose address (teredo)');
  assert.equal(findAddressRefusal('8.8.8.8'), undefined);
});
