// What the congress-trades agent reads and answers: filings (one report of one member), the rows of
// a report, and trades (a row with its member and report).
export type Chamber = 'house' | 'senate';
export const CHAMBERS: readonly Chamber[] = ['house', 'senate'];

/** One periodic transaction report as the chamber's index lists it. */
export interface Filing {
  chamber: Chamber;
  /** As the index names the member: "Hon. Nancy Pelosi", "Tommy Tuberville". */
  member: string;
  first: string;
  last: string;
  /** The House's state and district ("CA11"); the Senate's index has none. */
  state: string | null;
  /** YYYY-MM-DD. */
  filed: string;
  /** The House DocID or the Senate report's id. */
  id: string;
  /** The PDF or the report page. */
  url: string;
  /** A Senate paper filing: images of pages, nothing to read. */
  paper: boolean;
}

/** One transaction row, in either chamber's words mapped to one vocabulary. */
export interface Row {
  /** self, spouse, joint, dependent child (the Senate's own words otherwise). */
  owner: string;
  asset: string;
  ticker: string | null;
  /** The House's code (ST, OP, GS…) or the Senate's "Stock", "Stock Option"… */
  assetType: string | null;
  /** purchase, sale, partial sale, exchange. */
  type: string;
  /** YYYY-MM-DD, the transaction date. */
  date: string | null;
  /** YYYY-MM-DD, the notification date (House only). */
  notified: string | null;
  /** The range the law asks for: "$1,001 - $15,000". */
  amount: string;
  comment?: string | null;
}

/**
 * parsed: rows read; scanned: a PDF without text (not parsed); paper: a Senate paper filing
 * (images, not parsed); missing: the document is not there; unrecognised: text without rows.
 */
export type ReadStatus = 'parsed' | 'scanned' | 'paper' | 'missing' | 'unrecognised';

export interface ReportRead {
  status: ReadStatus;
  rows: Row[];
}

export interface Trade extends Row {
  chamber: Chamber;
  member: string;
  state: string | null;
  filed: string;
  reportId: string;
  reportUrl: string;
}
