// Countries as GDELT names them: its `sourcecountry:` operator takes FIPS 10-4 codes, which are not
// ISO codes (CH is China, not Switzerland; GM is Germany; UK is the United Kingdom). The table
// covers the countries with most news sources; a country outside it is refused by name.

/** FIPS 10-4 code → English name, with the other names people use. */
const COUNTRIES: ReadonlyArray<readonly [fips: string, name: string, ...aliases: string[]]> = [
  ['US', 'United States', 'american', 'usa', 'us', 'america', 'united states of america'],
  ['UK', 'United Kingdom', 'british', 'uk', 'britain', 'great britain', 'england'],
  ['CA', 'Canada', 'canadian'],
  ['AS', 'Australia', 'australian'],
  ['NZ', 'New Zealand'],
  ['EI', 'Ireland', 'irish'],
  ['IN', 'India', 'indian'],
  ['CH', 'China', 'chinese', 'prc', "people's republic of china"],
  ['JA', 'Japan', 'japanese'],
  ['KS', 'South Korea', 'south korean', 'korea', 'republic of korea'],
  ['KN', 'North Korea'],
  ['TW', 'Taiwan'],
  ['HK', 'Hong Kong'],
  ['SN', 'Singapore'],
  ['MY', 'Malaysia'],
  ['ID', 'Indonesia'],
  ['RP', 'Philippines'],
  ['TH', 'Thailand'],
  ['VM', 'Vietnam', 'viet nam'],
  ['PK', 'Pakistan'],
  ['BG', 'Bangladesh'],
  ['GM', 'Germany', 'german'],
  ['FR', 'France', 'french'],
  ['IT', 'Italy', 'italian'],
  ['SP', 'Spain', 'spanish'],
  ['PO', 'Portugal'],
  ['NL', 'Netherlands', 'dutch', 'holland'],
  ['BE', 'Belgium'],
  ['SZ', 'Switzerland', 'swiss'],
  ['AU', 'Austria'],
  ['SW', 'Sweden'],
  ['NO', 'Norway'],
  ['DA', 'Denmark'],
  ['FI', 'Finland'],
  ['PL', 'Poland'],
  ['EZ', 'Czech Republic', 'czechia'],
  ['HU', 'Hungary'],
  ['RO', 'Romania'],
  ['GR', 'Greece'],
  ['TU', 'Turkey', 'turkish', 'turkiye'],
  ['UP', 'Ukraine', 'ukrainian'],
  ['RS', 'Russia', 'russian', 'russian federation'],
  ['IS', 'Israel', 'israeli'],
  ['SA', 'Saudi Arabia'],
  ['AE', 'United Arab Emirates', 'uae'],
  ['QA', 'Qatar'],
  ['IR', 'Iran'],
  ['IZ', 'Iraq'],
  ['EG', 'Egypt'],
  ['NI', 'Nigeria'],
  ['KE', 'Kenya'],
  ['SF', 'South Africa'],
  ['MX', 'Mexico', 'mexican'],
  ['BR', 'Brazil', 'brazilian'],
  ['AR', 'Argentina'],
  ['CI', 'Chile'],
  ['CO', 'Colombia'],
  ['PE', 'Peru'],
  ['VE', 'Venezuela'],
];

const BY_NAME = new Map<string, string>();
const NAMES = new Map<string, string>();
for (const [fips, name, ...aliases] of COUNTRIES) {
  NAMES.set(fips, name);
  for (const n of [name, ...aliases]) BY_NAME.set(n.toLowerCase(), fips);
}

/** A country's FIPS code from its name or its FIPS code; undefined when unknown. */
export function fipsOf(country: string): string | undefined {
  const c = country.trim();
  if (/^[A-Za-z]{2}$/.test(c) && NAMES.has(c.toUpperCase())) return c.toUpperCase();
  return BY_NAME.get(c.toLowerCase().replace(/^the\s+/, ''));
}

/** The English name of a FIPS code (as GDELT may answer it); the code itself when unknown. */
export function countryName(fipsOrName: string): string {
  return NAMES.get(fipsOrName) ?? fipsOrName;
}

/** Every name the table knows, longest first, for finding a country in free text. */
export const COUNTRY_NAMES: readonly string[] = [...BY_NAME.keys()]
  .filter((n) => n.length > 2)
  .sort((a, b) => b.length - a.length);
