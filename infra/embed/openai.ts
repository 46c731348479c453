// An OpenAI-compatible embeddings endpoint (POST {url}/embeddings {model, input}); vLLM, Ollama's
// OpenAI API and others answer the same shape. Vectors are scaled to unit length, since not every
// server returns normalized ones.
import { UnavailableError } from '../../runtime/errors/index.js';
import type { Embedder } from './embedder.js';

export interface OpenAiEmbedderOptions {
  url: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs: number;
}

interface EmbeddingsReply {
  data?: Array<{ index?: number; embedding?: number[] }>;
}

export function createOpenAiEmbedder(o: OpenAiEmbedderOptions): Embedder {
  const endpoint = `${o.url.replace(/\/+$/, '')}/embeddings`;
  return {
    id: `openai:${o.model}`,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const timeout = AbortSignal.timeout(o.timeoutMs);
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: o.model, input: texts }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        throw new UnavailableError('the embeddings service did not answer', err);
      }
      if (!res.ok) {
        throw new UnavailableError(`the embeddings service answered HTTP ${res.status}`);
      }
      const body = (await res.json()) as EmbeddingsReply;
      const data = body.data ?? [];
      if (data.length !== texts.length) {
        throw new UnavailableError(
          `the embeddings service returned ${data.length} vectors for ${texts.length} texts`
        );
      }
      const out = new Array<Float32Array>(texts.length);
      data.forEach((d, i) => {
        out[d.index ?? i] = unit(Float32Array.from(d.embedding ?? []));
      });
      return out;
    },
  };
}

function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  if (n > 0) {
    const k = 1 / Math.sqrt(n);
    for (let i = 0; i < v.length; i++) v[i]! *= k;
  }
  return v;
}
