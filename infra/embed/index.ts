// Embedders (decisions.md §10): a local, deterministic text embedding by default (no model, no
// network), an OpenAI-compatible embeddings endpoint when one is configured.
import type { Embedder } from './embedder.js';
import { createLocalEmbedder } from './local.js';
import { createOpenAiEmbedder } from './openai.js';

export { cosine, pgVector, fromPg, type Embedder } from './embedder.js';
export { createLocalEmbedder } from './local.js';
export { createOpenAiEmbedder, type OpenAiEmbedderOptions } from './openai.js';

export interface EmbedderConfig {
  /** Base URL of an OpenAI-compatible API (…/v1); undefined uses the local embedder. */
  readonly url: string | undefined;
  readonly model: string;
  readonly apiKey: string | undefined;
  readonly timeoutMs: number;
}

export function createEmbedder(config: EmbedderConfig): Embedder {
  return config.url === undefined
    ? createLocalEmbedder()
    : createOpenAiEmbedder({
        url: config.url,
        model: config.model,
        apiKey: config.apiKey,
        timeoutMs: config.timeoutMs,
      });
}
