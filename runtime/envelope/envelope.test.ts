// The x-hub envelope (decisions.md §4): sign/verify round trip, tampering, kids, time, canonical
// JSON, the JWKS as node:crypto reads it, and dropping caller-supplied envelopes.
import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import {
  attachEnvelope,
  parseEnvelope,
  SIGNED_KEYS,
  EnvelopeSigner,
  generateSigningKey,
  jwksOf,
  kidOf,
  signingInput,
  stripCallerEnvelope,
  verifyEnvelope,
  type Envelope,
  type EnvelopeFields,
} from './index.js';

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const key = generateSigningKey();
const signer = new EnvelopeSigner(key);
const jwks = jwksOf([key]);

const fields: EnvelopeFields = {
  sender: { agentId: 'agent-000000000001', tenantId: 'tn-1' },
  recipient: { agentId: 'agent-crm-official', tenantId: 'tn-official' },
  taskId: 'task-1',
  contextId: 'ctx-1',
  messageId: 'msg-1',
};

describe('generateSigningKey and jwksOf', () => {
  it('derives the kid from the first 8 bytes of sha256 of the raw public key', () => {
    const raw = Buffer.from(key.publicJwk.x, 'base64url');
    expect(raw).toHaveLength(32);
    expect(key.kid).toBe(
      createHash('sha256').update(raw).digest().subarray(0, 8).toString('base64url')
    );
    expect(kidOf(raw)).toBe(key.kid);
    expect(key.kid).toHaveLength(11);
  });

  it('publishes OKP/Ed25519 keys that node:crypto imports and verifies with', () => {
    expect(jwks).toEqual({
      keys: [
        { kty: 'OKP', crv: 'Ed25519', x: key.publicJwk.x, kid: key.kid, use: 'sig', alg: 'EdDSA' },
      ],
    });
    const env = signer.sign(fields, { now: NOW });
    const [jwk] = jwks.keys;
    const publicKey = createPublicKey({ key: { ...jwk }, format: 'jwk' });
    expect(verify(null, signingInput(env), publicKey, Buffer.from(env.sig, 'base64url'))).toBe(
      true
    );
  });

  it('derives the public key from a PEM-only config key', () => {
    expect(jwksOf([{ kid: key.kid, privateKeyPem: key.privateKeyPem }])).toEqual(jwks);
  });
});

describe('EnvelopeSigner', () => {
  it('writes every field, iat/exp in Unix seconds, default lifetime 300 s', () => {
    const env = signer.sign(fields, { now: NOW + 999 });
    expect(env).toEqual({
      v: 1,
      ...fields,
      iat: NOW / 1000,
      exp: NOW / 1000 + 300,
      kid: key.kid,
      sig: expect.stringMatching(/^[A-Za-z0-9_-]{86}$/),
    });
    expect(signer.sign(fields, { now: NOW, ttlSeconds: 30 }).exp).toBe(NOW / 1000 + 30);
  });

  it('signs canonical JSON: field order does not change the signature', () => {
    const reordered: EnvelopeFields = {
      messageId: 'msg-1',
      contextId: 'ctx-1',
      taskId: 'task-1',
      recipient: { tenantId: 'tn-official', agentId: 'agent-crm-official' },
      sender: { tenantId: 'tn-1', agentId: 'agent-000000000001' },
    };
    expect(signer.sign(reordered, { now: NOW }).sig).toBe(signer.sign(fields, { now: NOW }).sig);
    const env = signer.sign(fields, { now: NOW });
    const { sig: _sig, ...unsigned } = env;
    expect(signingInput(env).toString()).toBe(canonicalize(unsigned));
  });

  it('writes the same bytes as the RFC 8785 library, for awkward strings too', () => {
    const awkward = [
      '"quoted" \\ back',
      'tab\tnew\nline\u0001',
      'é€😀',
      '\u2028\u2029',
      '</script>',
    ];
    for (const text of awkward) {
      const env = signer.sign(
        { ...fields, taskId: text, sender: { agentId: text, tenantId: `t${text}` } },
        { now: NOW }
      );
      const { sig: _sig, ...unsigned } = env;
      expect(signingInput(env).toString('utf8')).toBe(canonicalize(unsigned));
    }
  });

  it('refuses lone surrogates, which RFC 8785 cannot canonicalize', () => {
    expect(() => signer.sign({ ...fields, messageId: 'x\ud800' }, { now: NOW })).toThrow(
      'messageId: must be well-formed Unicode'
    );
    const env = signer.sign(fields, { now: NOW });
    expect(verifyEnvelope({ ...env, taskId: '\udc00' }, jwks, { now: NOW })).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('signs every envelope field but sig', () => {
    const env = signer.sign(fields, { now: NOW });
    const keys = Object.keys(parseEnvelope(env) ?? {}).filter((k) => k !== 'sig');
    expect([...SIGNED_KEYS]).toEqual([...keys].sort());
    const parsed = JSON.parse(signingInput(env).toString()) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([...SIGNED_KEYS]);
  });

  it('signs only the known fields', () => {
    const extra = { ...fields, sender: { ...fields.sender, admin: true } } as EnvelopeFields;
    expect(signer.sign(extra, { now: NOW }).sender).toEqual(fields.sender);
  });

  it('refuses a key that is not Ed25519', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => new EnvelopeSigner({ kid: 'k', privateKeyPem: pem })).toThrow(
      'not an Ed25519 key'
    );
  });
});

describe('verifyEnvelope', () => {
  const env = signer.sign(fields, { now: NOW });

  it('accepts what the signer wrote, also after a JSON round trip with keys reordered', () => {
    expect(verifyEnvelope(env, jwks, { now: NOW })).toEqual({ ok: true, envelope: env });
    const { sig, kid, ...rest } = env;
    const reversed = {
      sig,
      kid,
      ...rest,
      sender: { tenantId: 'tn-1', agentId: 'agent-000000000001' },
    };
    const shuffled = JSON.parse(JSON.stringify(reversed)) as unknown;
    expect(verifyEnvelope(shuffled, jwks, { now: NOW }).ok).toBe(true);
  });

  it.each<[string, Partial<Envelope>]>([
    ['sender tenant', { sender: { agentId: 'agent-000000000001', tenantId: 'tn-evil' } }],
    ['recipient', { recipient: { agentId: 'agent-kanban-official', tenantId: 'tn-official' } }],
    ['taskId', { taskId: 'task-2' }],
    ['exp', { exp: env.exp + 3600 }],
  ])('rejects a tampered %s', (_name, change) => {
    expect(verifyEnvelope({ ...env, ...change }, jwks, { now: NOW })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('rejects a signature from another key, and a kid the JWKS does not hold', () => {
    const other = generateSigningKey();
    const forged = new EnvelopeSigner({ kid: key.kid, privateKeyPem: other.privateKeyPem }).sign(
      fields,
      { now: NOW }
    );
    expect(verifyEnvelope(forged, jwks, { now: NOW })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const unknown = new EnvelopeSigner(other).sign(fields, { now: NOW });
    expect(verifyEnvelope(unknown, jwks, { now: NOW })).toEqual({
      ok: false,
      reason: 'unknown_kid',
    });
    expect(verifyEnvelope(unknown, jwksOf([key, other]), { now: NOW }).ok).toBe(true);
  });

  it('rejects expired and future envelopes, allowing 60 s of clock skew by default', () => {
    const exp = env.exp * 1000;
    expect(verifyEnvelope(env, jwks, { now: exp + 59_000 }).ok).toBe(true);
    expect(verifyEnvelope(env, jwks, { now: exp + 60_000 })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifyEnvelope(env, jwks, { now: exp + 1, clockSkewSeconds: 0 })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifyEnvelope(env, jwks, { now: NOW - 60_000 }).ok).toBe(true);
    expect(verifyEnvelope(env, jwks, { now: NOW - 61_000 })).toEqual({
      ok: false,
      reason: 'not_yet_valid',
    });
  });

  it('rejects malformed envelopes and ignores unusable JWKS entries', () => {
    expect(verifyEnvelope(undefined, jwks, { now: NOW })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifyEnvelope({ ...env, v: 2 }, jwks, { now: NOW })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    const { sig: _sig, ...unsigned } = env;
    expect(verifyEnvelope(unsigned, jwks, { now: NOW })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifyEnvelope({ ...env, sig: 'abc' }, jwks, { now: NOW })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const junk = {
      keys: [
        { kty: 'RSA', kid: key.kid },
        { kty: 'OKP', crv: 'Ed25519', x: 'AA', kid: key.kid },
      ],
    };
    expect(verifyEnvelope(env, junk, { now: NOW })).toEqual({ ok: false, reason: 'unknown_kid' });
  });
});

describe('caller envelopes', () => {
  it('stripCallerEnvelope drops x-hub and leaves the input alone', () => {
    const params = { message: { parts: [] }, 'x-hub': { sender: { tenantId: 'forged' } } };
    const stripped = stripCallerEnvelope(params);
    expect(stripped).toEqual({ message: { parts: [] } });
    expect(params).toHaveProperty('x-hub');
    const clean = { message: {} };
    expect(stripCallerEnvelope(clean)).toBe(clean);
    expect(stripCallerEnvelope(null)).toBe(null);
    expect(stripCallerEnvelope([1])).toEqual([1]);
  });

  it('attachEnvelope replaces any caller envelope with the hub one', () => {
    const env = signer.sign(fields, { now: NOW });
    const out = attachEnvelope({ message: {}, 'x-hub': { forged: true } }, env);
    expect(out['x-hub']).toBe(env);
  });
});

describe('signing cost', () => {
  it('signs in well under a millisecond', () => {
    for (let i = 0; i < 200; i++) signer.sign(fields, { now: NOW });
    const n = 2000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) signer.sign({ ...fields, messageId: `msg-${i}` }, { now: NOW });
    const microsPerSign = Number(process.hrtime.bigint() - start) / 1000 / n;
    // Generous bound for a loaded CI machine; typical is tens of µs.
    expect(microsPerSign).toBeLessThan(1000);
  });
});

describe('isWellFormed', () => {
  it('refuses exactly the strings with a lone surrogate, as the RFC 8785 pattern does', async () => {
    const { isWellFormed } = await import('../../sdk/contract/envelope.js');
    const cases = [
      '',
      'plain',
      'é ñ 中',
      'a\ud83d\ude00b',
      '\ud800',
      'a\udc00',
      '\ude00\ud83d',
      'x\ud83d',
    ];
    for (const s of cases) expect(isWellFormed(s)).toBe(!/\p{Surrogate}/u.test(s));
    expect(cases.filter((s) => !isWellFormed(s))).toEqual([
      '\ud800',
      'a\udc00',
      '\ude00\ud83d',
      'x\ud83d',
    ]);
  });
});
