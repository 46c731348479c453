import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyReport } from './reports.js';

function sample(name: string): string {
  return readFileSync(new URL(`./testdata/${name}.eml`, import.meta.url), 'utf8')
    .replaceAll('{{TO}}', 'bob.acme@mail.localhost')
    .replaceAll('{{BOUNCED}}', 'Gone@Example.org')
    .replaceAll('{{COMPLAINER}}', 'angry@isp.example');
}

describe('delivery status notifications (RFC 3464)', () => {
  it('finds the hard-bounced recipient of a failed 5.x.x report', () => {
    expect(classifyReport(sample('dsn-hard-bounce'))).toEqual({
      kind: 'bounce',
      hard: [
        {
          address: 'gone@example.org',
          action: 'failed',
          status: '5.1.1',
          diagnostic: expect.stringContaining('550 5.1.1') as string,
        },
      ],
      other: [],
    });
  });

  it('reads CRLF line ends and a base64 report part the same way', () => {
    const raw = sample('dsn-hard-bounce');
    expect(classifyReport(raw.replace(/\n/g, '\r\n'))).toMatchObject({
      hard: [{ address: 'gone@example.org' }],
    });
    const status = raw.slice(
      raw.indexOf('Reporting-MTA'),
      raw.indexOf('--4Xy2k9', raw.indexOf('Reporting-MTA'))
    );
    const encoded = raw.replace(
      'Content-Type: message/delivery-status\n\n' + status,
      'Content-Type: message/delivery-status\nContent-Transfer-Encoding: base64\n\n' +
        (
          Buffer.from(status)
            .toString('base64')
            .match(/.{1,76}/g) ?? []
        ).join('\n') +
        '\n'
    );
    expect(encoded).not.toBe(raw);
    expect(classifyReport(encoded)).toMatchObject({ hard: [{ address: 'gone@example.org' }] });
  });

  it('does not treat a delayed (4.x.x) report as a hard bounce', () => {
    expect(classifyReport(sample('dsn-delayed'))).toEqual({
      kind: 'bounce',
      hard: [],
      other: [expect.objectContaining({ address: 'gone@example.org', action: 'delayed' })],
    });
  });

  it('does not count failed with a transient status as hard', () => {
    const raw = sample('dsn-hard-bounce').replace('Status: 5.1.1', 'Status: 4.2.2');
    expect(classifyReport(raw)).toMatchObject({ hard: [], other: [{ status: '4.2.2' }] });
  });
});

describe('feedback reports (RFC 5965)', () => {
  it('names the complaining recipient from Original-Rcpt-To', () => {
    expect(classifyReport(sample('arf-complaint'))).toEqual({
      kind: 'complaint',
      feedbackType: 'abuse',
      addresses: ['angry@isp.example'],
    });
  });

  it('falls back to the enclosed original message recipient', () => {
    const raw = sample('arf-complaint').replace(/Original-Rcpt-To:.*\n/, '');
    expect(classifyReport(raw)).toMatchObject({ addresses: ['angry@isp.example'] });
  });
});

describe('ordinary mail', () => {
  it('is no report, multipart or not', () => {
    expect(classifyReport('From: a@b.example\nSubject: hi\n\nhello')).toBeUndefined();
    expect(
      classifyReport(
        'Content-Type: multipart/mixed; boundary="x"\n\n--x\nContent-Type: text/plain\n\nhi\n--x--\n'
      )
    ).toBeUndefined();
  });
});
