// Topics GDELT tags itself: its Global Knowledge Graph themes, searched with `theme:<CODE>`,
// which finds coverage of a topic however the article words it. A topic outside this table is
// searched by its words instead, and the reply says which was done.

const THEMES: ReadonlyArray<readonly [code: string, ...names: string[]]> = [
  ['ENV_CLIMATECHANGE', 'climate change', 'global warming', 'climate'],
  ['ELECTION', 'elections', 'election', 'voting'],
  ['TERROR', 'terrorism', 'terror attacks', 'terrorist attacks'],
  ['PROTEST', 'protests', 'protest', 'demonstrations'],
  ['IMMIGRATION', 'immigration', 'migration', 'migrants'],
  ['REFUGEES', 'refugees', 'refugee crisis'],
  ['CYBER_ATTACK', 'cyber attacks', 'cyberattacks', 'cyber attack', 'hacking', 'cybersecurity'],
  ['CORRUPTION', 'corruption', 'bribery'],
  ['NATURAL_DISASTER', 'natural disasters', 'natural disaster', 'disasters'],
  ['UNEMPLOYMENT', 'unemployment', 'jobless', 'layoffs'],
  ['ECON_INFLATION', 'inflation', 'rising prices'],
  ['ECON_STOCKMARKET', 'stock market', 'stock markets', 'stocks', 'wall street'],
  ['ECON_INTEREST_RATES', 'interest rates', 'interest rate', 'rate hikes'],
  ['ECON_OILPRICE', 'oil prices', 'oil price', 'crude prices'],
  ['ECON_HOUSING_PRICES', 'housing prices', 'house prices', 'housing market'],
  ['POVERTY', 'poverty'],
  ['EDUCATION', 'education', 'schools'],
  ['HEALTH_PANDEMIC', 'pandemic', 'pandemics', 'covid', 'covid-19'],
];

const BY_NAME = new Map<string, string>();
for (const [code, ...names] of THEMES) for (const n of names) BY_NAME.set(n, code);

/** The GDELT theme for a topic's name (or a theme code itself); undefined when none fits. */
export function themeOf(topic: string): string | undefined {
  const t = topic.trim().toLowerCase();
  const code = THEMES.find(([c]) => c.toLowerCase() === t)?.[0];
  return code ?? BY_NAME.get(t);
}

/** Topic names the table knows, longest first, for finding one in free text. */
export const TOPIC_NAMES: readonly string[] = [...BY_NAME.keys()].sort(
  (a, b) => b.length - a.length
);
