// postie's actions: send_email, list_inbox, read_inbound, get_stats, suppress, unsuppress,
// lookup_suppression. The sender, its tenant and its From address come only from the verified
// envelope (req.senderId, req.tenantId): the schemas have no field that could name them.
import { z } from 'zod';
import { action, fail, type Actions, type AgentContext, type AgentRequest } from '../kit/index.js';
import { addressFor, localPartFor, normalizeMailbox } from './address.js';
import { FREE_SENDS_PER_MONTH, monthOf } from './billing.js';
import { relay } from './mailer.js';
import {
  inboundData,
  renderInbound,
  renderInbox,
  renderLookup,
  renderSent,
  renderStats,
  statsData,
  suppressedReason,
  suppressionData,
} from './render.js';
import {
  NoCreditError,
  listInbox,
  markFailed,
  markSent,
  newId,
  readInbound,
  recordPendingSend,
  recordRefusedSend,
  senderIdentity,
  stats,
  suppressForTenant,
  suppressionsFor,
  unsuppressForTenant,
  type NewSend,
  type Owner,
} from './store.js';

export const MAX_SUBJECT_CHARS = 998;
/** 256 KiB of text: a long letter; attachments are not part of send_email. */
export const MAX_TEXT_CHARS = 262_144;
export const INBOX_LIMIT = { default: 20, max: 100 } as const;

const Mailbox = z
  .string({ error: 'must be one email address, e.g. "ada@example.com"' })
  .transform((v, c) => {
    const a = normalizeMailbox(v);
    if (a === undefined) {
      c.addIssue({
        code: 'custom',
        message: `"${v}" is not one plain email address (name@domain)`,
      });
      return z.NEVER;
    }
    return a;
  });

const SendInput = z.object({
  to: Mailbox,
  subject: z
    .string({ error: 'must be text: the subject line' })
    .trim()
    .min(1, { error: 'cannot be empty' })
    .max(MAX_SUBJECT_CHARS, { error: `must be at most ${MAX_SUBJECT_CHARS} characters` })
    .refine((s) => !/[\r\n]/.test(s), { error: 'must be one line' }),
  text: z
    .string({ error: 'must be text: the body of the email' })
    .max(MAX_TEXT_CHARS, { error: `must be at most ${MAX_TEXT_CHARS} characters` }),
});

const InboxInput = z.object({
  limit: z
    .number({ error: `must be a whole number from 1 to ${INBOX_LIMIT.max}` })
    .int({ error: `must be a whole number from 1 to ${INBOX_LIMIT.max}` })
    .min(1, { error: 'must be at least 1' })
    .max(INBOX_LIMIT.max, { error: `must be at most ${INBOX_LIMIT.max}` })
    .optional(),
  unread_only: z.boolean({ error: 'must be true or false' }).optional(),
});

const IdInput = z.object({
  id: z
    .string({ error: 'must be the id of an inbound message, e.g. "in_…" from list_inbox' })
    .regex(/^in_[0-9a-f]{24}$/, {
      error: 'must look like "in_" and 24 hex digits (see list_inbox)',
    }),
});

const AddressInput = z.object({ address: Mailbox });

const SuppressInput = z.object({
  address: Mailbox,
  reason: z
    .string({ error: 'must be text' })
    .trim()
    .max(500, { error: 'must be at most 500 characters' })
    .optional(),
});

function ownerOf(req: AgentRequest): Owner {
  return { tenantId: req.tenantId, agentId: req.senderId };
}

/** The calling agent's address, or null when it has no alias. */
async function ownAddress(req: AgentRequest, ctx: AgentContext): Promise<string | null> {
  const me = await senderIdentity(ctx.sql, ownerOf(req));
  if (!me || !me.emailEnabled) return null;
  const local = localPartFor({
    alias: me.alias,
    tenantId: req.tenantId,
    tenantSlug: me.tenantSlug,
  });
  return local === null ? null : addressFor(local, ctx.config.mail.domain);
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').slice(0, 500);
}

export const actions: Actions = {
  send_email: action({
    summary: 'send an email from your agent’s address: to, subject, text',
    input: SendInput,
    async run(input, req, ctx) {
      const owner = ownerOf(req);
      const me = await senderIdentity(ctx.sql, owner);
      if (!me) fail('your agent is not registered on this hub any more, so it cannot send mail');
      if (!me.emailEnabled) {
        fail(
          'email is disabled for your agent: enable it (PATCH /api/agents/<id> ' +
            '{"emailEnabled": true}, or burrow agents email <id> on) and send again'
        );
      }
      const local = localPartFor({
        alias: me.alias,
        tenantId: owner.tenantId,
        tenantSlug: me.tenantSlug,
      });
      if (local === null) {
        fail(
          'your agent has no alias, and its email address is made from it: set an alias for ' +
            'the agent (it becomes <alias>.<organization>@' +
            `${ctx.config.mail.domain}) and send again`
        );
      }
      const relayUrl = ctx.config.mail.relayUrl;
      if (relayUrl === undefined) {
        fail('no SMTP relay is configured on this hub (SMTP_RELAY_URL), so email cannot be sent');
      }
      const from = addressFor(local, ctx.config.mail.domain);
      const send: NewSend = {
        id: newId('ml'),
        ...owner,
        from,
        to: input.to,
        subject: input.subject,
      };

      const suppressed = await suppressionsFor(ctx.sql, owner.tenantId, input.to);
      if (suppressed.length > 0) {
        const reason = suppressedReason(input.to, suppressed);
        await recordRefusedSend(ctx.sql, send, reason);
        fail(reason);
      }

      let billed: { paid: boolean };
      try {
        billed = await recordPendingSend(ctx.sql, send, monthOf(ctx.now()));
      } catch (err) {
        if (!(err instanceof NoCreditError)) throw err;
        const reason =
          `no credit: your organization used its ${FREE_SENDS_PER_MONTH} free sends this month and its credit ` +
          `balance (${err.balanceCents} cents) cannot pay for more; buy credits and send again ` +
          '(nothing was sent or charged)';
        await recordRefusedSend(ctx.sql, send, reason);
        fail(reason);
      }

      let relayed: Awaited<ReturnType<typeof relay>>;
      try {
        relayed = await relay(relayUrl, {
          from: { name: me.name, address: from },
          to: input.to,
          subject: input.subject,
          text: input.text,
          headers: { 'X-Burrow-Agent': owner.agentId, 'X-Burrow-Send-Id': send.id },
        });
      } catch (err) {
        const reason = errorText(err);
        await markFailed(ctx.sql, send, reason);
        ctx.log.warn({ sendId: send.id, err }, 'relay refused a send');
        fail(`the mail relay did not take the email (${reason}); it was not sent nor charged`);
      }
      await markSent(ctx.sql, send, relayed.messageId, relayed.response);
      const result = { ...send, messageId: relayed.messageId, paid: billed.paid };
      return {
        text: renderSent(result),
        data: {
          id: send.id,
          status: 'sent',
          from,
          to: input.to,
          subject: input.subject,
          messageId: relayed.messageId,
          paid: billed.paid,
        },
      };
    },
  }),

  list_inbox: action({
    summary: `list mail received at your agent's address: limit? (1–${INBOX_LIMIT.max}), unread_only?`,
    input: InboxInput,
    async run(input, req, ctx) {
      const unreadOnly = input.unread_only ?? false;
      const r = await listInbox(ctx.sql, ownerOf(req), {
        limit: input.limit ?? INBOX_LIMIT.default,
        unreadOnly,
      });
      const address = await ownAddress(req, ctx);
      const domain = ctx.config.mail.domain;
      return {
        text: renderInbox({ ...r, unreadOnly, address }),
        data: {
          address,
          total: r.total,
          unread: r.unread,
          messages: r.messages.map((m) => {
            const { text: _text, ...rest } = inboundData(m, domain);
            return rest;
          }),
        },
      };
    },
  }),

  read_inbound: action({
    summary: 'read one inbound email (and mark it read): id',
    input: IdInput,
    async run(input, req, ctx) {
      const m = await readInbound(ctx.sql, ownerOf(req), input.id);
      if (!m) fail(`no inbound message ${input.id} in your inbox; list them with list_inbox`);
      return { text: renderInbound(m), data: inboundData(m, ctx.config.mail.domain) };
    },
  }),

  get_stats: action({
    summary: 'sent, failed and received counts, free sends used this month, amount billed',
    input: z.object({}),
    async run(_input, req, ctx) {
      const s = await stats(ctx.sql, ownerOf(req), monthOf(ctx.now()));
      const address = await ownAddress(req, ctx);
      return { text: renderStats(s, address), data: { address, ...statsData(s) } };
    },
  }),

  suppress: action({
    summary: "add an address to your organization's suppression list: address, reason?",
    input: SuppressInput,
    async run(input, req, ctx) {
      const added = await suppressForTenant(
        ctx.sql,
        ownerOf(req),
        input.address,
        input.reason ?? ''
      );
      return {
        text: `🚫 ${input.address} ${added ? 'added to' : 'was already on'} your organization's suppression list: no mail is sent to it or accepted from it.`,
        data: { address: input.address, suppressed: true, added },
      };
    },
  }),

  unsuppress: action({
    summary: "remove an address from your organization's suppression list: address",
    input: AddressInput,
    async run(input, req, ctx) {
      const removed = await unsuppressForTenant(ctx.sql, req.tenantId, input.address);
      const left = await suppressionsFor(ctx.sql, req.tenantId, input.address);
      if (!removed && left.length > 0) {
        fail(
          `${input.address} is on the global suppression list (${left[0]!.source}), which the ` +
            'hub keeps for hard bounces and complaints; it cannot be removed by an organization'
        );
      }
      if (!removed) fail(`${input.address} is not on your organization's suppression list`);
      return {
        text:
          `✅ ${input.address} removed from your organization's suppression list.` +
          (left.length > 0 ? ' It is still on the global list, so mail to it stays blocked.' : ''),
        data: { address: input.address, removed: true, stillSuppressed: left.length > 0 },
      };
    },
  }),

  lookup_suppression: action({
    summary: 'is an address suppressed (your list or the global one)? address',
    input: AddressInput,
    async run(input, req, ctx) {
      const entries = await suppressionsFor(ctx.sql, req.tenantId, input.address);
      return {
        text: renderLookup(input.address, entries),
        data: {
          address: input.address,
          suppressed: entries.length > 0,
          entries: entries.map(suppressionData),
        },
      };
    },
  }),
};
