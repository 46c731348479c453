// Delivery status notifications (RFC 3464) and abuse feedback reports (RFC 5965, ARF) among
// inbound mail. Both are multipart/report messages; their machine-readable part is read here
// from the raw message, since a general mail parser folds message/delivery-status into the text.

export type Report =
  | {
      kind: 'bounce';
      /** Recipients with Action: failed and a permanent (5.x.x) status: to be suppressed. */
      hard: BouncedRecipient[];
      /** Every other recipient the report names (delayed, 4.x.x, relayed…): informational. */
      other: BouncedRecipient[];
    }
  | { kind: 'complaint'; feedbackType: string; addresses: string[] };

export interface BouncedRecipient {
  address: string;
  action: string;
  status: string;
  diagnostic: string;
}

/** The report a raw message carries, or undefined for ordinary mail. */
export function classifyReport(raw: string): Report | undefined {
  const top = splitEntity(raw);
  const ct = contentType(top.headers);
  if (ct.type !== 'multipart/report' || !ct.params.boundary) return undefined;
  const reportType = (ct.params['report-type'] ?? '').toLowerCase();
  const parts = splitMultipart(top.body, ct.params.boundary).map(splitEntity);
  if (reportType === 'delivery-status') {
    const status = parts.find((p) =>
      ['message/delivery-status', 'message/global-delivery-status'].includes(
        contentType(p.headers).type
      )
    );
    return status ? deliveryStatus(decodeBody(status)) : undefined;
  }
  if (reportType === 'feedback-report') {
    const fb = parts.find((p) => contentType(p.headers).type === 'message/feedback-report');
    if (!fb) return undefined;
    const fields = fieldMap(unfold(decodeBody(fb)));
    let addresses = (fields.get('original-rcpt-to') ?? []).flatMap(mailboxes);
    if (addresses.length === 0) {
      // RFC 5965 §3.2: Original-Rcpt-To is optional; the complainer is then the enclosed
      // original message's recipient.
      const original = parts.find((p) =>
        ['message/rfc822', 'text/rfc822-headers'].includes(contentType(p.headers).type)
      );
      if (original) {
        const headers = fieldMap(unfold(splitEntity(decodeBody(original)).headerText));
        addresses = (headers.get('to') ?? []).flatMap(mailboxes);
      }
    }
    return {
      kind: 'complaint',
      feedbackType: (fields.get('feedback-type')?.[0] ?? 'abuse').toLowerCase(),
      addresses: [...new Set(addresses)],
    };
  }
  return undefined;
}

function deliveryStatus(text: string): Report {
  // A per-message block, then one block per recipient, separated by blank lines.
  const blocks = text
    .replace(/\r\n/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((b) => fieldMap(unfold(b)))
    .slice(1);
  const hard: BouncedRecipient[] = [];
  const other: BouncedRecipient[] = [];
  for (const f of blocks) {
    const recipient = f.get('final-recipient')?.[0] ?? f.get('original-recipient')?.[0];
    if (!recipient) continue;
    const address = mailboxes(recipient.replace(/^[^;]*;/, ''))[0];
    if (!address) continue;
    const r: BouncedRecipient = {
      address,
      action: (f.get('action')?.[0] ?? '').trim().toLowerCase(),
      status: (f.get('status')?.[0] ?? '').trim().split(/\s/)[0] ?? '',
      diagnostic: (f.get('diagnostic-code')?.[0] ?? '').trim(),
    };
    (r.action === 'failed' && /^5\.\d{1,3}\.\d{1,3}$/.test(r.status) ? hard : other).push(r);
  }
  return { kind: 'bounce', hard, other };
}

interface Entity {
  headerText: string;
  headers: Map<string, string[]>;
  body: string;
}

function splitEntity(raw: string): Entity {
  const text = raw.replace(/\r\n/g, '\n');
  const end = text.search(/\n\n/);
  const headerText = end < 0 ? text : text.slice(0, end);
  const body = end < 0 ? '' : text.slice(end + 2);
  return { headerText, headers: fieldMap(unfold(headerText)), body };
}

function unfold(block: string): string[] {
  const lines: string[] = [];
  for (const line of block.replace(/\r\n/g, '\n').split('\n')) {
    if (/^[ \t]/.test(line) && lines.length > 0) lines[lines.length - 1] += ' ' + line.trim();
    else if (line.trim() !== '') lines.push(line);
  }
  return lines;
}

function fieldMap(lines: string[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    m.set(name, [...(m.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return m;
}

function contentType(headers: Map<string, string[]>): {
  type: string;
  params: Record<string, string>;
} {
  const value = headers.get('content-type')?.[0] ?? 'text/plain';
  const [type = '', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const m of rest.join(';').matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|([^;\s]+))/g)) {
    params[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? '';
  }
  return { type: type.trim().toLowerCase(), params };
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  let current: string[] | undefined;
  for (const line of body.split('\n')) {
    const t = line.trimEnd();
    if (t === `--${boundary}--`) break;
    if (t === `--${boundary}`) {
      if (current) parts.push(current.join('\n'));
      current = [];
      continue;
    }
    current?.push(line);
  }
  if (current) parts.push(current.join('\n'));
  return parts;
}

function decodeBody(e: Entity): string {
  const cte = (e.headers.get('content-transfer-encoding')?.[0] ?? '').trim().toLowerCase();
  if (cte === 'base64') return Buffer.from(e.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (cte === 'quoted-printable') {
    return e.body
      .replace(/=\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  return e.body;
}

/** The plain addresses in a header value or an address list, lowercased. */
function mailboxes(value: string): string[] {
  const found = value.match(/[^\s<>,;:"()]+@[^\s<>,;:"()]+/g) ?? [];
  return found.map((a) => a.toLowerCase().replace(/\.$/, ''));
}
