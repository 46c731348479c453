// JSON-RPC calls must be sent as application/json (interface spec, Endpoints). JSON is UTF-8 by
// definition (RFC 8259 §8.1), so the only charset accepted besides none is utf-8.

/** True for `application/json`, optionally with `charset=utf-8` (any case, any spacing). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const semi = value.indexOf(';');
  const type = (semi < 0 ? value : value.slice(0, semi)).trim().toLowerCase();
  if (type !== 'application/json') return false;
  if (semi < 0) return true;
  for (const param of value.slice(semi + 1).split(';')) {
    const eq = param.indexOf('=');
    const name = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
    if (name !== 'charset') continue;
    const charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"|"$/g, '')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return false;
  }
  return true;
}
