// A local SMTP relay for tests (smtp-server): it takes what postie sends and records each message
// with its envelope and parsed headers and text. `refuse` makes it reject chosen recipients at
// RCPT TO, the way a real relay answers an address it will not take.
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface RelayedMail {
  mailFrom: string;
  rcptTo: string[];
  from: string;
  fromName: string;
  to: string[];
  subject: string;
  text: string;
  headers: Map<string, unknown>;
  raw: string;
}

export interface SmtpRelay {
  readonly port: number;
  /** smtp://127.0.0.1:<port>, for SMTP_RELAY_URL. */
  readonly url: string;
  readonly received: RelayedMail[];
  /** Recipients (lowercase) answered with 550 at RCPT TO. */
  readonly refuse: Set<string>;
  /** Resolves once `n` messages in total have been received. */
  waitFor(n: number, timeoutMs?: number): Promise<RelayedMail[]>;
  close(): Promise<void>;
}

function addresses(a: AddressObject | AddressObject[] | undefined) {
  return (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value);
}

export async function startSmtpRelay(): Promise<SmtpRelay> {
  const received: RelayedMail[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (refuse.has(address.address.toLowerCase())) {
        cb(Object.assign(new Error('5.1.1 mailbox unavailable'), { responseCode: 550 }));
        return;
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (p) => {
            const from = addresses(p.from)[0];
            received.push({
              mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              rcptTo: session.envelope.rcptTo.map((r) => r.address),
              from: from?.address ?? '',
              fromName: from?.name ?? '',
              to: addresses(p.to).map((a) => a.address ?? ''),
              subject: p.subject ?? '',
              text: p.text ?? '',
              headers: p.headers,
              raw: raw.toString('utf8'),
            });
            cb(null, `queued as relay-${received.length}`);
          },
          (err: unknown) => cb(err as Error)
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    async waitFor(n, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`relay got ${received.length} of ${n} messages`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
