// Trade figures as text for people: dollar amounts, the partners ranked, and where each came from.

export function usd(v: number): string {
  const a = Math.abs(v);
  const sign = v < 0 ? '-' : '';
  if (a >= 1e9) return `${sign}$${(a / 1e9).toFixed(2)} billion`;
  if (a >= 1e6) return `${sign}$${(a / 1e6).toFixed(1)} million`;
  return `${sign}$${Math.round(a).toLocaleString('en-US')}`;
}

export interface Ranked {
  code: string;
  name: string;
  value: number;
}

export function ranked(title: string, rows: readonly Ranked[], total?: number): string[] {
  if (rows.length === 0) return [];
  const lines = ['', title];
  rows.forEach((r, i) => {
    const share = total && total > 0 ? ` (${((r.value / total) * 100).toFixed(1)}%)` : '';
    lines.push(`${i + 1}. ${r.name} [${r.code}] · ${usd(r.value)}${share}`);
  });
  return lines;
}
