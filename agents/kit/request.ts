// What the kit reads from a request before the handler sees it: a JSON body, and whether the caller
// wants JSON back.

/** The text as a JSON object when it is one; undefined for any other text (plain language). */
export function parseJsonText(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * JSON when the caller accepts application/json but not text/plain, or its JSON request says
 * `"format": "json"`.
 */
export function wantsJson(
  configuration: Record<string, unknown>,
  json: Record<string, unknown> | undefined
): boolean {
  if (json?.format === 'json') return true;
  const modes = configuration.acceptedOutputModes;
  return (
    Array.isArray(modes) &&
    modes.includes('application/json') &&
    !modes.includes('text/plain') &&
    !modes.includes('text/markdown')
  );
}
