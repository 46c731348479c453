// Outbound mail through the configured SMTP relay (nodemailer). One transport per relay URL,
// kept for the process; a message goes out on its own connection, so nothing lingers between
// sends and stop() has only the cache to drop.
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';

export interface OutboundMail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  /** Our own headers (agent and send ids), for tracing a message back to its record. */
  headers: Record<string, string>;
}

export interface Relayed {
  messageId: string;
  response: string;
}

const transports = new Map<string, Transporter<SMTPTransport.SentMessageInfo>>();

function transportFor(relayUrl: string): Transporter<SMTPTransport.SentMessageInfo> {
  let t = transports.get(relayUrl);
  if (!t) {
    const url = new URL(relayUrl);
    t = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
      secure: url.protocol === 'smtps:',
      ...(url.username
        ? {
            auth: {
              user: decodeURIComponent(url.username),
              pass: decodeURIComponent(url.password),
            },
          }
        : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    transports.set(relayUrl, t);
  }
  return t;
}

/** Hand one message to the relay; rejects with the relay's reason when it is refused. */
export async function relay(relayUrl: string, m: OutboundMail): Promise<Relayed> {
  const info = await transportFor(relayUrl).sendMail({
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    headers: m.headers,
    // The envelope sender is the agent's own address, so bounces come back to the inbound
    // listener, which reads them as reports (reports.ts) and suppresses hard-bounced addresses.
    envelope: { from: m.from.address, to: [m.to] },
  });
  if (info.rejected.length > 0) {
    throw new Error(`the relay rejected ${m.to}: ${info.response}`);
  }
  return { messageId: info.messageId, response: info.response };
}

export function closeTransports(): void {
  for (const t of transports.values()) t.close();
  transports.clear();
}
