import { describe, expect, it } from 'vitest';
import { AddressKind, classifyAddress, refusal, v6Groups } from './address-policy.js';

const cases: Array<[string, AddressKind]> = [
  // IPv4, at the edges of each range
  ['127.0.0.1', AddressKind.loopback],
  ['127.255.255.254', AddressKind.loopback],
  ['10.0.0.0', AddressKind.private],
  ['10.255.255.255', AddressKind.private],
  ['172.16.0.1', AddressKind.private],
  ['172.31.255.255', AddressKind.private],
  ['172.15.255.255', AddressKind.public],
  ['172.32.0.0', AddressKind.public],
  ['192.168.0.1', AddressKind.private],
  ['192.169.0.1', AddressKind.public],
  ['169.254.0.1', AddressKind.linkLocal],
  ['169.254.169.254', AddressKind.metadata],
  ['169.255.0.1', AddressKind.public],
  ['100.64.0.0', AddressKind.sharedCgnat],
  ['100.127.255.255', AddressKind.sharedCgnat],
  ['100.63.255.255', AddressKind.public],
  ['100.128.0.0', AddressKind.public],
  ['0.0.0.0', AddressKind.thisNetwork],
  ['0.255.255.255', AddressKind.thisNetwork],
  ['224.0.0.1', AddressKind.multicast],
  ['239.255.255.250', AddressKind.multicast],
  ['240.0.0.1', AddressKind.reserved],
  ['255.255.255.255', AddressKind.reserved],
  ['8.8.8.8', AddressKind.public],
  ['1.1.1.1', AddressKind.public],
  ['223.255.255.255', AddressKind.public],
  // IPv6
  ['::1', AddressKind.loopback],
  ['0:0:0:0:0:0:0:1', AddressKind.loopback],
  ['::', AddressKind.unspecified],
  ['fc00::1', AddressKind.uniqueLocal],
  ['fdff:ffff::1', AddressKind.uniqueLocal],
  ['fd00:ec2::254', AddressKind.uniqueLocal],
  ['fe80::1', AddressKind.linkLocal],
  ['fe80::1%eth0', AddressKind.linkLocal],
  ['febf::1', AddressKind.linkLocal],
  ['fec0::1', AddressKind.private],
  ['ff02::1', AddressKind.multicast],
  ['2001:4860:4860::8888', AddressKind.public],
  ['2606:4700:4700::1111', AddressKind.public],
  ['fbff::1', AddressKind.public],
  // IPv4 inside IPv6: judged as the IPv4 address
  ['::ffff:127.0.0.1', AddressKind.loopback],
  ['::ffff:7f00:1', AddressKind.loopback],
  ['0:0:0:0:0:ffff:a00:1', AddressKind.private],
  ['::ffff:169.254.169.254', AddressKind.metadata],
  ['::ffff:192.168.1.1', AddressKind.private],
  ['::ffff:100.64.1.1', AddressKind.sharedCgnat],
  ['::ffff:0.0.0.0', AddressKind.thisNetwork],
  ['::ffff:8.8.8.8', AddressKind.public],
  ['::127.0.0.1', AddressKind.loopback],
  ['::10.0.0.1', AddressKind.private],
  ['64:ff9b::a9fe:a9fe', AddressKind.metadata],
  ['64:ff9b::10.0.0.1', AddressKind.private],
  ['64:ff9b::8.8.8.8', AddressKind.public],
  // not an address at all
  ['example.com', AddressKind.invalid],
  ['1.2.3', AddressKind.invalid],
  ['', AddressKind.invalid],
];

describe('classifyAddress', () => {
  it.each(cases)('%s is %s', (address, kind) => {
    expect(classifyAddress(address).kind).toBe(kind);
  });

  it('names the range, and the IPv6 form an IPv4 address came in', () => {
    expect(classifyAddress('10.1.1.1').range).toBe('10.0.0.0/8');
    expect(classifyAddress('::ffff:127.0.0.1').range).toBe('127.0.0.0/8 as ::ffff:0:0/96');
    expect(classifyAddress('fe80::1').range).toBe('fe80::/10');
  });
});

describe('refusal', () => {
  it('refuses every non-public address by default', () => {
    for (const [address, kind] of cases) {
      expect(refusal(address, false) === undefined, address).toBe(kind === AddressKind.public);
    }
  });

  it('with allowPrivate, lets loopback, private, link-local, metadata, CGNAT and ULA through', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      'fd00::1',
      'fe80::1',
      '::1',
      '::ffff:192.168.0.1',
    ]) {
      expect(refusal(a, true), a).toBeUndefined();
    }
  });

  it('never lets this-network, unspecified, multicast, reserved or invalid addresses through', () => {
    for (const a of [
      '0.0.0.0',
      '::',
      '224.0.0.1',
      'ff02::1',
      '255.255.255.255',
      '::ffff:0.0.0.0',
      'nope',
    ]) {
      expect(refusal(a, true), a).toBeDefined();
    }
  });
});

describe('v6Groups', () => {
  it('expands compressed forms and embedded IPv4', () => {
    expect(v6Groups('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(v6Groups('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(v6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(v6Groups('1.2.3.4')).toBeUndefined();
  });
});
