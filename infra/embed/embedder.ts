// Text embeddings for semantic matching (decisions.md §10): the concierge ranks agents, crm and
// memory rank records, by the cosine of unit vectors. Vectors from different embedders (or models)
// are not comparable; `id` names the space, and stored vectors carry it.
export interface Embedder {
  /** The vector space, e.g. "local-hash-v1" or "openai:text-embedding-3-small". */
  readonly id: string;
  /** One unit-length vector per text, in order. An empty or wordless text gives the zero vector. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** Cosine of two unit vectors (their dot product); 0 when the lengths differ. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** A PostgreSQL real[] literal, for `${pgVector(v)}::real[]` parameters. */
export function pgVector(v: Float32Array): string {
  let s = '{';
  for (let i = 0; i < v.length; i++)
    s += (i === 0 ? '' : ',') + (v[i] === 0 ? '0' : v[i]!.toPrecision(6));
  return s + '}';
}

/** A real[] column value (postgres.js returns number[]) back as a vector. */
export function fromPg(v: readonly number[] | null | undefined): Float32Array {
  return Float32Array.from(v ?? []);
}
