// Agents' email addresses (interface-spec "Postie agent data"): derived from the alias, on the
// hub's mail domain, and the parsing of an inbound recipient back into a local part and a +tag.
import { OFFICIAL_TENANT } from '../../infra/db/index.js';

/** `<alias>` for the official tenant, `<alias>.<tenantslug>` for every other; null without alias. */
export function localPartFor(agent: {
  alias: string | null;
  tenantId: string;
  tenantSlug: string;
}): string | null {
  if (agent.alias === null || agent.alias === '') return null;
  const alias = agent.alias.toLowerCase();
  return agent.tenantId === OFFICIAL_TENANT.id
    ? alias
    : `${alias}.${agent.tenantSlug.toLowerCase()}`;
}

export function addressFor(localPart: string, domain: string): string {
  return `${localPart}@${domain.toLowerCase()}`;
}

export interface Recipient {
  /** The address as given, lowercased. */
  address: string;
  /** The local part without its +tag: what names the agent. */
  localPart: string;
  /** What followed the first '+', or undefined. */
  tag: string | undefined;
}

/**
 * An inbound RCPT TO address on `domain`, split into the agent's local part and its +tag;
 * undefined for another domain or a malformed address (the listener is not an open relay).
 */
export function parseRecipient(address: string, domain: string): Recipient | undefined {
  const a = address.trim().toLowerCase();
  const at = a.lastIndexOf('@');
  if (at <= 0 || a.slice(at + 1) !== domain.toLowerCase()) return undefined;
  const local = a.slice(0, at);
  const plus = local.indexOf('+');
  const base = plus < 0 ? local : local.slice(0, plus);
  const tag = plus < 0 ? undefined : local.slice(plus + 1);
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)?$/.test(base)) return undefined;
  return { address: a, localPart: base, tag: tag === '' ? undefined : tag };
}

/**
 * A mailbox a caller may send to or suppress: one plain address, lowercased. Display names,
 * lists and anything that could smuggle a second recipient or a header are refused.
 */
export function normalizeMailbox(input: string): string | undefined {
  const a = input.trim().toLowerCase();
  if (a.length > 254) return undefined;
  const m = /^([a-z0-9!#$%&'*+/=?^_`{|}~.-]+)@([a-z0-9-]+(\.[a-z0-9-]+)+)$/.exec(a);
  if (!m) return undefined;
  const local = m[1]!;
  if (local.length > 64 || local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    return undefined;
  }
  return a;
}

/** True if `address` is on the hub's own mail domain. */
export function onDomain(address: string, domain: string): boolean {
  return address.toLowerCase().endsWith(`@${domain.toLowerCase()}`);
}
