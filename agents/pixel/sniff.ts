// What an image is, from its first bytes: enough to refuse, with a message that says why, the
// inputs this build of sharp cannot decode (HEIC, whose HEVC codec libvips is shipped without),
// before libvips answers with its own less helpful error.

/** ISO BMFF brands of HEVC-coded HEIF (HEIC) images and sequences. */
const HEVC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
/** Brands of AV1-coded HEIF (AVIF), which this build decodes. */
const AV1_BRANDS = new Set(['avif', 'avis']);

export type Container = 'heic' | 'avif' | 'heif' | 'other';

/**
 * The HEIF family member `bytes` holds, from its `ftyp` box: `heic` (HEVC), `avif` (AV1), `heif`
 * (a generic HEIF brand naming neither codec), or `other` for anything that is not HEIF.
 */
export function heifKind(bytes: Uint8Array): Container {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return 'other';
  const boxSize = readUint32(bytes, 0);
  const end = Math.min(bytes.length, boxSize >= 16 ? boxSize : 16);
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, at + 4));
  // The major brand decides; compatible brands decide only for a generic major brand (mif1, msf1).
  const major = brands[0]!;
  if (AV1_BRANDS.has(major)) return 'avif';
  if (HEVC_BRANDS.has(major)) return 'heic';
  if (brands.some((b) => AV1_BRANDS.has(b))) return 'avif';
  if (brands.some((b) => HEVC_BRANDS.has(b))) return 'heic';
  return major === 'mif1' || major === 'msf1' ? 'heif' : 'other';
}

export const HEIC_UNSUPPORTED =
  'HEIC (HEVC-coded HEIF) images are not supported by this build: its image library has no HEVC ' +
  'decoder. Convert the image to JPEG, PNG, WebP or AVIF first (AVIF-coded HEIF is supported).';

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

function readUint32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0
  );
}
