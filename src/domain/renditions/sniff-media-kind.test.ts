import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sniffMediaKind, sniffVideoContainer } from './sniff-media-kind.ts';

/** An `ftyp` box with these brands, then a few bytes of the next box. */
const ftyp = (major: string, ...compatible: string[]) => {
  const brands = [major, '\0\0\0\0', ...compatible].join('');
  const box = Buffer.concat([Buffer.alloc(4), Buffer.from(`ftyp${brands}`, 'latin1')]);
  box.writeUInt32BE(box.length, 0);
  return Buffer.concat([box, Buffer.from('\0\0\0\x10meta', 'latin1')]);
};
const atom = (type: string) => Buffer.from(`\0\0\0\x20${type}${'\0'.repeat(24)}`, 'latin1');

const cases: { name: string; prefix: Buffer; kind: string | undefined; container?: string }[] = [
  { name: 'iPhone HEIC', prefix: ftyp('heic', 'mif1', 'heic', 'miaf'), kind: 'heif' },
  { name: 'HEIF with the generic brand first', prefix: ftyp('mif1', 'heic', 'miaf'), kind: 'heif' },
  { name: 'HEIF sequence', prefix: ftyp('msf1', 'hevc', 'iso8'), kind: 'heif' },
  { name: 'HEIC burst', prefix: ftyp('heis', 'mif1'), kind: 'heif' },
  { name: 'AVIF (sharp reads it)', prefix: ftyp('avif', 'mif1', 'miaf'), kind: undefined },
  { name: 'AVIF behind mif1', prefix: ftyp('mif1', 'avif', 'miaf'), kind: undefined },
  { name: 'AVIF sequence', prefix: ftyp('avis', 'msf1', 'iso8'), kind: undefined },
  {
    name: 'H.264 MP4',
    prefix: ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41'),
    kind: 'video',
    container: 'mov',
  },
  { name: 'iPhone MOV', prefix: ftyp('qt  ', 'qt  '), kind: 'video', container: 'mov' },
  {
    name: 'MP4 with a rare major brand',
    prefix: ftyp('XYZW', 'mp42', 'isom'),
    kind: 'video',
    container: 'mov',
  },
  { name: 'M4A audio', prefix: ftyp('M4A ', 'M4A '), kind: undefined },
  { name: 'QuickTime without ftyp', prefix: atom('moov'), kind: 'video', container: 'mov' },
  { name: 'QuickTime starting with wide', prefix: atom('wide'), kind: 'video', container: 'mov' },
  {
    name: 'WebM',
    prefix: Buffer.from('1a45dfa39f4286810142f7810142f2810442f381084282847765626d', 'hex'),
    kind: 'video',
    container: 'matroska',
  },
  { name: 'JPEG', prefix: Buffer.from('ffd8ffe000104a464946', 'hex'), kind: undefined },
  { name: 'PNG', prefix: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), kind: undefined },
  { name: 'nothing', prefix: Buffer.alloc(0), kind: undefined },
  { name: 'a cut ftyp', prefix: ftyp('heic').subarray(0, 10), kind: undefined },
];

for (const { name, prefix, kind, container } of cases)
  it(`${name}: ${kind ?? 'not phone media'}`, () => {
    assert.equal(sniffMediaKind(prefix), kind);
    assert.equal(sniffVideoContainer(prefix), container);
  });
