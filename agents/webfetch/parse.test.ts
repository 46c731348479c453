import { describe, expect, it } from 'vitest';
import { HubError } from '../../runtime/errors/index.js';
import { parseFetchRequest, parseUrl } from './parse.js';

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(HubError);
    return (e as Error).message;
  }
  throw new Error('expected a failure');
}

const req = (text: string) => {
  const r = parseFetchRequest(text, undefined);
  return { mode: r.mode, url: r.url.href };
};

describe('parseFetchRequest', () => {
  it('reads a URL as a content request', () => {
    expect(req(' https://example.com/a?b=1#frag ')).toEqual({
      mode: 'content',
      url: 'https://example.com/a?b=1',
    });
    expect(req('fetch http://example.com')).toEqual({
      mode: 'content',
      url: 'http://example.com/',
    });
  });

  it('reads `metadata <URL>` in any case, with the URL in angle brackets or bare', () => {
    expect(req('metadata https://example.com/x')).toEqual({
      mode: 'metadata',
      url: 'https://example.com/x',
    });
    expect(req('METADATA   <https://example.com/x>')).toEqual({
      mode: 'metadata',
      url: 'https://example.com/x',
    });
    expect(req('metadata example.com')).toEqual({ mode: 'metadata', url: 'https://example.com/' });
  });

  it('reads JSON {url, mode}', () => {
    const r = parseFetchRequest('', { url: 'https://e.com/p', mode: 'metadata', tenantId: 'x' });
    expect([r.mode, r.url.href]).toEqual(['metadata', 'https://e.com/p']);
    expect(parseFetchRequest('', { url: 'https://e.com/' }).mode).toBe('content');
  });

  it('explains what it cannot read', () => {
    expect(failure(() => req(''))).toMatch(/nothing to fetch/);
    expect(failure(() => req('metadata'))).toMatch(/not a valid URL/);
    expect(failure(() => req('please read https://e.com'))).toMatch(/could not find one URL/);
    expect(failure(() => parseFetchRequest('', { mode: 'content' }))).toMatch(/needs a "url"/);
    expect(failure(() => parseFetchRequest('', { url: 'https://e.com', mode: 'all' }))).toMatch(
      /`mode`/
    );
  });
});

describe('parseUrl', () => {
  it('takes a bare host (with a port) as https', () => {
    expect(parseUrl('example.com/path').href).toBe('https://example.com/path');
    expect(parseUrl('example.com:8080/x').href).toBe('https://example.com:8080/x');
    expect(parseUrl('localhost:3000').href).toBe('https://localhost:3000/');
  });

  it('normalizes IP forms the way browsers do, so the address check sees the real address', () => {
    expect(parseUrl('http://0x7f.1/').hostname).toBe('127.0.0.1');
    expect(parseUrl('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(parseUrl('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
  });

  it('refuses other schemes, credentials, junk and overlong URLs', () => {
    expect(failure(() => parseUrl('ftp://example.com/f'))).toMatch(/not ftp: URLs/);
    expect(failure(() => parseUrl('file:///etc/passwd'))).toMatch(/not file: URLs/);
    expect(failure(() => parseUrl('javascript:alert(1)'))).toMatch(/not javascript: URLs/);
    expect(failure(() => parseUrl('https://u:p@example.com/'))).toMatch(/user name or password/);
    expect(failure(() => parseUrl('hello'))).toMatch(/not a valid URL/);
    expect(failure(() => parseUrl('http://'))).toMatch(/not a valid URL/);
    expect(failure(() => parseUrl(`https://e.com/${'a'.repeat(2100)}`))).toMatch(/at most 2048/);
  });
});
