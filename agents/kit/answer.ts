// A handler's result as the answer the hub records: text for people, or the structured data as an
// application/json data part when the caller asked for JSON.
import { newArtifactId, type AgentAnswer, type Artifact } from '../../runtime/protocol/index.js';
import type { AgentResult } from './types.js';

export function toAnswer(r: AgentResult, json: boolean): AgentAnswer {
  if (typeof r === 'string') {
    return { state: 'completed', artifacts: [textArtifact(r)] };
  }
  const artifacts: Artifact[] = [...(r.artifacts ?? [])];
  if (json && r.data !== undefined) artifacts.unshift(dataArtifact(r.data));
  else if (r.text !== undefined) artifacts.unshift(textArtifact(r.text));
  else if (r.data !== undefined) artifacts.unshift(textArtifact(JSON.stringify(r.data, null, 2)));
  return {
    state: r.state ?? 'completed',
    ...(r.statusText !== undefined ? { statusText: r.statusText } : {}),
    artifacts,
  };
}

function textArtifact(text: string): Artifact {
  return { artifactId: newArtifactId(), parts: [{ kind: 'text', text }] };
}

function dataArtifact(data: unknown): Artifact {
  return {
    artifactId: newArtifactId(),
    parts: [{ kind: 'data', mimeType: 'application/json', data: JSON.stringify(data) }],
  };
}
