import { describe, expect, it } from 'vitest';
import { addressFor, localPartFor, normalizeMailbox, parseRecipient } from './address.js';

describe('addresses derived from the alias', () => {
  it('is <alias> for the official tenant and <alias>.<slug> for every other', () => {
    expect(
      localPartFor({ alias: 'postie', tenantId: 'ten-official', tenantSlug: 'official' })
    ).toBe('postie');
    expect(localPartFor({ alias: 'bob', tenantId: 'ten-0123456789ab', tenantSlug: 'acme' })).toBe(
      'bob.acme'
    );
    expect(addressFor('bob.acme', 'Mail.Example.COM')).toBe('bob.acme@mail.example.com');
  });

  it('is none without an alias', () => {
    expect(localPartFor({ alias: null, tenantId: 'ten-0123456789ab', tenantSlug: 'acme' })).toBe(
      null
    );
  });
});

describe('inbound recipients', () => {
  const D = 'mail.example.com';

  it('splits off the +tag and lowercases', () => {
    expect(parseRecipient('Bob.Acme+Orders@MAIL.example.com', D)).toEqual({
      address: 'bob.acme+orders@mail.example.com',
      localPart: 'bob.acme',
      tag: 'orders',
    });
    expect(parseRecipient('bob.acme@mail.example.com', D)).toEqual({
      address: 'bob.acme@mail.example.com',
      localPart: 'bob.acme',
      tag: undefined,
    });
    expect(parseRecipient('postie+a+b@mail.example.com', D)?.tag).toBe('a+b');
    expect(parseRecipient('bob.acme+@mail.example.com', D)?.tag).toBeUndefined();
  });

  it('refuses other domains (no open relay) and local parts no agent can have', () => {
    expect(parseRecipient('bob.acme@example.com', D)).toBeUndefined();
    expect(parseRecipient('bob.acme@sub.mail.example.com', D)).toBeUndefined();
    expect(parseRecipient('a.b.c@mail.example.com', D)).toBeUndefined();
    expect(parseRecipient('"bob"@mail.example.com', D)).toBeUndefined();
    expect(parseRecipient('@mail.example.com', D)).toBeUndefined();
  });
});

describe('mailboxes a caller names', () => {
  it('takes one plain address, lowercased', () => {
    expect(normalizeMailbox(' Ada@Example.COM ')).toBe('ada@example.com');
    expect(normalizeMailbox('first.last+tag@sub.example.org')).toBe(
      'first.last+tag@sub.example.org'
    );
  });

  it('refuses lists, display names, header injection and malformed addresses', () => {
    for (const bad of [
      'a@example.com, b@example.com',
      'Ada <ada@example.com>',
      'ada@example.com\r\nBcc: x@example.com',
      'ada@localhost',
      'ada..b@example.com',
      '.ada@example.com',
      'no-at-sign',
      `${'a'.repeat(65)}@example.com`,
    ]) {
      expect(normalizeMailbox(bad), bad).toBeUndefined();
    }
  });
});
