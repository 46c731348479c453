// The hub's inbound SMTP listener for its mail domain (smtp-server + mailparser). Mail to an
// agent's address (current, or retired within 30 days; +tags kept) is stored in the agent's
// inbox and handed to the agent as an A2A message from agent-postie-official. Recipients off the
// domain are refused (no open relay), unknown addresses at RCPT TO; suppressed senders are refused.
// Delivery status notifications and feedback reports add hard-bounced and complaining addresses
// to the global suppression list.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerDataStream,
  type SMTPServerSession,
} from 'smtp-server';
import { OFFICIAL_TENANT, type Db } from '../../infra/db/index.js';
import type { Config } from '../../runtime/config/index.js';
import type { Logger } from '../../runtime/log/index.js';
import type { Message } from '../../runtime/protocol/index.js';
import { parseRecipient } from './address.js';
import { inboundData } from './render.js';
import { classifyReport, type Report } from './reports.js';
import {
  addressOwner,
  globallySuppressed,
  insertInbound,
  newId,
  noteInboundDelivery,
  suppressGlobally,
  suppressionsFor,
  type AddressOwner,
  type InboundMessage,
  type Owner,
} from './store.js';

export const POSTIE_AGENT_ID = 'agent-postie-official';
/** Largest message accepted (the SIZE the listener announces). */
export const MAX_INBOUND_BYTES = 10 * 1024 * 1024;
/** Longest body kept in the inbox and sent to the agent. */
export const MAX_BODY_CHARS = 262_144;
const MAX_RECIPIENTS = 50;
/** Role mailboxes every mail domain takes (RFC 5321 §4.5.1, RFC 2142); they receive reports. */
const ROLE_MAILBOXES = new Set(['postmaster', 'abuse']);

/** The part of the hub's TaskService the listener uses to hand mail to agents. */
export interface InboundTasks {
  send(
    principal: { kind: 'agent'; agentId: string; tenantId: string },
    req: { message: Message; agentId: string; blocking: boolean }
  ): Promise<{ id: string }>;
}

export interface InboundDeps {
  sql: Db;
  tasks: InboundTasks;
  mail: Config['mail'];
  log: Logger;
  now?: () => number;
}

export interface InboundMail {
  /** The port the listener is bound to; undefined when it could not bind (inbound mail is off). */
  readonly port: number | undefined;
  stop(): Promise<void>;
}

interface Rcpt {
  address: string;
  tag: string | undefined;
  /** undefined: a role mailbox (postmaster@, abuse@), which takes reports only. */
  owner: AddressOwner | undefined;
}

type SmtpError = Error & { responseCode: number };

function smtpError(code: number, text: string): SmtpError {
  return Object.assign(new Error(text), { responseCode: code });
}

export async function startInboundMail(d: InboundDeps): Promise<InboundMail> {
  const now = d.now ?? Date.now;
  const domain = d.mail.domain.toLowerCase();
  const log = d.log.child({ component: 'postie-inbound' });
  /** Accepted recipients of each session's current transaction. */
  const rcpts = new Map<string, Rcpt[]>();

  const onMailFrom = async (from: SMTPServerAddress, session: SMTPServerSession) => {
    rcpts.set(session.id, []);
    const sender = from.address.toLowerCase();
    if (sender === '') return; // a bounce (null reverse-path)
    if (await globallySuppressed(d.sql, sender)) {
      throw smtpError(550, `5.7.1 <${sender}> is suppressed here; mail from it is not accepted`);
    }
  };

  const onRcptTo = async (to: SMTPServerAddress, session: SMTPServerSession) => {
    const list = rcpts.get(session.id) ?? [];
    if (list.length >= MAX_RECIPIENTS) throw smtpError(452, '4.5.3 too many recipients');
    const r = parseRecipient(to.address, domain);
    if (!r) {
      throw smtpError(550, `5.7.1 relaying denied: this server takes mail for @${domain} only`);
    }
    if (ROLE_MAILBOXES.has(r.localPart)) {
      list.push({ address: r.address, tag: r.tag, owner: undefined });
      rcpts.set(session.id, list);
      return;
    }
    const owner = await addressOwner(d.sql, r.localPart, now());
    // Official agents act for whoever messages them: a mail must never make one act for postie.
    if (!owner || owner.transport === 'official') {
      throw smtpError(550, `5.1.1 <${r.address}>: no such mailbox`);
    }
    const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    if (sender !== '') {
      const entries = await suppressionsFor(d.sql, owner.tenantId, sender);
      if (entries.length > 0) {
        throw smtpError(550, `5.7.1 <${sender}> is suppressed by the recipient; not accepted`);
      }
    }
    list.push({ address: r.address, tag: r.tag, owner });
    rcpts.set(session.id, list);
  };

  const onData = async (stream: SMTPServerDataStream, session: SMTPServerSession) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    if (stream.sizeExceeded) {
      throw smtpError(552, `5.3.4 message exceeds the ${MAX_INBOUND_BYTES} byte limit`);
    }
    const raw = Buffer.concat(chunks);
    const list = rcpts.get(session.id) ?? [];
    const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    await receive(raw, mailFrom.toLowerCase(), list);
  };

  const receive = async (raw: Buffer, mailFrom: string, list: Rcpt[]) => {
    const report = classifyReport(raw.toString('utf8'));
    if (report) await applyReport(report);
    const parsed = await simpleParser(raw, { skipImageLinks: true });
    const from = firstAddress(parsed.from);
    const agents = list.filter((r): r is Rcpt & { owner: AddressOwner } => r.owner !== undefined);
    if (!report) {
      if (agents.length === 0) {
        throw smtpError(550, '5.7.1 this mailbox takes delivery status and feedback reports only');
      }
      if (from.address !== '') {
        for (const r of agents) {
          const entries = await suppressionsFor(d.sql, r.owner.tenantId, from.address);
          if (entries.length > 0) {
            throw smtpError(550, `5.7.1 <${from.address}> is suppressed; not accepted`);
          }
        }
      }
    }
    for (const r of agents) {
      const owner: Owner = { tenantId: r.owner.tenantId, agentId: r.owner.agentId };
      const m: InboundMessage = {
        id: newId('in'),
        address: r.address,
        tag: r.tag ?? null,
        mailFrom,
        fromAddress: from.address,
        fromName: from.name,
        subject: (parsed.subject ?? '').slice(0, 998),
        body: (parsed.text ?? '').slice(0, MAX_BODY_CHARS),
        messageId: parsed.messageId ?? null,
        kind: report?.kind ?? 'mail',
        size: raw.length,
        taskId: null,
        deliveryError: null,
        receivedAt: new Date(now()),
        readAt: null,
      };
      await insertInbound(d.sql, owner, m);
      await deliver(owner, m);
    }
  };

  const applyReport = async (report: Report) => {
    const entries =
      report.kind === 'bounce'
        ? report.hard.map((h) => ({
            address: h.address,
            source: 'bounce' as const,
            reason: `hard bounce ${h.status}${h.diagnostic ? `: ${h.diagnostic}` : ''}`.slice(
              0,
              500
            ),
          }))
        : report.addresses.map((address) => ({
            address,
            source: 'complaint' as const,
            reason: `complaint (${report.feedbackType})`,
          }));
    for (const e of entries) {
      if (await suppressGlobally(d.sql, e.address, e.source, e.reason)) {
        log.info(
          { address: e.address, source: e.source },
          'address added to the global suppression list'
        );
      }
    }
  };

  /** Hand a stored mail to its agent; a refusal (queue full…) leaves it in the inbox only. */
  const deliver = async (owner: Owner, m: InboundMessage) => {
    const message: Message = {
      role: 'user',
      messageId: randomUUID(),
      parts: [
        { kind: 'text', text: notice(m) },
        {
          kind: 'data',
          mimeType: 'application/json',
          data: JSON.stringify({ type: 'email', ...inboundData(m, domain) }),
        },
      ],
      metadata: { postie: { inboundId: m.id } },
    };
    try {
      // Postie speaks as itself, an official agent: the hub's own tenant may message private agents.
      const task = await d.tasks.send(
        { kind: 'agent', agentId: POSTIE_AGENT_ID, tenantId: OFFICIAL_TENANT.id },
        { message, agentId: owner.agentId, blocking: false }
      );
      await noteInboundDelivery(d.sql, owner, m.id, { taskId: task.id });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      log.warn({ err, inboundId: m.id, agentId: owner.agentId }, 'inbound mail not handed over');
      await noteInboundDelivery(d.sql, owner, m.id, { error });
    }
  };

  const server = new SMTPServer({
    name: domain,
    banner: `Burrow mail for ${domain}`,
    size: MAX_INBOUND_BYTES,
    authOptional: true,
    // No certificate is configured for the listener, so it does not offer STARTTLS (a
    // self-signed one would only make strict clients fail); see README "Inbound".
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    socketTimeout: 60_000,
    closeTimeout: 5_000,
    onMailFrom(address, session, cb) {
      onMailFrom(address, session).then(
        () => cb(),
        (err: unknown) => cb(asSmtp(err))
      );
    },
    onRcptTo(address, session, cb) {
      onRcptTo(address, session).then(
        () => cb(),
        (err: unknown) => cb(asSmtp(err))
      );
    },
    onData(stream, session, cb) {
      onData(stream, session).then(
        () => cb(null, 'OK: delivered'),
        (err: unknown) => {
          stream.resume();
          cb(asSmtp(err));
        }
      );
    },
    onClose(session) {
      rcpts.delete(session.id);
    },
  });

  const asSmtp = (err: unknown): Error => {
    if (err instanceof Error && 'responseCode' in err) return err;
    log.error({ err }, 'inbound mail failed');
    return smtpError(451, '4.3.0 temporary failure; try again later');
  };

  server.on('error', (err) => log.warn({ err }, 'SMTP listener error'));
  try {
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(d.mail.listenPort, d.mail.listenHost, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    // An optional part never takes the hub down: the port is taken (or not ours to bind), so
    // inbound mail is off on this node, /health says so, and everything else runs.
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    log.warn(
      { err, setting: 'SMTP_LISTEN_PORT', port: d.mail.listenPort, host: d.mail.listenHost },
      `postie's inbound SMTP listener could not bind ${d.mail.listenHost}:${d.mail.listenPort} ` +
        `(${code}); inbound mail is off on this node. Set SMTP_LISTEN_PORT to a free port ` +
        `(0 picks one) to turn it on.`
    );
    return { port: undefined, stop: () => Promise.resolve() };
  }
  const port = (server.server.address() as AddressInfo).port;
  log.info({ port, host: d.mail.listenHost, domain }, 'inbound mail listening');
  return {
    port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function firstAddress(a: AddressObject | AddressObject[] | undefined): {
  address: string;
  name: string;
} {
  const first = (Array.isArray(a) ? a[0] : a)?.value[0];
  return { address: (first?.address ?? '').toLowerCase(), name: first?.name ?? '' };
}

/** The text part of the A2A message that brings a mail to its agent. */
function notice(m: InboundMessage): string {
  const head =
    m.kind === 'bounce'
      ? '📭 Delivery report'
      : m.kind === 'complaint'
        ? '⚠️ Complaint report'
        : '📨 New email';
  const from = m.fromName ? `${m.fromName} <${m.fromAddress}>` : m.fromAddress || m.mailFrom;
  return [
    `${head} for ${m.address}${m.tag ? ` (tag: ${m.tag})` : ''}`,
    `From: ${from || '(no sender)'}`,
    `Subject: ${m.subject || '(no subject)'}`,
    `Inbound id: ${m.id} (read it again with {"action":"read_inbound","id":"${m.id}"} to postie)`,
    '',
    m.body,
  ].join('\n');
}
