// Agent cards (decisions.md §1 "Agent cards"; spec "Agent card"): the registered-card schema, the
// three renderings checked against @a2a-js/sdk 1.3 (v1.0 ProtoJSON, v0.3 types and parser), ETags.
import { AgentCard } from '@a2a-js/sdk';
import { isLegacyAgentCard, parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import type { LegacyRestTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../errors/index.js';
import { AgentCardInput, v1Interface } from './card-input.js';
import { cardV03, cardV1, etagOf, registeredCard } from './cards.js';
import { parseParams } from './parse-params.js';

type SdkV03Card = Awaited<
  ReturnType<LegacyRestTransportHandler['getAuthenticatedExtendedAgentCard']>
>;

const target = { publicUrl: 'https://hub.example/', agentId: 'agent-0123456789ab' };
const ENDPOINT = 'https://hub.example/agents/agent-0123456789ab/a2a';

const registered = {
  name: 'Charts',
  description: 'Draws charts',
  url: 'https://charts.internal/a2a',
  version: '2.1.0',
  provider: { organization: 'Acme' },
  capabilities: { streaming: false, pushNotifications: false },
  defaultOutputModes: ['image/png'],
  skills: [
    {
      id: 'bar',
      name: 'Bar chart',
      description: 'A bar chart from CSV',
      tags: ['chart'],
      examples: ['bar of a,b'],
      inputModes: ['text/csv'],
      outputModes: ['image/svg+xml'],
    },
    { id: 'help', name: 'Help', description: 'How to use', tags: [] },
  ],
};

function field(input: unknown): unknown {
  try {
    parseParams(AgentCardInput, input);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidParamsError);
    return (err as InvalidParamsError).data;
  }
  throw new Error('expected the card to be refused');
}

describe('AgentCardInput', () => {
  it('accepts the spec card and fills examples', () => {
    const card = AgentCardInput.parse(registered);
    expect(card.url).toBe('https://charts.internal/a2a');
    expect(card.skills[1]?.examples).toEqual([]);
  });

  it('fills in what a partial card omits with the default card (decisions.md §11)', () => {
    const { capabilities: _c, defaultOutputModes: _o, skills: _s, ...partial } = registered;
    expect(AgentCardInput.parse(partial)).toMatchObject({
      capabilities: { streaming: false, pushNotifications: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    });
    expect(AgentCardInput.parse({ ...partial, capabilities: { streaming: true } })).toMatchObject({
      capabilities: { streaming: true, pushNotifications: false },
    });
  });

  it('names the bad field', () => {
    const { name: _n, ...noName } = registered;
    expect(field(noName)).toEqual({ field: 'name' });
    expect(field({ ...registered, version: 'one' })).toEqual({ field: 'version' });
    expect(field({ ...registered, capabilities: { streaming: 'yes' } })).toEqual({
      field: 'capabilities.streaming',
    });
    expect(field({ ...registered, skills: [{ id: 'x', name: 'X', description: '' }] })).toEqual({
      field: 'skills.0.tags',
    });
    const dup = { ...registered, skills: [registered.skills[0], registered.skills[0]] };
    expect(field(dup)).toEqual({ field: 'skills.1.id' });
    expect(field({ ...registered, url: undefined })).toEqual({ field: 'url' });
    expect(field({ ...registered, url: 'not a url' })).toEqual({ field: 'url' });
  });

  it('takes a standard v1.0 card, whose endpoint is in supportedInterfaces', () => {
    const v1 = {
      ...registered,
      url: undefined,
      supportedInterfaces: [
        { url: 'https://std.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    };
    const card = AgentCardInput.parse(v1);
    expect(card.url).toBe('https://std.example/rpc');
    expect(v1Interface(card)?.url).toBe('https://std.example/rpc');
    expect(v1Interface(AgentCardInput.parse(registered))).toBeUndefined();
  });
});

describe('cardV1', () => {
  const card = cardV1(AgentCardInput.parse(registered), target);

  it('points both interfaces at the hub endpoint, with bearer auth', () => {
    expect(card).toEqual({
      name: 'Charts',
      description: 'Draws charts',
      supportedInterfaces: [
        { url: ENDPOINT, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: ENDPOINT, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      provider: { organization: 'Acme' },
      version: '2.1.0',
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['image/png'],
      skills: [
        {
          id: 'bar',
          name: 'Bar chart',
          description: 'A bar chart from CSV',
          tags: ['chart'],
          examples: ['bar of a,b'],
          inputModes: ['text/csv'],
          outputModes: ['image/svg+xml'],
        },
        { id: 'help', name: 'Help', description: 'How to use', tags: [], examples: [] },
      ],
    });
    expect(JSON.stringify(card)).not.toContain('charts.internal');
  });

  it('is read field for field by the SDK (AgentCard.fromJSON/toJSON)', () => {
    const decoded = AgentCard.fromJSON(card);
    expect(decoded.securitySchemes.bearer?.scheme).toEqual({
      $case: 'httpAuthSecurityScheme',
      value: { description: '', scheme: 'Bearer', bearerFormat: '' },
    });
    expect(decoded.supportedInterfaces[0]).toEqual({
      url: ENDPOINT,
      protocolBinding: 'JSONRPC',
      tenant: '',
      protocolVersion: '1.0',
    });
    const back = AgentCard.toJSON(decoded) as typeof card;
    expect(back.skills[1]).toEqual({ id: 'help', name: 'Help', description: 'How to use' });
    expect(back.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
    expect({
      ...back,
      skills: card.skills,
      securityRequirements: card.securityRequirements,
    }).toEqual(card);
    expect(isLegacyAgentCard(card)).toBe(false);
  });
});

describe('cardV03', () => {
  it('has the SDK v0.3 card type and parses as a legacy card', () => {
    const card: SdkV03Card = cardV03(AgentCardInput.parse(registered), target);
    expect(card).toMatchObject({
      protocolVersion: '0.3',
      url: ENDPOINT,
      preferredTransport: 'JSONRPC',
      provider: { organization: 'Acme', url: '' },
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      security: [{ bearer: [] }],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['image/png'],
    });
    expect(isLegacyAgentCard(card)).toBe(true);
    const core = parseLegacyAgentCard(card);
    expect(core.supportedInterfaces).toEqual([
      { url: ENDPOINT, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ]);
    expect(core.skills.map((s) => s.id)).toEqual(['bar', 'help']);
  });
});

describe('registeredCard', () => {
  it('is the spec card with the hub id and endpoint, the agent capabilities as declared', () => {
    expect(registeredCard(AgentCardInput.parse(registered), target)).toEqual({
      id: 'agent-0123456789ab',
      name: 'Charts',
      description: 'Draws charts',
      url: ENDPOINT,
      version: '2.1.0',
      provider: { organization: 'Acme' },
      capabilities: { streaming: false, pushNotifications: false },
      skills: cardV1(AgentCardInput.parse(registered), target).skills,
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['image/png'],
    });
  });
});

describe('etagOf', () => {
  it('is a strong, quoted tag that ignores key order and follows content', () => {
    const a = etagOf({ x: 1, y: [1, { b: 2, a: 1 }] });
    expect(a).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(etagOf({ y: [1, { a: 1, b: 2 }], x: 1 })).toBe(a);
    expect(etagOf({ x: 2, y: [1, { a: 1, b: 2 }] })).not.toBe(a);
  });
});
