// Reading a plain-language request: no prefix routes it, `research:` fans it out, `find:` browses
// the directory (interface-spec "Official agents": concierge).
export const Modes = { route: 'route', research: 'research', find: 'find' } as const;
export type Mode = (typeof Modes)[keyof typeof Modes];

export interface Intent {
  mode: Mode;
  /** What to match agents against (and, for route and research, what to forward). */
  query: string;
}

const PREFIX = /^\s*(research|find)\s*:\s*/i;

/** The intent of a text request; undefined when there is nothing to act on. */
export function parseRequest(text: string): Intent | undefined {
  const m = PREFIX.exec(text);
  if (m) {
    const mode = m[1]!.toLowerCase() as Mode;
    return { mode, query: text.slice(m[0].length).trim() };
  }
  const query = text.trim();
  return query === '' ? undefined : { mode: Modes.route, query };
}

/** The three forms with examples: the reply to an empty or unreadable request. */
export const USAGE = [
  'tell the concierge what you need, in one of three forms:',
  '• a plain request is routed to the best agent, e.g. "will it rain in Paris tomorrow?"',
  '• "research: <question>" asks several agents and summarizes their answers, e.g. "research: notice period in a services contract"',
  '• "find: <words>" lists matching agents without calling them, e.g. "find: weather forecast"',
  'or JSON: {"action": "route" | "research" | "find", "query": "…"}',
].join('\n');

/** The words of a text, lowercased, for the tag and alias hits of the ranking. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);
}

/** Folds the plural "s" so "contracts" hits a "contract" tag; deliberately no more than that. */
function stem(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}
