// A patent as the agent answers it, whichever upstream it came from, and what every upstream
// adapter offers (odp.ts, patentsview.ts).
import type { Provenance } from '../kit/public-data/index.js';
import type { PatentRef } from './parse.js';

export interface Patent {
  patentNumber?: string;
  applicationNumber?: string;
  title: string;
  abstract?: string;
  filingDate?: string;
  grantDate?: string;
  status?: string;
  assignees: string[];
  inventors: string[];
  cpc: string[];
  url: string;
  /** The upstream's own relevance score, when it gives one. */
  score?: number;
}

export interface Found {
  patents: Patent[];
  total: number;
  provenance: Provenance[];
}

export interface PatentSource {
  /** The upstream's name in replies and provenance. */
  readonly source: string;
  search(concept: string, want: number, maxPages: number): Promise<Found>;
  byAssignee(assignee: string, want: number, maxPages: number): Promise<Found>;
  detail(ref: PatentRef): Promise<{ patent: Patent | undefined; provenance: Provenance[] }>;
}

/** Where people read a patent: Google Patents for a patent, Patent Center for an application. */
export function patentUrl(
  patentNumber: string | undefined,
  applicationNumber: string | undefined
): string {
  if (patentNumber) return `https://patents.google.com/patent/US${patentNumber}`;
  return `https://patentcenter.uspto.gov/applications/${applicationNumber ?? ''}`;
}

/** The same patent, whatever number identifies it. */
export function samePatent(a: Patent, b: Patent): boolean {
  return (
    (a.patentNumber !== undefined && a.patentNumber === b.patentNumber) ||
    (a.applicationNumber !== undefined && a.applicationNumber === b.applicationNumber)
  );
}
