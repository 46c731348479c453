// LDA's general issue area codes (the LD-2 form's list) and the words people use for them, so that
// "healthcare", "taxes" or "HCR" all name the area a filing's activities are filed under.

/** Code → the name LDA displays. */
export const ISSUE_AREAS: Readonly<Record<string, string>> = {
  ACC: 'Accounting',
  ADV: 'Advertising',
  AER: 'Aerospace',
  AGR: 'Agriculture',
  ALC: 'Alcohol and Drug Abuse',
  ANI: 'Animals',
  APP: 'Apparel/Clothing Industry/Textiles',
  ART: 'Arts/Entertainment',
  AUT: 'Automotive Industry',
  AVI: 'Aviation/Aircraft/Airlines',
  BAN: 'Banking',
  BNK: 'Bankruptcy',
  BEV: 'Beverage Industry',
  BUD: 'Budget/Appropriations',
  CAW: 'Clean Air and Water (Quality)',
  CDT: 'Commodities (Big Ticket)',
  CHM: 'Chemicals/Chemical Industry',
  CIV: 'Civil Rights/Civil Liberties',
  COM: 'Communications/Broadcasting/Radio/TV',
  CPI: 'Computer Industry',
  CPT: 'Copyright/Patent/Trademark',
  CSP: 'Consumer Issues/Safety/Products',
  CON: 'Constitution',
  DEF: 'Defense',
  DIS: 'Disaster Planning/Emergencies',
  DOC: 'District of Columbia',
  ECN: 'Economics/Economic Development',
  EDU: 'Education',
  ENG: 'Energy/Nuclear',
  ENV: 'Environmental/Superfund',
  FAM: 'Family Issues/Abortion/Adoption',
  FIN: 'Financial Institutions/Investments/Securities',
  FIR: 'Firearms/Guns/Ammunition',
  FOO: 'Food Industry (Safety, Labeling, etc.)',
  FOR: 'Foreign Relations',
  FUE: 'Fuel/Gas/Oil',
  GAM: 'Gaming/Gambling/Casino',
  GOV: 'Government Issues',
  HCR: 'Health Issues',
  HOM: 'Homeland Security',
  HOU: 'Housing',
  IMM: 'Immigration',
  IND: 'Indian/Native American Affairs',
  INS: 'Insurance',
  INT: 'Intelligence and Surveillance',
  LAW: 'Law Enforcement/Crime/Criminal Justice',
  LBR: 'Labor Issues/Antitrust/Workplace',
  MAN: 'Manufacturing',
  MAR: 'Marine/Maritime/Boating/Fisheries',
  MED: 'Medical/Disease Research/Clinical Labs',
  MIA: 'Media (Information/Publishing)',
  MMM: 'Medicare/Medicaid',
  MON: 'Minting/Money/Gold Standard',
  NAT: 'Natural Resources',
  PHA: 'Pharmacy',
  POS: 'Postal',
  RES: 'Real Estate/Land Use/Conservation',
  RET: 'Retirement',
  ROD: 'Roads/Highway',
  RRR: 'Railroads',
  SCI: 'Science/Technology',
  SMB: 'Small Business',
  SPO: 'Sports/Athletics',
  TAR: 'Miscellaneous Tariff Bills',
  TAX: 'Taxation/Internal Revenue Code',
  TEC: 'Telecommunications',
  TOB: 'Tobacco',
  TOR: 'Torts',
  TRD: 'Trade (Domestic & Foreign)',
  TRA: 'Transportation',
  TOU: 'Travel/Tourism',
  TRU: 'Trucking/Shipping',
  URB: 'Urban Development/Municipalities',
  UNM: 'Unemployment',
  UTI: 'Utilities',
  VET: 'Veterans',
  WAS: 'Waste (hazardous/solid/interstate/nuclear)',
  WEL: 'Welfare',
};

/** Everyday words for an area, beyond the words of its LDA name (checked first). */
const SYNONYMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:health ?care|health|hospitals?|healthcare)\b/i, 'HCR'],
  [/\b(?:medicare|medicaid)\b/i, 'MMM'],
  [/\b(?:drug prices?|pharmac(?:y|ies)|pharmaceuticals?|pharma)\b/i, 'PHA'],
  [/\b(?:tax(?:es|ation)?|irs)\b/i, 'TAX'],
  [/\b(?:defen[cs]e|military|pentagon)\b/i, 'DEF'],
  [/\b(?:energy|nuclear|electricity)\b/i, 'ENG'],
  [/\b(?:environment(?:al)?|superfund|climate)\b/i, 'ENV'],
  [/\b(?:oil|gas|fuel|petroleum)\b/i, 'FUE'],
  [/\b(?:guns?|firearms?|ammunition)\b/i, 'FIR'],
  [/\b(?:immigration|visas?|border)\b/i, 'IMM'],
  [/\b(?:tele(?:com|communications)|broadband|spectrum)\b/i, 'TEC'],
  [/\b(?:banks?|banking)\b/i, 'BAN'],
  [/\b(?:finance|financial|securities|crypto(?:currency)?|investments?)\b/i, 'FIN'],
  [/\b(?:trade|tariffs?|exports?|imports?)\b/i, 'TRD'],
  [/\b(?:education|schools?|student loans?|universit(?:y|ies))\b/i, 'EDU'],
  [/\b(?:agricultur(?:e|al)|farm(?:s|ing|ers)?|crops?)\b/i, 'AGR'],
  [/\b(?:technology|science|artificial intelligence|ai)\b/i, 'SCI'],
  [/\b(?:computers?|software|internet|tech industry)\b/i, 'CPI'],
  [/\b(?:copyright|patents?|trademarks?|intellectual property)\b/i, 'CPT'],
  [/\b(?:transportation|transit)\b/i, 'TRA'],
  [/\b(?:aviation|airlines?|aircraft)\b/i, 'AVI'],
  [/\b(?:labou?r|unions?|antitrust|workplace)\b/i, 'LBR'],
  [/\b(?:housing|mortgages?)\b/i, 'HOU'],
  [/\b(?:insurance)\b/i, 'INS'],
  [/\b(?:homeland security|cyber ?security)\b/i, 'HOM'],
  [/\b(?:tobacco|vaping|e-cigarettes?)\b/i, 'TOB'],
  [/\b(?:veterans?)\b/i, 'VET'],
  [/\b(?:budget|appropriations?|spending bills?)\b/i, 'BUD'],
];

/** The area a text names: its code ("HCR"), its LDA name, or a common word for it. */
export function issueIn(text: string): string | undefined {
  const code = /\b([A-Z]{3})\b/.exec(text)?.[1];
  if (code !== undefined && ISSUE_AREAS[code] !== undefined) return code;
  for (const [re, c] of SYNONYMS) if (re.test(text)) return c;
  const t = text.toLowerCase();
  for (const [c, name] of Object.entries(ISSUE_AREAS)) {
    const parts = name
      .toLowerCase()
      .split(/[/(),]/)
      .map((s) => s.trim())
      .filter((s) => s.length >= 4);
    if (parts.some((p) => new RegExp(`\\b${escape(p)}\\b`).test(t))) return c;
  }
  return undefined;
}

/** A code, or an area's name or common word, as LDA's code; undefined when it names none. */
export function issueCode(asked: string): string | undefined {
  const up = asked.trim().toUpperCase();
  if (ISSUE_AREAS[up] !== undefined) return up;
  return issueIn(asked);
}

export function issueLabel(code: string): string {
  return `${ISSUE_AREAS[code] ?? code} (${code})`;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
