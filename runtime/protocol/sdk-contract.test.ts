// The contract between the hub and the SDK it ships (sdk/contract is the one copy both build on):
// what the hub signs, the SDK verifies, and both refuse the same tampering for the same reason;
// the JWKS the hub publishes is what the SDK imports; the hub dialect's wire types are what the
// SDK's types declare, and a card the SDK's types allow is one the hub accepts. The SDK is taken as
// agents get it (its public index), not through the hub's re-exports.
import canonicalize from 'canonicalize';
import { describe, expect, expectTypeOf, it } from 'vitest';
/* eslint-disable no-restricted-imports -- this test compares the hub with the SDK as shipped */
import {
  EnvelopeRejections,
  EnvelopeVerifier,
  HubKeys,
  signedBytes,
  TaskStates as SdkTaskStates,
  type AgentCard,
  type Artifact as SdkArtifact,
  type HubEnvelope,
  type Message as SdkMessage,
  type Part as SdkPart,
  type Task as SdkTask,
  type TaskState as SdkTaskState,
} from '../../sdk/index.js';
/* eslint-enable no-restricted-imports */
import {
  EnvelopeRejection,
  EnvelopeSigner,
  generateSigningKey,
  jwksOf,
  verifyEnvelope,
  type Envelope,
  type PublicJwk,
} from '../envelope/index.js';
import { AgentCardInput } from './card-input.js';
import { registeredCard } from './cards.js';
import { encodeTaskHub, type HubArtifact, type HubMessage, type HubTask } from './codec-hub.js';
import { TaskStates, type Part, type Task, type TaskStateName } from './model.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const key = generateSigningKey();
const rotated = generateSigningKey();
const jwks = jwksOf([key, rotated]);
const signer = new EnvelopeSigner(key);
const fields = {
  sender: { agentId: 'agent-000000000001', tenantId: 'tn-1' },
  recipient: { agentId: 'agent-000000000002', tenantId: 'tn-2' },
  taskId: 'task-1',
  contextId: 'ctx-1',
  messageId: 'msg-1',
};

const sdkVerifier = () => new EnvelopeVerifier({ jwks, now: () => NOW });

describe('the x-hub envelope: hub signs, SDK verifies', () => {
  it('an envelope the hub signs verifies in the SDK, with the same fields', async () => {
    const env = signer.sign(fields, { now: NOW });
    const r = await sdkVerifier().verify(JSON.parse(JSON.stringify(env)));
    expect(r).toEqual({ ok: true, envelope: env });
    expect(verifyEnvelope(env, jwks, { now: NOW })).toEqual({ ok: true, envelope: env });
  });

  it('the signed bytes are RFC 8785 canonical JSON on both sides', () => {
    const { sig: _sig, ...unsigned } = signer.sign(fields, { now: NOW });
    expect(signedBytes(unsigned).toString('utf8')).toBe(canonicalize(unsigned));
  });

  const env = signer.sign(fields, { now: NOW });
  const other = new EnvelopeSigner(rotated).sign(fields, { now: NOW });
  it.each<[string, unknown, number]>([
    ['a changed sender tenant', { ...env, sender: { ...env.sender, tenantId: 'tn-evil' } }, NOW],
    ['a longer lifetime', { ...env, exp: env.exp + 3600 }, NOW],
    ['a signature from the other key', { ...env, sig: other.sig }, NOW],
    ['a truncated signature', { ...env, sig: env.sig.slice(0, 20) }, NOW],
    ['an unknown kid', { ...env, kid: 'not-a-kid' }, NOW],
    ['an expired envelope', env, NOW + 3_600_000],
    ['one from the future', env, NOW - 3_600_000],
    ['a missing field', { ...env, taskId: undefined }, NOW],
    ['a lone surrogate', { ...env, contextId: '\ud800' }, NOW],
    ['a wrong version', { ...env, v: 2 }, NOW],
    ['exp before iat', { ...env, exp: env.iat - 1 }, NOW],
  ])('%s is refused by both, for the same reason', async (_name, tampered, now) => {
    const hub = verifyEnvelope(tampered, jwks, { now });
    const sdk = await new EnvelopeVerifier({ jwks, now: () => now }).verify(tampered);
    expect(hub.ok).toBe(false);
    expect(sdk.ok).toBe(false);
    expect(!hub.ok && !sdk.ok && sdk.reason).toBe(!hub.ok && hub.reason);
  });

  it("the hub's refusal reasons are among the SDK's", () => {
    const sdkReasons: string[] = Object.values(EnvelopeRejections);
    for (const reason of Object.values(EnvelopeRejection)) expect(sdkReasons).toContain(reason);
  });

  it('the envelope types are one type', () => {
    expectTypeOf<Envelope>().toEqualTypeOf<HubEnvelope>();
  });
});

describe('the JWKS: hub publishes, SDK imports', () => {
  it('every key the hub publishes is one the SDK uses', async () => {
    const keys = new HubKeys({ jwks });
    for (const k of jwks.keys) expect(await keys.key(k.kid)).not.toBeNull();
    expect(await keys.key('unknown')).toBeNull();
    expectTypeOf(jwks.keys).toEqualTypeOf<PublicJwk[]>();
  });

  it('entries for another algorithm or use are skipped, the rest still verify', async () => {
    const [jwk] = jwks.keys;
    const mixed = {
      keys: [
        { ...jwk, kid: 'enc', use: 'enc' },
        { ...jwk, kid: 'rsa', kty: 'RSA' },
        { ...jwk, kid: 'bad-x', x: '!' },
        jwk,
      ],
    };
    const keys = new HubKeys({ jwks: mixed });
    expect(await keys.key('enc')).toBeNull();
    expect(await keys.key('rsa')).toBeNull();
    expect(await keys.key('bad-x')).toBeNull();
    const env = signer.sign(fields, { now: NOW });
    expect((await new EnvelopeVerifier({ jwks: mixed, now: () => NOW }).verify(env)).ok).toBe(true);
    expect(verifyEnvelope(env, mixed, { now: NOW }).ok).toBe(true);
  });
});

describe('the wire types: hub dialect against the SDK declarations', () => {
  it('task states and parts are the same lists and types', () => {
    expect([...SdkTaskStates]).toEqual([...TaskStates]);
    expectTypeOf<SdkTaskState>().toEqualTypeOf<TaskStateName>();
    expectTypeOf<SdkPart>().toEqualTypeOf<Part>();
  });

  it('what the hub encodes is what the SDK declares (tasks, messages, artifacts)', () => {
    expectTypeOf<HubTask>().toExtend<SdkTask>();
    expectTypeOf<HubMessage>().toExtend<SdkMessage>();
    expectTypeOf<HubArtifact>().toExtend<SdkArtifact>();
    const task: Task = {
      id: 't-1',
      contextId: 'c-1',
      senderId: 'a-1',
      recipientId: 'a-2',
      senderTenantId: 'tn-1',
      recipientTenantId: 'tn-2',
      createdAt: NOW,
      status: { state: 'completed', timestamp: NOW, message: 'done' },
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'hi' }], messageId: 'm-1' }],
      artifacts: [
        { artifactId: 'r-1', parts: [{ kind: 'data', mimeType: 'application/json', data: '{}' }] },
      ],
      events: [],
      rev: 3,
    };
    const wire = JSON.parse(JSON.stringify(encodeTaskHub(task))) as SdkTask;
    expect(SdkTaskStates).toContain(wire.status.state);
    expect(wire.status).toEqual({
      state: 'completed',
      timestamp: new Date(NOW).toISOString(),
      message: 'done',
    });
    expect(wire.history?.[0]?.parts).toEqual([{ kind: 'text', text: 'hi' }]);
  });

  it("a card the SDK's types allow is one the hub accepts, and the hub's card fits the SDK's", () => {
    const card: AgentCard = {
      name: 'Shouter',
      description: 'Answers in capitals.',
      url: 'https://agent.example/a2a',
      version: '1.0.0',
      capabilities: { streaming: false, pushNotifications: false },
      skills: [{ id: 'shout', name: 'Shout', description: 'capitals', tags: ['text'] }],
    };
    const parsed = AgentCardInput.safeParse(card);
    expect(parsed.error).toBeUndefined();
    const out = registeredCard(parsed.data!, { agentId: 'a-1', publicUrl: 'https://hub.example' });
    const asSdk: AgentCard = { ...out }; // compiles only while the hub's card fits the SDK's type
    expect(asSdk.skills[0]?.id).toBe('shout');
  });
});
