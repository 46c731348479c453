// crm (agent-crm-official): one CRM per tenant — people, organisations, products, deals and types
// of the caller's own, with typed metadata, links, interactions and search by meaning. JSON
// requests name an action; plain language is mapped onto the same actions by parse.ts.
import {
  defineAgent,
  describeActions,
  fail,
  runAction,
  type AgentContext,
  type AgentRequest,
  type AgentResult,
} from '../kit/index.js';
import { actions } from './actions.js';
import { HELP, parseRequest, type Intent } from './parse.js';

type Step = { text?: string; data?: unknown };

function asStep(r: AgentResult): Step {
  return typeof r === 'string' ? { text: r } : r;
}

/** "Add person …, works at …": the entity first, then each link from it (creating the target). */
async function runUpsert(
  intent: Extract<Intent, { kind: 'upsert' }>,
  req: AgentRequest,
  ctx: AgentContext
): Promise<AgentResult> {
  const first = asStep(await runAction(actions, intent.payload, req, ctx));
  if (intent.links.length === 0) return first;
  const entityId = (first.data as { entity: { id: string } }).entity.id;
  const steps: Step[] = [first];
  for (const l of intent.links) {
    const payload = {
      action: 'link:create',
      from: entityId,
      to: l.to,
      to_type: l.toType,
      relation: l.relation,
      create_missing: true,
    };
    steps.push(asStep(await runAction(actions, payload, req, ctx)));
  }
  return { text: steps.map((s) => s.text).join('\n'), data: { results: steps.map((s) => s.data) } };
}

export default defineAgent({
  id: 'agent-crm-official',
  alias: 'crm',
  category: 'productivity',
  tags: ['crm', 'contacts', 'organisations', 'deals', 'sales', 'semantic search'],
  card: {
    name: 'CRM',
    description:
      "Your tenant's CRM: people, organisations, products and deals with typed metadata, links, logged interactions, search by meaning and metadata queries. Plain language or JSON actions.",
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'entities',
        name: 'Entities',
        description:
          'Create or update people, organisations, products, deals (or types of your own) with a description and typed metadata; show one with its links and interactions.',
        tags: ['crm', 'contacts', 'upsert'],
        examples: [
          'Add person Ada Lovelace, email ada@example.com, works at Analytical Engines',
          'Get Ada Lovelace',
          '{"action":"entity:upsert","type":"deal","name":"Big Deal","metadata":{"probability":0.6}}',
        ],
      },
      {
        id: 'search',
        name: 'Search',
        description:
          'Find entities by the meaning of their names and descriptions, or by metadata filters (eq, gt, gte, lt, lte over numbers, dates and strings).',
        tags: ['crm', 'search', 'semantic search'],
        examples: [
          'Find organisations about solar panels',
          'Deals with probability >= 0.5 closing before 2027-01-01',
          '{"action":"meta:search","type":"deal","filters":[{"key":"probability","op":"gte","value":0.5}]}',
        ],
      },
      {
        id: 'activity',
        name: 'Links and interactions',
        description:
          'Link entities (works_at, purchased, competes_with or your own) and log emails, calls, meetings and notes.',
        tags: ['crm', 'interactions', 'relationships'],
        examples: [
          'Log a call with Ada Lovelace: discussed pricing',
          'Set probability of Big Deal to 0.6',
          '{"action":"link:create","from":"Ada Lovelace","to":"Analytical Engines","relation":"works_at"}',
        ],
      },
    ],
  },
  async handle(req, ctx) {
    if (req.json) return runAction(actions, req.json, req, ctx);
    const intent = parseRequest(req.text);
    if (!intent) fail(`I did not understand "${req.text.trim().slice(0, 200)}".\n${HELP}`);
    switch (intent.kind) {
      case 'help':
        return {
          text: `${HELP}\n\n${describeActions(actions)}`,
          data: { help: HELP, actions: Object.keys(actions) },
        };
      case 'upsert':
        return runUpsert(intent, req, ctx);
      case 'action':
        return runAction(actions, intent.payload, req, ctx);
      default: {
        const never: never = intent;
        return never;
      }
    }
  },
});
