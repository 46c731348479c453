// A2A-Version negotiation on the standard endpoint (decisions.md §1): 1.0 (any patch) is v1.0;
// missing, empty or 0.3 (any patch) is v0.3; anything else is -32009 VersionNotSupported.
import { HubError } from '../errors/index.js';
import type { StandardDialect } from './dialect.js';

export const A2A_VERSION_HEADER = 'A2A-Version';
export const SUPPORTED_VERSIONS = ['1.0', '0.3'] as const;

/** The dialect for an `A2A-Version` header value; throws HubError VERSION_NOT_SUPPORTED. */
export function negotiateVersion(header: string | undefined): StandardDialect {
  const value = header?.trim() ?? '';
  if (value === '') return 'v0.3';
  // Major.minor decide; a patch part (1.0.3) is ignored. A bare "1" is read as 1.0, as a2a-js does.
  const match = /^(\d+)(?:\.(\d+)(?:\.\d+)?)?$/.exec(value);
  const major = match?.[1];
  const minor = match?.[2] ?? '0';
  if (major !== undefined) {
    if (Number(major) === 1 && Number(minor) === 0) return 'v1';
    if (Number(major) === 0 && Number(minor) === 3) return 'v0.3';
  }
  throw new HubError('VERSION_NOT_SUPPORTED', `A2A version "${value}" is not supported`, {
    data: { version: value, supported: [...SUPPORTED_VERSIONS] },
  });
}
