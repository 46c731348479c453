// acceptedOutputModes against what an agent can produce (spec "Endpoints" rule 5): media ranges
// match with `*/*` and `type/*` wildcards on either side; no overlap is ContentTypeNotSupported.
import { HubError } from '../errors/index.js';

/**
 * What the check reads of a card. Everything is optional: an agent with no card, or a partial one
 * (decisions.md §11), has the default card, which produces text/plain.
 */
export interface DeclaresOutputModes {
  defaultOutputModes?: readonly string[];
  skills?: readonly { outputModes?: readonly string[] }[];
}

export const DEFAULT_OUTPUT_MODES: readonly string[] = ['text/plain'];

/** The card's default output modes and every skill's, or text/plain when it declares none. */
export function outputModesOf(card: DeclaresOutputModes): string[] {
  const modes = new Set([
    ...(card.defaultOutputModes ?? []),
    ...(card.skills ?? []).flatMap((s) => s.outputModes ?? []),
  ]);
  return modes.size > 0 ? [...modes] : [...DEFAULT_OUTPUT_MODES];
}

/** True when the caller accepts nothing in particular, or accepts one thing the agent produces. */
export function acceptsOutputModes(
  card: DeclaresOutputModes,
  accepted: readonly string[] | undefined
): boolean {
  const wanted = (accepted ?? []).map(mediaRange).filter((m) => m !== '');
  if (wanted.length === 0) return true;
  const produced = outputModesOf(card).map(mediaRange);
  return wanted.some((w) => produced.some((p) => mediaRangesMatch(w, p)));
}

/** Throws CONTENT_TYPE_NOT_SUPPORTED (-32005) unless acceptsOutputModes. */
export function assertAcceptsOutputModes(
  card: DeclaresOutputModes,
  accepted: readonly string[] | undefined
): void {
  if (acceptsOutputModes(card, accepted)) return;
  const produced = outputModesOf(card);
  throw new HubError(
    'CONTENT_TYPE_NOT_SUPPORTED',
    `None of the accepted output modes can be produced; the agent produces ${produced.join(', ')}`,
    { data: { acceptedOutputModes: accepted, outputModes: produced } }
  );
}

/** `text/plain; charset=utf-8` → `text/plain`; a bare `*` is `*` + `/*`. */
function mediaRange(mode: string): string {
  const base = mode.split(';')[0]?.trim().toLowerCase() ?? '';
  return base === '*' ? '*/*' : base;
}

export function mediaRangesMatch(a: string, b: string): boolean {
  const x = mediaRange(a);
  const y = mediaRange(b);
  if (x === y || x === '*/*' || y === '*/*') return true;
  const [xType, xSub] = x.split('/');
  const [yType, ySub] = y.split('/');
  return xType === yType && (xSub === '*' || ySub === '*');
}
