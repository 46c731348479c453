// Placement arithmetic: which partition a key falls in, and which live node owns a partition.
// Rendezvous (highest-random-weight) hashing moves only the partitions of a node that joins or leaves.

export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mixes the bits of a 32-bit value (murmur3 finalizer) so nearby inputs spread out. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function partitionOf(key: string, partitions: number): number {
  return fnv1a32(key) % partitions;
}

/** The node with the highest weight for this partition; ties (never in practice) go to the smaller id. */
export function ownerOf(partition: number, nodeIds: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestW = -1;
  for (const id of nodeIds) {
    const w = mix32(fnv1a32(id) ^ mix32(partition + 1));
    if (w > bestW || (w === bestW && best !== undefined && id < best)) {
      best = id;
      bestW = w;
    }
  }
  return best;
}

export function assignment(partitions: number, nodeIds: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>(nodeIds.map((n) => [n, []]));
  for (let p = 0; p < partitions; p++) {
    const o = ownerOf(p, nodeIds);
    if (o !== undefined) out.get(o)!.push(p);
  }
  return out;
}
