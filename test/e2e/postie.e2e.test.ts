// The postie agent through the running hub, with real SMTP both ways: a local relay (smtp-server)
// receives what postie sends; SMTP sessions (nodemailer) deliver mail to the hub's inbound
// listener, which a real WebSocket agent then receives as a message. Addresses, plus-addressing,
// renames, DSN and ARF reports, suppression lists, forged identities and billing.
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  forgedIdentity,
  startAgentHub,
  type AgentHub,
  type Answer,
  type AskOptions,
} from '../support/official-agents.js';
import { startSmtpRelay, type SmtpRelay } from '../support/smtp-relay.js';
import { connectWsAgent, type Frame } from '../support/ws-agent.js';
import {
  createAgent,
  getCreditAccount,
  listLedger,
  purchaseCredits,
} from '../../infra/db/index.js';

const DOMAIN = 'mail.burrow.test';
const JSON_OUT = { accept: ['application/json'] };

let h: AgentHub;
let relay: SmtpRelay;
let acme: string;
let globex: string;
let bob: { id: string; key: string };
let alice: { id: string; key: string };
let gina: { id: string; key: string };

beforeAll(async () => {
  relay = await startSmtpRelay();
  h = await startAgentHub({ SMTP_RELAY_URL: relay.url, MAIL_DOMAIN: DOMAIN });
  acme = await h.tenant('Acme');
  globex = await h.tenant('Globex');
  bob = await aliased(acme, 'Bob', 'bob');
  alice = await aliased(acme, 'Alice', 'alice');
  gina = await aliased(globex, 'Gina', 'gina');
});

afterAll(async () => {
  await h?.close();
  await relay?.close();
});

async function aliased(tenantId: string, name: string, alias: string) {
  const c = await createAgent(h.hub.sql, { tenantId, name, alias });
  return { id: c.agent.id, key: c.apiKey };
}

function postie(key: string, body: string | Record<string, unknown>, o: AskOptions = JSON_OUT) {
  return ask(h.url, key, 'postie', body, o);
}

function failedWith(a: Answer, pattern: RegExp): void {
  expect(a.error).toBeUndefined();
  expect(a.state).toBe('failed');
  expect(a.statusText).toMatch(pattern);
}

async function send(key: string, to: string, subject = 'Hello', text = 'Hi there') {
  return postie(key, { action: 'send_email', to, subject, text });
}

/** An SMTP client session to the hub's inbound listener. */
function smtp() {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: h.hub.smtpPort!,
    secure: false,
    ignoreTLS: true,
  });
}

async function mailIn(o: { from?: string; to: string; subject: string; text: string }) {
  return smtp().sendMail({
    from: o.from ?? 'Ada Lovelace <ada@example.com>',
    to: o.to,
    subject: o.subject,
    text: o.text,
  });
}

/** A raw report (DSN or ARF sample) delivered with a null reverse-path, as MTAs send them. */
async function reportIn(name: string, to: string, vars: Record<string, string>) {
  let raw = readFileSync(
    new URL(`../../agents/postie/testdata/${name}.eml`, import.meta.url),
    'utf8'
  );
  for (const [k, v] of Object.entries(vars)) raw = raw.replaceAll(`{{${k}}}`, v);
  return smtp().sendMail({ envelope: { from: '', to: [to] }, raw });
}

async function smtpRefusal(
  p: Promise<unknown>
): Promise<{ responseCode?: number; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { responseCode?: number; message: string };
  }
  throw new Error('the SMTP session was expected to be refused');
}

interface InboxData {
  address: string;
  total: number;
  unread: number;
  messages: Array<{ id: string; to: string; tag: string | null; subject: string; from: string }>;
}

async function inbox(key: string, extra: Record<string, unknown> = {}): Promise<InboxData> {
  const a = await postie(key, { action: 'list_inbox', ...extra });
  expect(a.state, a.statusText).toBe('completed');
  return a.data as InboxData;
}

function dataPart(f: Frame): Record<string, unknown> {
  const parts = (f.payload as { parts: Array<{ kind: string; data?: string }> }).parts;
  const d = parts.find((p) => p.kind === 'data');
  return JSON.parse(d!.data!) as Record<string, unknown>;
}

describe('send_email', () => {
  it('sends through the relay from the address derived from the verified sender', async () => {
    const before = relay.received.length;
    const a = await send(bob.key, 'ada@example.com', 'Quarterly report', 'Numbers attached.');
    expect(a.state, a.statusText).toBe('completed');
    expect(a.data).toMatchObject({
      status: 'sent',
      from: `bob.acme@${DOMAIN}`,
      to: 'ada@example.com',
      subject: 'Quarterly report',
      paid: false,
    });
    const [m] = (await relay.waitFor(before + 1)).slice(before);
    expect(m).toMatchObject({
      mailFrom: `bob.acme@${DOMAIN}`,
      rcptTo: ['ada@example.com'],
      from: `bob.acme@${DOMAIN}`,
      fromName: 'Bob',
      to: ['ada@example.com'],
      subject: 'Quarterly report',
    });
    expect(m!.text.trim()).toBe('Numbers attached.');
    const id = (a.data as { id: string }).id;
    const [row] = await h.hub.sql<{ status: string; messageId: string; error: string | null }[]>`
      select status, message_id, error from postie_sends where id = ${id}`;
    expect(row).toMatchObject({ status: 'sent', error: null });
    expect(row!.messageId).toBe((a.data as { messageId: string }).messageId);
    // The text reply is for people.
    const t = await postie(
      bob.key,
      { action: 'send_email', to: 'ada@example.com', subject: 'Again', text: 'x' },
      {}
    );
    expect(t.text).toMatch(/✅ Email sent to ada@example\.com/);
    expect(t.text).toContain(`From: bob.acme@${DOMAIN}`);
  });

  it('ignores forged sender, tenant and From fields', async () => {
    const before = relay.received.length;
    const forged = forgedIdentity(
      'agent-postie-official',
      { agentId: gina.id, tenantId: globex },
      {
        action: 'send_email',
        to: 'ada@example.com',
        subject: 'Forged',
        text: 'who am I',
        from: 'ceo@bank.example',
        sender_address: 'gina.globex@' + DOMAIN,
      }
    );
    const a = await ask(h.url, bob.key, 'postie', forged.body, {
      ...JSON_OUT,
      params: forged.params,
    });
    expect(a.state, a.statusText).toBe('completed');
    expect(a.data).toMatchObject({ from: `bob.acme@${DOMAIN}` });
    const [m] = (await relay.waitFor(before + 1)).slice(before);
    expect(m).toMatchObject({ mailFrom: `bob.acme@${DOMAIN}`, from: `bob.acme@${DOMAIN}` });
    const [row] = await h.hub.sql<{ tenantId: string; ownerAgentId: string }[]>`
      select tenant_id, owner_agent_id from postie_sends where id = ${(a.data as { id: string }).id}`;
    expect(row).toEqual({ tenantId: acme, ownerAgentId: bob.id });
  });

  it('refuses an agent without an alias, telling it to set one', async () => {
    const plain = await h.agent(acme, 'No Alias');
    failedWith(await send(plain.key, 'ada@example.com'), /no alias.*set an alias/);
  });

  it('names the bad field', async () => {
    failedWith(await send(bob.key, 'not an address'), /`to`.*not one plain email address/);
    failedWith(
      await send(bob.key, 'a@example.com, b@example.com'),
      /`to`.*not one plain email address/
    );
    failedWith(
      await postie(bob.key, { action: 'send_email', to: 'a@example.com', text: 'x' }),
      /`subject` is required/
    );
    failedWith(await postie(bob.key, 'send an email please'), /JSON text with an "action"/);
    failedWith(await postie(bob.key, { action: 'fax' }), /unknown action "fax"/);
  });

  it('records a send the relay refuses as failed, with the reason', async () => {
    relay.refuse.add('nobody@example.com');
    const a = await send(alice.key, 'nobody@example.com');
    failedWith(a, /relay did not take the email.*550.*not sent nor charged/);
    const [row] = await h.hub.sql<{ status: string; error: string }[]>`
      select status, error from postie_sends
      where owner_agent_id = ${alice.id} and to_address = 'nobody@example.com'`;
    expect(row!.status).toBe('failed');
    expect(row!.error).toMatch(/550/);
    const s = await postie(alice.key, { action: 'get_stats' });
    expect(s.data).toMatchObject({ agent: { failed: 1 } });
  });
});

describe('inbound mail', () => {
  it('delivers mail to an agent as a message from postie, and keeps it in the inbox', async () => {
    const ws = await connectWsAgent(h.url, bob.key);
    try {
      await mailIn({ to: `bob.acme@${DOMAIN}`, subject: 'Lunch?', text: 'Tomorrow at noon?' });
      const m = await ws.next('message');
      expect(m.from).toBe('agent-postie-official');
      const parts = (m.payload as { parts: Array<{ kind: string; text?: string }> }).parts;
      expect(parts[0]!.text).toMatch(/📨 New email for bob\.acme@mail\.burrow\.test/);
      expect(parts[0]!.text).toContain('Tomorrow at noon?');
      expect(dataPart(m)).toMatchObject({
        type: 'email',
        to: `bob.acme@${DOMAIN}`,
        from: 'ada@example.com',
        fromName: 'Ada Lovelace',
        subject: 'Lunch?',
        tag: null,
      });
      ws.send({ type: 'task_response', taskId: m.taskId, status: { state: 'completed' } });
    } finally {
      await ws.close();
    }
    const box = await inbox(bob.key);
    expect(box.address).toBe(`bob.acme@${DOMAIN}`);
    const item = box.messages.find((x) => x.subject === 'Lunch?')!;
    expect(item).toMatchObject({ from: 'ada@example.com', to: `bob.acme@${DOMAIN}` });
    expect((await inbox(bob.key, { unread_only: true })).messages.map((x) => x.id)).toContain(
      item.id
    );
    const r = await postie(bob.key, { action: 'read_inbound', id: item.id });
    expect(r.data).toMatchObject({ id: item.id, subject: 'Lunch?', read: true });
    expect((r.data as { text: string }).text.trim()).toBe('Tomorrow at noon?');
    expect((await inbox(bob.key, { unread_only: true })).messages.map((x) => x.id)).not.toContain(
      item.id
    );
    // Another agent, same tenant or not, never sees it.
    expect((await inbox(alice.key)).messages.map((x) => x.id)).not.toContain(item.id);
    failedWith(
      await postie(alice.key, { action: 'read_inbound', id: item.id }),
      /no inbound message/
    );
    const forged = forgedIdentity(
      'agent-postie-official',
      { agentId: bob.id, tenantId: acme },
      {
        action: 'read_inbound',
        id: item.id,
      }
    );
    failedWith(
      await ask(h.url, gina.key, 'postie', forged.body, { ...JSON_OUT, params: forged.params }),
      /no inbound message/
    );
  });

  it('keeps the +tag of plus-addressed mail and shows it to the agent', async () => {
    const ws = await connectWsAgent(h.url, alice.key);
    try {
      await mailIn({ to: `alice.acme+orders@${DOMAIN}`, subject: 'Order 42', text: 'Shipped.' });
      const m = await ws.next('message');
      const parts = (m.payload as { parts: Array<{ text?: string }> }).parts;
      expect(parts[0]!.text).toContain('(tag: orders)');
      expect(dataPart(m)).toMatchObject({ to: `alice.acme+orders@${DOMAIN}`, tag: 'orders' });
    } finally {
      await ws.close();
    }
    const box = await inbox(alice.key);
    expect(box.messages[0]).toMatchObject({ subject: 'Order 42', tag: 'orders' });
    const text = await postie(alice.key, { action: 'list_inbox' }, {});
    expect(text.text).toContain('[+orders]');
  });

  it('queues mail for an offline agent and delivers it when it connects', async () => {
    const carol = await aliased(globex, 'Carol', 'carol');
    await mailIn({ to: `carol.globex@${DOMAIN}`, subject: 'While you were out', text: 'Ping.' });
    const ws = await connectWsAgent(h.url, carol.key);
    try {
      const m = await ws.next('message');
      expect(dataPart(m)).toMatchObject({ subject: 'While you were out' });
    } finally {
      await ws.close();
    }
  });

  it('refuses unknown addresses, other domains and official agents at RCPT TO', async () => {
    const unknown = await smtpRefusal(
      mailIn({ to: `nobody.acme@${DOMAIN}`, subject: 'x', text: 'x' })
    );
    expect(unknown.responseCode).toBe(550);
    expect(unknown.message).toMatch(/no such mailbox/);
    const relayed = await smtpRefusal(
      mailIn({ to: 'someone@example.org', subject: 'x', text: 'x' })
    );
    expect(relayed.responseCode).toBe(550);
    expect(relayed.message).toMatch(/relaying denied/);
    const official = await smtpRefusal(
      mailIn({ to: `postie@${DOMAIN}`, subject: 'x', text: '{"action":"send_email"}' })
    );
    expect(official.responseCode).toBe(550);
  });

  it('keeps delivering the old address for 30 days after a rename', async () => {
    const dave = await aliased(acme, 'Dave', 'dave');
    await h.hub.sql`update agents set alias = 'david' where id = ${dave.id}`;
    await mailIn({ to: `dave.acme@${DOMAIN}`, subject: 'Old address', text: '1' });
    await mailIn({ to: `david.acme@${DOMAIN}`, subject: 'New address', text: '2' });
    const box = await inbox(dave.key);
    expect(box.address).toBe(`david.acme@${DOMAIN}`);
    expect(box.messages.map((m) => m.subject).sort()).toEqual(['New address', 'Old address']);
    // Mail now goes out from the new address.
    const a = await send(dave.key, 'ada@example.com');
    expect(a.data).toMatchObject({ from: `david.acme@${DOMAIN}` });
    // 29 days on, still delivering; 31 days on, gone.
    await h.hub.sql`update postie_addresses set retired_at = now() - interval '29 days'
                    where local_part = 'dave.acme'`;
    await mailIn({ to: `dave.acme@${DOMAIN}`, subject: 'Day 29', text: '3' });
    await h.hub.sql`update postie_addresses set retired_at = now() - interval '31 days'
                    where local_part = 'dave.acme'`;
    const late = await smtpRefusal(
      mailIn({ to: `dave.acme@${DOMAIN}`, subject: 'Day 31', text: '4' })
    );
    expect(late.responseCode).toBe(550);
    expect((await inbox(dave.key)).messages.map((m) => m.subject)).toContain('Day 29');
  });
});

describe('suppression', () => {
  it('keeps a list per tenant: sends to a suppressed address fail, others tenants unaffected', async () => {
    const addr = 'unsubscribed@example.com';
    const s = await postie(bob.key, { action: 'suppress', address: addr, reason: 'asked to stop' });
    expect(s.data).toMatchObject({ address: addr, added: true });
    const look = await postie(alice.key, {
      action: 'lookup_suppression',
      address: addr.toUpperCase(),
    });
    expect(look.data).toMatchObject({
      suppressed: true,
      entries: [{ scope: 'tenant', reason: 'asked to stop', source: 'manual' }],
    });
    const before = relay.received.length;
    failedWith(await send(alice.key, addr), /suppression list \(asked to stop\).*unsuppress/);
    expect(relay.received.length).toBe(before);
    // Globex has its own list.
    expect(
      (await postie(gina.key, { action: 'lookup_suppression', address: addr })).data
    ).toMatchObject({ suppressed: false, entries: [] });
    expect((await send(gina.key, addr)).state).toBe('completed');
    failedWith(
      await postie(gina.key, { action: 'unsuppress', address: addr }),
      /not on your organization's suppression list/
    );
    // Inbound from an address the recipient's tenant suppressed is refused.
    const refused = await smtpRefusal(
      mailIn({ from: addr, to: `bob.acme@${DOMAIN}`, subject: 'x', text: 'x' })
    );
    expect(refused.responseCode).toBe(550);
    expect(refused.message).toMatch(/suppressed/);
    // …and so is mail whose From header is suppressed, whatever the envelope says.
    const byHeader = await smtpRefusal(
      smtp().sendMail({
        envelope: { from: 'relay@lists.example', to: [`bob.acme@${DOMAIN}`] },
        from: addr,
        to: `bob.acme@${DOMAIN}`,
        subject: 'x',
        text: 'x',
      })
    );
    expect(byHeader.responseCode).toBe(550);
    const u = await postie(bob.key, { action: 'unsuppress', address: addr });
    expect(u.data).toMatchObject({ removed: true, stillSuppressed: false });
    expect((await send(alice.key, addr)).state).toBe('completed');
    const text = await postie(bob.key, { action: 'lookup_suppression', address: addr }, {});
    expect(text.text).toMatch(/✅ .* is not suppressed/);
  });

  it('adds hard-bounced recipients (DSN) to the global list; delayed reports do not', async () => {
    const bounced = 'gone@example.org';
    await reportIn('dsn-delayed', `bob.acme@${DOMAIN}`, {
      TO: `bob.acme@${DOMAIN}`,
      BOUNCED: 'slow@example.org',
    });
    await reportIn('dsn-hard-bounce', `bob.acme@${DOMAIN}`, {
      TO: `bob.acme@${DOMAIN}`,
      BOUNCED: bounced,
    });
    const look = await postie(gina.key, { action: 'lookup_suppression', address: bounced });
    expect(look.data).toMatchObject({
      suppressed: true,
      entries: [
        { scope: 'global', source: 'bounce', reason: expect.stringMatching(/5\.1\.1/) as string },
      ],
    });
    expect(
      (await postie(gina.key, { action: 'lookup_suppression', address: 'slow@example.org' })).data
    ).toMatchObject({ suppressed: false });
    failedWith(await send(gina.key, bounced), /global suppression list \(bounce/);
    failedWith(
      await postie(gina.key, { action: 'unsuppress', address: bounced }),
      /global suppression list.*cannot be removed/
    );
    // The report is in the inbox of the address it came back to, as a bounce.
    const box = await inbox(bob.key);
    expect(box.messages.some((m) => m.subject === 'Undelivered Mail Returned to Sender')).toBe(
      true
    );
    // Mail from a globally suppressed address is refused at MAIL FROM.
    const refused = await smtpRefusal(
      mailIn({ from: bounced, to: `bob.acme@${DOMAIN}`, subject: 'x', text: 'x' })
    );
    expect(refused.responseCode).toBe(550);
  });

  it('adds complaining recipients (ARF) to the global list, via abuse@', async () => {
    const complainer = 'angry@isp.example';
    await reportIn('arf-complaint', `abuse@${DOMAIN}`, {
      TO: `alice.acme@${DOMAIN}`,
      COMPLAINER: complainer,
    });
    const look = await postie(bob.key, { action: 'lookup_suppression', address: complainer });
    expect(look.data).toMatchObject({
      suppressed: true,
      entries: [{ scope: 'global', source: 'complaint' }],
    });
    failedWith(await send(bob.key, complainer), /global suppression list \(complaint/);
    // abuse@ and postmaster@ take reports only.
    const plain = await smtpRefusal(
      mailIn({ to: `postmaster@${DOMAIN}`, subject: 'hi', text: 'x' })
    );
    expect(plain.responseCode).toBe(550);
    expect(plain.message).toMatch(/reports only/);
  });
});

describe('statistics and billing', () => {
  it('counts sends and received mail per agent', async () => {
    const s = await postie(bob.key, { action: 'get_stats' });
    expect(s.state, s.statusText).toBe('completed');
    const d = s.data as {
      address: string;
      agent: { sent: number; failed: number; received: number };
      tenant: { freeSendsUsed: number; freeSendsLimit: number; paidSends: number };
    };
    expect(d.address).toBe(`bob.acme@${DOMAIN}`);
    expect(d.agent.sent).toBeGreaterThanOrEqual(3);
    expect(d.agent.received).toBeGreaterThanOrEqual(2);
    expect(d.tenant.freeSendsLimit).toBe(100);
    expect(d.tenant.paidSends).toBe(0);
    const t = await postie(bob.key, { action: 'get_stats' }, {});
    expect(t.text).toMatch(/📊 Email statistics for bob\.acme@/);
    expect(t.text).toMatch(/Free sends used: \d+ of 100/);
  });

  it('gives 100 free sends, then needs credit: nothing relayed without it, cents debited at boundaries', async () => {
    const tenant = await h.tenant('Billed');
    const biller = await aliased(tenant, 'Biller', 'biller');
    for (let i = 1; i <= 100; i++) {
      const a = await send(biller.key, 'bulk@example.com', `Free ${i}`);
      expect(a.state, a.statusText).toBe('completed');
      expect((a.data as { paid: boolean }).paid).toBe(false);
    }
    // 101st: no credit, no send.
    const before = relay.received.length;
    const refused = await send(biller.key, 'bulk@example.com', 'Without credit');
    failedWith(refused, /no credit.*100 free sends.*buy credits.*nothing was sent or charged/);
    expect(relay.received.length).toBe(before);
    expect(
      await h.hub.sql`select * from postie_billing where tenant_id = ${tenant}
                           and accrued_units > 0`
    ).toHaveLength(0);

    // One cent pays for paid sends until the 9th crosses the first cent (9 × 0.0012 ≥ 0.01).
    await purchaseCredits(h.hub.sql, tenant, 1);
    for (let i = 1; i <= 9; i++) {
      const a = await send(biller.key, 'bulk@example.com', `Paid ${i}`);
      expect(a.state, `paid send ${i}: ${a.statusText}`).toBe('completed');
      expect((a.data as { paid: boolean }).paid).toBe(true);
      expect((await getCreditAccount(h.hub.sql, tenant)).balance).toBe(i < 9 ? 1 : 0);
    }
    failedWith(await send(biller.key, 'bulk@example.com', 'Paid 10'), /no credit/);
    const debits = (await listLedger(h.hub.sql, tenant)).filter((e) => e.kind === 'debit');
    expect(debits.map((e) => e.amount)).toEqual([-1]);
    const s = await postie(biller.key, { action: 'get_stats' });
    expect(s.data).toMatchObject({
      agent: { sent: 109, failed: 2 },
      tenant: {
        sends: 109,
        freeSendsUsed: 100,
        paidSends: 9,
        billedThisMonth: '0.0108',
        debitedTotal: '0.01',
        accruedTotal: '0.0108',
      },
    });
    // Fence: the paid sends came after the refused ones; had those been relayed, they would be
    // among (and before) these.
    const relayed = (await relay.waitFor(before + 9)).slice(before);
    expect(relayed.map((m) => m.subject)).toEqual(
      Array.from({ length: 9 }, (_, i) => `Paid ${i + 1}`)
    );

    // A paid send the relay refuses is taken back: not counted, nothing accrued for it.
    await purchaseCredits(h.hub.sql, tenant, 5);
    relay.refuse.add('bounces-at-relay@example.com');
    failedWith(
      await send(biller.key, 'bounces-at-relay@example.com', 'Refused'),
      /relay did not take the email/
    );
    expect((await postie(biller.key, { action: 'get_stats' })).data).toMatchObject({
      agent: { sent: 109, failed: 3 },
      tenant: { sends: 109, paidSends: 9, accruedTotal: '0.0108' },
    });
    expect((await getCreditAccount(h.hub.sql, tenant)).balance).toBe(5);
  }, 120_000);
});

describe('a hub without a relay', () => {
  let bare: AgentHub;
  beforeAll(async () => {
    bare = await startAgentHub({ MAIL_DOMAIN: DOMAIN });
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('says no SMTP relay is configured, and still receives mail', async () => {
    const t = await bare.tenant('Solo');
    const c = await createAgent(bare.hub.sql, { tenantId: t, name: 'Solo', alias: 'solo' });
    failedWith(
      await ask(bare.url, c.apiKey, 'postie', {
        action: 'send_email',
        to: 'ada@example.com',
        subject: 'x',
        text: 'x',
      }),
      /no SMTP relay is configured/
    );
    await nodemailer
      .createTransport({
        host: '127.0.0.1',
        port: bare.hub.smtpPort!,
        secure: false,
        ignoreTLS: true,
      })
      .sendMail({ from: 'ada@example.com', to: `solo.solo@${DOMAIN}`, subject: 'In', text: 'y' });
    const box = await ask(bare.url, c.apiKey, 'postie', { action: 'list_inbox' }, JSON_OUT);
    expect(box.data).toMatchObject({ total: 1, messages: [{ subject: 'In' }] });
  });
});
