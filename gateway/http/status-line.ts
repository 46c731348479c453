// HTTP status lines for uWS writeStatus, which wants "413 Payload Too Large" rather than a number.
import { STATUS_CODES } from 'node:http';

const lines = new Map<number, string>();

/** "<code> <reason>", built once per code: the reason phrase is not optional on the wire. */
export function statusLine(status: number): string {
  let line = lines.get(status);
  if (line === undefined) {
    line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
    lines.set(status, line);
  }
  return line;
}
