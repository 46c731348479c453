// Replies for people (text) and for programs (data) from the memory agent's results.
import type { Memory, ScoredMemory } from './store.js';

/** Longest content shown in a list line; the JSON data always carries the whole text. */
const PREVIEW_CHARS = 200;

export interface MemoryData {
  id: string;
  content: string;
  tags: string[];
  createdAt: string;
}

export interface ScoredData extends MemoryData {
  score: number;
}

export function memoryData(m: Memory): MemoryData {
  return { id: m.id, content: m.content, tags: m.tags, createdAt: m.createdAt.toISOString() };
}

export function scoredData(m: ScoredMemory): ScoredData {
  return { ...memoryData(m), score: round(m.score) };
}

export function renderStored(m: Memory, duplicate: boolean): string {
  const head = duplicate
    ? `🧠 Already remembered (${m.id}), since ${stamp(m.createdAt)}`
    : `🧠 Remembered (${m.id})`;
  return [head, `“${preview(m.content)}”`, ...tagLine(m.tags)].join('\n');
}

export function renderRecall(query: string, results: ScoredMemory[]): string {
  if (results.length === 0) {
    return `🔎 Nothing I remember matches “${preview(query)}”.`;
  }
  const noun = results.length === 1 ? 'memory matches' : 'memories match';
  return [
    `🔎 ${results.length} ${noun} “${preview(query)}”:`,
    ...results.map(
      (m, i) =>
        `${i + 1}. ${preview(m.content)}\n   ${percent(m.score)} match • ${stamp(m.createdAt)} • ${m.id}${tagSuffix(m.tags)}`
    ),
  ].join('\n');
}

export function renderForgotten(forgotten: Memory[], query?: string): string {
  if (forgotten.length === 0) {
    return `🗑️ Nothing I remember matches “${preview(query ?? '')}” closely enough to forget; nothing was deleted.`;
  }
  const noun = forgotten.length === 1 ? 'memory' : 'memories';
  const head =
    query === undefined
      ? `🗑️ Forgot ${forgotten.length} ${noun}:`
      : `🗑️ Forgot ${forgotten.length} ${noun} matching “${preview(query)}”:`;
  return [head, ...forgotten.map((m) => `• ${m.id} — ${preview(m.content)}`)].join('\n');
}

export function renderList(
  memories: Memory[],
  page: { total: number; limit: number; offset: number }
): string {
  if (page.total === 0) return '📋 No memories yet. Store one with “Remember this: …”.';
  if (memories.length === 0) {
    return `📋 No memories at offset ${page.offset}; you have ${page.total}.`;
  }
  const first = page.offset + 1;
  const last = page.offset + memories.length;
  const lines = [
    `📋 Your memories ${first}–${last} of ${page.total} (newest first):`,
    ...memories.map(
      (m, i) =>
        `${first + i}. ${stamp(m.createdAt)} — ${preview(m.content)} (${m.id})${tagSuffix(m.tags)}`
    ),
  ];
  if (last < page.total) {
    lines.push(`➡️ More: List my recent memories (limit: ${page.limit}, offset: ${last})`);
  }
  return lines.join('\n');
}

/** "2026-11-22 09:41 UTC". */
export function stamp(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** One line, at most PREVIEW_CHARS characters. */
export function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= PREVIEW_CHARS ? flat : `${flat.slice(0, PREVIEW_CHARS - 1).trimEnd()}…`;
}

function tagLine(tags: string[]): string[] {
  return tags.length > 0 ? [`🏷️ ${tags.join(', ')}`] : [];
}

function tagSuffix(tags: string[]): string {
  return tags.length > 0 ? ` 🏷️ ${tags.join(', ')}` : '';
}

function percent(score: number): string {
  return `${Math.round(Math.max(0, score) * 100)}%`;
}

function round(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}
