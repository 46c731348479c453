import { describe, expect, it } from 'vitest';
import { heifKind } from './sniff.js';

/** An ftyp box: size, "ftyp", major brand, minor version, compatible brands. */
function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const size = 16 + 4 * compatible.length;
  const head = Buffer.alloc(16);
  head.writeUInt32BE(size, 0);
  head.write('ftyp', 4, 'latin1');
  head.write(major, 8, 'latin1');
  return Buffer.concat([
    head,
    ...compatible.map((b) => Buffer.from(b, 'latin1')),
    Buffer.from('....meta'),
  ]);
}

describe('heifKind', () => {
  it('recognises HEIC by its major brand', () => {
    for (const b of ['heic', 'heix', 'hevc', 'heim', 'heis', 'hevx'])
      expect(heifKind(ftyp(b))).toBe('heic');
  });

  it('recognises AVIF, which this build decodes', () => {
    expect(heifKind(ftyp('avif', 'mif1', 'miaf'))).toBe('avif');
    expect(heifKind(ftyp('avis'))).toBe('avif');
  });

  it('reads the compatible brands under a generic major brand', () => {
    expect(heifKind(ftyp('mif1', 'heic'))).toBe('heic');
    expect(heifKind(ftyp('mif1', 'miaf', 'avif'))).toBe('avif');
    expect(heifKind(ftyp('msf1', 'hevc'))).toBe('heic');
    expect(heifKind(ftyp('mif1', 'miaf'))).toBe('heif');
  });

  it('says other for non-HEIF files and short input', () => {
    expect(heifKind(ftyp('isom', 'mp41'))).toBe('other');
    expect(heifKind(Buffer.from('\x89PNG\r\n\x1a\n0000000000', 'latin1'))).toBe('other');
    expect(heifKind(Buffer.from([0xff, 0xd8, 0xff]))).toBe('other');
    expect(heifKind(new Uint8Array(0))).toBe('other');
  });

  it('does not read brands past the box size', () => {
    const b = Buffer.from(ftyp('mif1', 'miaf', 'heic'));
    b.writeUInt32BE(20, 0); // the box ends after "miaf": "heic" belongs to the next box
    expect(heifKind(b)).toBe('heif');
  });
});
