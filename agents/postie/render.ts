// postie's replies: text for people (with symbols) and the JSON each action returns.
import { FREE_SENDS_PER_MONTH, formatCents, formatUnits } from './billing.js';
import type { InboundMessage, Stats, Suppression } from './store.js';

export function inboundData(m: InboundMessage, domain: string) {
  return {
    id: m.id,
    to: m.address,
    tag: m.tag,
    from: m.fromAddress || m.mailFrom,
    fromName: m.fromName,
    mailFrom: m.mailFrom,
    subject: m.subject,
    text: m.body,
    messageId: m.messageId,
    kind: m.kind,
    size: m.size,
    receivedAt: m.receivedAt.toISOString(),
    read: m.readAt !== null,
    domain,
  };
}

export function renderSent(r: {
  id: string;
  from: string;
  to: string;
  subject: string;
  messageId: string;
  paid: boolean;
}): string {
  return [
    `✅ Email sent to ${r.to}`,
    `• From: ${r.from}`,
    `• Subject: ${r.subject}`,
    `• Send id: ${r.id}`,
    `• Message-ID: ${r.messageId}`,
    r.paid ? '• Billed: 0.0012 (beyond the monthly free quota)' : '• Billed: free quota',
  ].join('\n');
}

function sender(m: InboundMessage): string {
  const addr = m.fromAddress || m.mailFrom || '(no sender)';
  return m.fromName ? `${m.fromName} <${addr}>` : addr;
}

const KIND_ICON = { mail: '📨', bounce: '📭', complaint: '⚠️' } as const;

export function renderInbox(r: {
  messages: InboundMessage[];
  total: number;
  unread: number;
  unreadOnly: boolean;
  address: string | null;
}): string {
  const head = `📬 Inbox${r.address ? ` of ${r.address}` : ''}: ${r.total} message(s), ${r.unread} unread`;
  if (r.messages.length === 0) {
    return `${head}\n${r.unreadOnly ? 'No unread mail.' : 'No mail yet.'}`;
  }
  const lines = r.messages.map((m) => {
    const dot = m.readAt === null ? '●' : '○';
    const tag = m.tag ? ` [+${m.tag}]` : '';
    return `${dot} ${KIND_ICON[m.kind]} ${m.id} · ${m.receivedAt.toISOString()} · ${sender(m)}${tag}\n   ${m.subject || '(no subject)'}`;
  });
  return [head, ...lines, 'Read one with {"action":"read_inbound","id":"in_…"}.'].join('\n');
}

export function renderInbound(m: InboundMessage): string {
  return [
    `${KIND_ICON[m.kind]} ${m.subject || '(no subject)'}`,
    `• From: ${sender(m)}`,
    `• To: ${m.address}${m.tag ? ` (tag: ${m.tag})` : ''}`,
    `• Received: ${m.receivedAt.toISOString()}`,
    `• Id: ${m.id}`,
    '',
    m.body || '(no text)',
  ].join('\n');
}

export function statsData(s: Stats) {
  return {
    agent: s.agent,
    month: s.tenant.month,
    tenant: {
      sends: s.tenant.sends,
      freeSendsUsed: s.tenant.freeUsed,
      freeSendsLimit: s.tenant.freeLimit,
      paidSends: s.tenant.paidSends,
      billedThisMonth: formatUnits(s.tenant.billedUnits),
      debitedTotal: formatCents(s.tenant.debitedCents),
      debitedCentsTotal: s.tenant.debitedCents,
      accruedTotal: formatUnits(s.tenant.accruedUnits),
    },
  };
}

export function renderStats(s: Stats, address: string | null): string {
  const t = s.tenant;
  return [
    `📊 Email statistics${address ? ` for ${address}` : ''}`,
    `• Sent: ${s.agent.sent} · Failed: ${s.agent.failed}${s.agent.pending ? ` · Pending: ${s.agent.pending}` : ''}`,
    `• Received: ${s.agent.received} (${s.agent.unread} unread)`,
    `📅 Your organization this month (${t.month}, UTC)`,
    `• Free sends used: ${t.freeUsed} of ${FREE_SENDS_PER_MONTH}`,
    `• Paid sends: ${t.paidSends} · Billed: ${formatUnits(t.billedUnits)} (0.0012 each)`,
    `• Debited from credits so far: ${formatCents(t.debitedCents)} (accrued ${formatUnits(t.accruedUnits)})`,
  ].join('\n');
}

export function suppressionData(e: Suppression) {
  return {
    scope: e.scope,
    address: e.address,
    reason: e.reason,
    source: e.source,
    createdAt: e.createdAt.toISOString(),
  };
}

export function renderLookup(address: string, entries: Suppression[]): string {
  if (entries.length === 0) return `✅ ${address} is not suppressed: mail to it can be sent.`;
  return [
    `🚫 ${address} is suppressed:`,
    ...entries.map(
      (e) =>
        `• ${e.scope === 'global' ? 'global list' : 'your organization'} · ${e.source}` +
        `${e.reason ? ` · ${e.reason}` : ''} · since ${e.createdAt.toISOString()}`
    ),
  ].join('\n');
}

/** Why a send to a suppressed address is refused, and what the caller can do about it. */
export function suppressedReason(address: string, entries: Suppression[]): string {
  const global = entries.find((e) => e.scope === 'global');
  if (global) {
    return (
      `${address} is on the global suppression list (${global.source}` +
      `${global.reason ? `: ${global.reason}` : ''}); mail to it is not sent`
    );
  }
  return (
    `${address} is on your organization's suppression list` +
    `${entries[0]?.reason ? ` (${entries[0].reason})` : ''}; remove it with ` +
    `{"action":"unsuppress","address":"${address}"} to send to it`
  );
}
