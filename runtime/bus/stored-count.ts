// How many messages a stream holds under a subject filter, as its leader counts them (stream
// info with `subjects_filter`): what a replay of those subjects must read.
import type { Bus } from './connection.js';

export async function storedCount(bus: Bus, stream: string, filter: string): Promise<number> {
  const info = await bus.jsm.streams.info(stream, { subjects_filter: filter });
  let n = 0;
  for (const c of Object.values(info.state.subjects ?? {})) n += c;
  return n;
}
