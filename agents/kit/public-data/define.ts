// definePublicDataAgent (style B8): a public-data agent is its skills. Each skill takes JSON
// `{"skill": "<id>", …fields}` validated by its zod schema, and plain language through its
// `fromText`; a request no skill claims gets an input-required answer listing what the agent
// can do. Replies carry the skill's text, and its data with the provenance of every upstream call.
import type { z } from 'zod';
import { describeIssues, fail } from '../actions.js';
import type {
  AgentContext,
  AgentRequest,
  AgentResult,
  OfficialAgent,
  SkillCard,
} from '../types.js';
import type { Provenance } from './upstream.js';

/** What a skill answers: text for people and the results as data; the kit adds provenance. */
export interface SkillReply {
  text: string;
  data: Record<string, unknown>;
  provenance: Provenance[];
}

export interface PublicSkill<S extends z.ZodType = z.ZodType> {
  id: string;
  name: string;
  description: string;
  tags: string[];
  /** Plain-language examples first, then a JSON one: the card shows them. */
  examples: string[];
  input: S;
  /** The skill's input read from plain language, or undefined when the text is not for it. */
  fromText(text: string): z.input<S> | undefined;
  run(input: z.output<S>, req: AgentRequest, ctx: AgentContext): Promise<SkillReply>;
}

/** Typed at the definition, erased in the list. */
export function skill<S extends z.ZodType>(s: PublicSkill<S>): PublicSkill {
  return s;
}

export interface PublicDataAgentDef {
  id: string;
  alias: string;
  name: string;
  description: string;
  tags: string[];
  /** Tried in order on plain text: put the most specific first. */
  skills: PublicSkill[];
}

const MODES_IN = ['text/plain', 'application/json'];
const MODES_OUT = ['text/plain', 'application/json'];

export function definePublicDataAgent(d: PublicDataAgentDef): OfficialAgent {
  const cards: SkillCard[] = d.skills.map((s) => ({
    id: s.id,
    name: s.name,
    description: s.description,
    tags: s.tags,
    examples: s.examples,
    inputModes: MODES_IN,
    outputModes: MODES_OUT,
  }));
  return {
    id: d.id,
    alias: d.alias,
    category: 'data',
    tags: d.tags,
    card: {
      name: d.name,
      description: d.description,
      version: '1.0.0',
      capabilities: { streaming: false, pushNotifications: false },
      defaultInputModes: MODES_IN,
      defaultOutputModes: MODES_OUT,
      skills: cards,
    },
    async handle(req, ctx): Promise<AgentResult> {
      const picked = pick(d, req);
      if (picked === undefined) return { state: 'input-required', text: help(d, req.text) };
      const parsed = picked.skill.input.safeParse(picked.input, { reportInput: true });
      if (!parsed.success) fail(`${picked.skill.id}: ${describeIssues(parsed.error)}`);
      const reply = await picked.skill.run(parsed.data, req, ctx);
      return {
        text: [reply.text, sourceLine(reply.provenance)].filter((t) => t !== '').join('\n\n'),
        data: { skill: picked.skill.id, ...reply.data, provenance: reply.provenance },
      };
    },
  };
}

function pick(
  d: PublicDataAgentDef,
  req: AgentRequest
): { skill: PublicSkill; input: unknown } | undefined {
  if (req.json !== undefined) {
    const id = req.json.skill;
    const ids = d.skills.map((s) => `"${s.id}"`).join(', ');
    if (typeof id !== 'string') fail(`say which skill to run: add "skill" with one of ${ids}`);
    const s = d.skills.find((k) => k.id === id);
    if (s === undefined) fail(`unknown skill "${id}"; use one of ${ids}`);
    const { skill: _skill, format: _format, ...input } = req.json;
    return { skill: s, input };
  }
  const text = req.text.replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  for (const s of d.skills) {
    const input = s.fromText(text);
    if (input !== undefined) return { skill: s, input };
  }
  return undefined;
}

function help(d: PublicDataAgentDef, text: string): string {
  const lines = [
    text.trim() === ''
      ? `What would you like from ${d.name}? I can:`
      : `I could not tell what to look up in “${text.trim()}”. I can:`,
    ...d.skills.map((s) => `• ${s.name}: ${s.description} e.g. “${s.examples[0] ?? s.id}”`),
    `Or send JSON {"skill": "${d.skills[0]?.id ?? ''}", …}.`,
  ];
  return lines.join('\n');
}

/** The provenance for people: each source and when it answered. */
export function sourceLine(p: readonly Provenance[]): string {
  if (p.length === 0) return '';
  const seen = new Map<string, { at: string; cached: boolean; calls: number }>();
  for (const x of p) {
    const s = seen.get(x.source);
    if (s === undefined) seen.set(x.source, { at: x.retrievedAt, cached: x.cached, calls: 1 });
    else {
      s.calls += 1;
      s.cached &&= x.cached;
      if (x.retrievedAt < s.at) s.at = x.retrievedAt;
    }
  }
  const parts = [...seen].map(
    ([source, s]) =>
      `${source} (${s.calls} request${s.calls === 1 ? '' : 's'}, retrieved ${s.at}` +
      `${s.cached ? ', cached' : ''})`
  );
  return `📚 Source: ${parts.join('; ')}`;
}
