// What a research request asks, from JSON fields or plain language ("profile of Acme Pharma",
// "entities related to Acme Pharma", "companies seen by trials and fda"). Readers return undefined
// when the text is not for their skill, so the next skill may claim it.
import { z } from 'zod';
import { KINDS, limitField, without, limitOf } from '../kit/public-data/index.js';

const name = z.string().trim().min(1).max(200);
const kind = z.enum(KINDS);

export const ProfileInput = z.object({
  name,
  kind: kind.optional(),
  /** Ask the other public-data agents first (default true for companies). */
  fill: z.boolean().optional(),
});
export type ProfileInput = z.output<typeof ProfileInput>;

export const RelatedInput = ProfileInput.extend({ limit: limitField });
export type RelatedInput = z.output<typeof RelatedInput>;

export const QueryInput = z
  .object({
    text: z.string().trim().max(300).optional(),
    kinds: z.array(kind).min(1).max(KINDS.length).optional(),
    /** Datasets (e.g. "openFDA") or agent aliases (e.g. "fda") that must all have seen it. */
    datasets: z.array(z.string().trim().min(1).max(100)).max(10).optional(),
    limit: limitField,
  })
  .refine((q) => (q.text ?? '') !== '' || (q.datasets?.length ?? 0) > 0, {
    message: 'give `text` (names to look for) or `datasets` (that must all have seen it)',
    path: ['text'],
  });
export type QueryInput = z.output<typeof QueryInput>;

const GRAPH_ONLY =
  /\b(?:from the graph only|graph only|without asking(?: the (?:other )?agents)?|no fill)\b/i;

function withFill(t: string): { text: string; fill?: boolean } {
  if (!GRAPH_ONLY.test(t)) return { text: t };
  return { text: without(t, new RegExp(GRAPH_ONLY.source, 'gi')), fill: false };
}

function clean(s: string): string {
  return without(s, /^(?:the\s+company\s+|company\s+)|[?.!]+$/gi);
}

const RELATED =
  /\b(?:(?:entities|companies|people|who(?:'s| is)?|what(?:'s| is)?)\s+)?(?:related to|connected to|linked to|associated with|connections of|relations of|relationships of|network of|neighbou?rs of)\s+(.+)$/i;

export function relatedFromText(t: string): z.input<typeof RelatedInput> | undefined {
  const f = withFill(t);
  const m = RELATED.exec(f.text);
  if (!m) return undefined;
  const n = clean(without(m[1]!, /\b(?:top|first)\s+\d{1,3}\b/gi));
  if (n === '') return undefined;
  return {
    name: n,
    ...limitOf(f.text),
    ...(f.fill === false ? { fill: false } : {}),
  };
}

const PROFILE = [
  /^(?:please\s+)?(?:(?:show|give|get|build|make)\s+(?:me\s+)?)?(?:an?\s+|the\s+)?(?:entity\s+|company\s+|full\s+)?(?:profile|dossier|overview)\s+(?:of|for|on|about)\s+(.+)$/i,
  /^(?:tell me about|who is|who are|what is|what do you know about|everything (?:about|on)|look up|lookup)\s+(.+)$/i,
  /^(.+?)(?:['’]s)?\s+(?:profile|dossier)$/i,
];

export function profileFromText(t: string): z.input<typeof ProfileInput> | undefined {
  const f = withFill(t);
  for (const re of PROFILE) {
    const m = re.exec(f.text);
    if (!m) continue;
    const n = clean(m[1]!);
    if (n !== '') return { name: n, ...(f.fill === false ? { fill: false } : {}) };
  }
  return undefined;
}

const SMALL_TALK = /^(?:help|hi|hello|hey|what can you do|usage|\?)$/i;

export function queryFromText(t: string): z.input<typeof QueryInput> | undefined {
  if (SMALL_TALK.test(t.trim())) return undefined;
  const text = without(t, /\b(?:top|first)\s+\d{1,3}\b/gi);
  if (text === '') return undefined;
  return { text, ...limitOf(t) };
}

/** Kinds named in plain language: "companies", "people", "facilities", "products". */
const KIND_WORDS: Array<[RegExp, (typeof KINDS)[number]]> = [
  [
    /\b(?:compan(?:y|ies)|firms?|organi[sz]ations?|sponsors?|manufacturers?|assignees?)\b/gi,
    'company',
  ],
  [/\b(?:people|persons?|inventors?|individuals)\b/gi, 'person'],
  [/\b(?:facilit(?:y|ies)|plants?|sites?)\b/gi, 'facility'],
  [/\b(?:products?|drugs?|medicines?)\b/gi, 'product'],
];

export function kindsIn(t: string): { kinds: Array<(typeof KINDS)[number]>; rest: string } {
  const kinds: Array<(typeof KINDS)[number]> = [];
  let rest = t;
  for (const [re, k] of KIND_WORDS) {
    if (re.test(rest)) {
      kinds.push(k);
      rest = without(rest, re);
    }
    re.lastIndex = 0;
  }
  return { kinds, rest };
}

/** Words of a cross-dataset question that are not names. */
export const QUERY_FILLER =
  /\b(?:which|what|who|show|list|find|search|me|all|any|the|a|an|in|on|by|from|of|both|and|or|also|every|each|seen|appear(?:s|ing)?|found|present|listed|known|that|are|is|were|was|with|datasets?|agents?|graph|entity|entities|across|for|named|called|like)\b/gi;

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Datasets named in the text, by dataset name ("openFDA", "EPA ECHO") or by the alias of the agent
 * that wrote them ("fda", "trials"); the text without them.
 */
export function datasetsIn(
  t: string,
  known: ReadonlyArray<{ dataset: string; alias: string | undefined }>
): { datasets: string[]; rest: string } {
  const found: string[] = [];
  let rest = t;
  // Longer names first, so "EPA ECHO" is taken before "epa".
  const names = known
    .flatMap((k) => [
      { word: k.dataset, dataset: k.dataset },
      ...(k.alias ? [{ word: k.alias, dataset: k.dataset }] : []),
    ])
    .sort((a, b) => b.word.length - a.word.length);
  for (const n of names) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${escape(n.word)}(?![\\p{L}\\p{N}])`, 'giu');
    if (re.test(rest)) {
      if (!found.includes(n.dataset)) found.push(n.dataset);
      rest = rest.replace(re, ' ');
    }
  }
  return { datasets: found, rest: rest.replace(/\s+/g, ' ').trim() };
}
