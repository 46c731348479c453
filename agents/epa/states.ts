// U.S. states, territories and DC by name and postal code: ECHO's p_st takes the code.
export const STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  PR: 'Puerto Rico',
  GU: 'Guam',
  VI: 'U.S. Virgin Islands',
  AS: 'American Samoa',
  MP: 'Northern Mariana Islands',
};

const BY_NAME = new Map(Object.entries(STATES).map(([code, name]) => [name.toLowerCase(), code]));

/** A state's postal code from its code or name in any case; undefined when it is neither. */
export function stateCode(s: string): string | undefined {
  const t = s.trim().replace(/\.$/, '');
  const up = t.toUpperCase();
  if (up.length === 2 && STATES[up] !== undefined) return up;
  return BY_NAME.get(t.toLowerCase().replace(/\s+/g, ' '));
}

/** Longest state names first, so "West Virginia" wins over "Virginia". */
const NAMES = [...BY_NAME.keys()].sort((a, b) => b.length - a.length);

/** A state named (in full) at the end of a text: its code and where it starts. */
export function trailingState(text: string): { code: string; index: number } | undefined {
  const lower = text.toLowerCase().replace(/[.\s]+$/, '');
  for (const n of NAMES) {
    if (
      lower.endsWith(n) &&
      (lower.length === n.length || /[\s,]/.test(lower[lower.length - n.length - 1]!))
    ) {
      return { code: BY_NAME.get(n)!, index: lower.length - n.length };
    }
  }
  // Two letters count only in capitals ("TX"), so a word ending a sentence ("in") is no state.
  const t = text.trim().replace(/\.$/, '');
  const m = /(?:^|[\s,])([A-Z]{2})$/.exec(t);
  if (m && STATES[m[1]!] !== undefined) return { code: m[1]!, index: t.length - 2 };
  return undefined;
}
