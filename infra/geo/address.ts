// Reading a free-text address for the offline gazetteer: folding (case, accents, punctuation),
// splitting on commas, and recognising countries (ISO codes, English names, common aliases) and
// US states, which GeoNames keys by their two-letter code.

/** Lower case, accents removed, anything but letters and digits collapsed to one space. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The address's comma-separated parts, folded, empty ones dropped. */
export function addressParts(address: string): string[] {
  return address
    .split(',')
    .map(fold)
    .filter((p) => p !== '');
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** The English name of an ISO 3166-1 alpha-2 code, or undefined when the code is unknown. */
export function countryName(code: string): string | undefined {
  if (!/^[A-Z]{2}$/.test(code)) return undefined;
  try {
    return regionNames.of(code);
  } catch {
    return undefined;
  }
}

// Names people write that are not the CLDR English name of the country.
const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  usa: 'US',
  'united states of america': 'US',
  america: 'US',
  uk: 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  holland: 'NL',
  'the netherlands': 'NL',
  korea: 'KR',
  'republic of korea': 'KR',
  'czech republic': 'CZ',
  turkey: 'TR',
  'ivory coast': 'CI',
  uae: 'AE',
  'democratic republic of the congo': 'CD',
  drc: 'CD',
};

/**
 * Folded country name, alias or code → ISO code, for the codes given (those the gazetteer holds).
 * Two-letter parts are read as codes too ("FR"), which is ambiguous with US states ("CA"): the
 * gazetteer tries both readings.
 */
export function countryIndex(codes: Iterable<string>): Map<string, string> {
  const index = new Map<string, string>();
  for (const code of codes) {
    const name = countryName(code);
    if (name !== undefined) index.set(fold(name), code);
    index.set(code.toLowerCase(), code);
  }
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) {
    if (!index.has(alias)) index.set(alias, code);
  }
  return index;
}

const US_STATES: Readonly<Record<string, string>> = {
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  'district of columbia': 'DC',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
};

/** The GeoNames admin1 code a folded part may stand for: itself upper-cased, or a US state's. */
export function regionCodes(part: string): string[] {
  const state = US_STATES[part];
  return state === undefined ? [part.toUpperCase()] : [state, part.toUpperCase()];
}
