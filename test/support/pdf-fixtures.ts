// Small real PDFs for the congress-trades fixtures, written object by object with a correct xref:
// an e-filed House PTR (Helvetica text runs placed where the Clerk's form puts them, the amount
// range wrapping onto a second line) and a scanned one (one page that is only an image, no text).

export interface PdfRun {
  x: number;
  y: number;
  text: string;
  size?: number;
}

/** A one-page PDF from its objects (1-based numbering, catalog first). */
function assemble(objects: string[]): Buffer {
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

function stream(content: string, dict = ''): string {
  return `<< ${dict} /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
}

const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

/** A page of text runs in Helvetica. */
export function textPdf(runs: readonly PdfRun[]): Buffer {
  const content = runs
    .map((r) => `BT /F1 ${r.size ?? 8} Tf 1 0 0 1 ${r.x} ${r.y} Tm (${escape(r.text)}) Tj ET`)
    .join('\n');
  return assemble([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ' +
      '/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    stream(content),
  ]);
}

/** A page that is one grey image, as a scanner makes: nothing to extract. */
export function scannedPdf(): Buffer {
  const w = 16;
  const h = 16;
  const pixels = Array.from({ length: w * h }, (_, i) =>
    String.fromCharCode((i * 37) % 2 === 0 ? 0xf0 : 0x30)
  ).join('');
  return assemble([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ' +
      '/Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>',
    stream(
      pixels,
      `/Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceGray ` +
        '/BitsPerComponent 8'
    ),
    stream('q 612 0 0 792 0 0 cm /Im1 Do Q'),
  ]);
}

export interface PtrFixtureRow {
  owner?: 'SP' | 'JT' | 'DC';
  /** As the form prints it: "Apple Inc. - Common Stock (AAPL) [ST]". */
  asset: string;
  type: 'P' | 'S' | 'S (partial)' | 'E';
  date: string;
  notified: string;
  /** "$1,001 - $15,000": printed on two lines, as the form wraps it. */
  amount: string;
  description?: string;
}

/** An e-filed House PTR as the Clerk's form lays it out. */
export function housePtrPdf(o: {
  filingId: string;
  name: string;
  stateDst: string;
  rows: readonly PtrFixtureRow[];
}): Buffer {
  const runs: PdfRun[] = [
    { x: 40, y: 750, text: 'Periodic Transaction Report', size: 14 },
    {
      x: 40,
      y: 735,
      text: 'Clerk of the House of Representatives - Legislative Resource Center - B81 Cannon Building',
    },
    { x: 40, y: 720, text: `Filing ID #${o.filingId}` },
    { x: 40, y: 700, text: 'Filer Information', size: 10 },
    { x: 40, y: 688, text: `Name: ${o.name}` },
    { x: 40, y: 678, text: 'Status: Member' },
    { x: 40, y: 668, text: `State/District: ${o.stateDst}` },
    { x: 40, y: 648, text: 'Transactions', size: 10 },
    { x: 40, y: 636, text: 'ID' },
    { x: 60, y: 636, text: 'Owner' },
    { x: 90, y: 636, text: 'Asset' },
    { x: 300, y: 636, text: 'Transaction' },
    { x: 350, y: 636, text: 'Date' },
    { x: 400, y: 636, text: 'Notification' },
    { x: 460, y: 636, text: 'Amount' },
    { x: 540, y: 636, text: 'Cap.' },
    { x: 300, y: 628, text: 'Type' },
    { x: 400, y: 628, text: 'Date' },
    { x: 540, y: 628, text: 'Gains >' },
    { x: 540, y: 620, text: '$200?' },
  ];
  let y = 604;
  for (const r of o.rows) {
    const [low, high] = r.amount.split(/\s+-\s+/);
    if (r.owner) runs.push({ x: 60, y, text: r.owner });
    runs.push(
      { x: 90, y, text: r.asset },
      { x: 300, y, text: r.type },
      { x: 350, y, text: r.date },
      { x: 400, y, text: r.notified },
      { x: 460, y, text: high === undefined ? r.amount : `${low} -` }
    );
    if (high !== undefined) runs.push({ x: 460, y: y - 9, text: high });
    runs.push({ x: 90, y: y - 18, text: 'F S : New' });
    y -= 28;
    if (r.description) {
      runs.push({ x: 90, y, text: `D : ${r.description}` });
      y -= 12;
    }
    y -= 6;
  }
  runs.push(
    { x: 40, y: y - 10, text: '* For the complete list of asset type abbreviations, please visit' },
    { x: 40, y: y - 30, text: `Digitally Signed: ${o.name} , 01/10/2026` }
  );
  return textPdf(runs);
}
