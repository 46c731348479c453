// historyLength as every dialect reads it (spec "SendMessage configuration", A2A GetTask): 0 gives
// no messages, n gives the last n, absent gives all.

/** The last `historyLength` items of `messages` (all when undefined, none when 0). */
export function applyHistoryLength<T>(messages: readonly T[], historyLength?: number): T[] {
  if (historyLength === undefined) return [...messages];
  // slice(-0) would return everything, so 0 is handled on its own.
  if (historyLength <= 0) return [];
  return messages.slice(-Math.floor(historyLength));
}
