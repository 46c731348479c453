// The credential of an `Authorization: Bearer <token>` header (RFC 6750 §2.1; the scheme is
// case-insensitive). Parsed by hand: it runs on every request, and a regex match allocates.

const SPACE = 0x20;
const TAB = 0x09;
const SCHEME = 'bearer';

/** The token of a Bearer header, or undefined when the header is absent or another shape. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const len = header.length;
  if (len <= SCHEME.length) return undefined;
  for (let i = 0; i < SCHEME.length; i++) {
    // ASCII letters only: OR-ing 0x20 lower-cases them.
    if ((header.charCodeAt(i) | 0x20) !== SCHEME.charCodeAt(i)) return undefined;
  }
  let start = SCHEME.length;
  if (!isBlank(header.charCodeAt(start))) return undefined;
  while (start < len && isBlank(header.charCodeAt(start))) start++;
  let end = len;
  while (end > start && isBlank(header.charCodeAt(end - 1))) end--;
  if (start === end) return undefined;
  for (let i = start; i < end; i++) {
    const c = header.charCodeAt(i);
    if (c <= SPACE || c === 0x7f) return undefined; // one token: no inner blanks or controls
  }
  return header.slice(start, end);
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}
