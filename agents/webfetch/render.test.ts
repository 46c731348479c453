import { describe, expect, it } from 'vitest';
import {
  contentData,
  MAX_MARKDOWN_CHARS,
  metadataData,
  renderContent,
  renderMetadata,
} from './render.js';
import type { FetchedPage } from './safe-fetch.js';

const page: FetchedPage = {
  requestedUrl: 'https://e.com/old',
  finalUrl: 'https://e.com/new',
  status: 200,
  contentType: 'text/plain',
  body: 'hello',
  bytes: 1024,
  truncated: true,
  redirects: ['https://e.com/new'],
  contentLanguage: 'en',
};

describe('renderContent', () => {
  it('shows where the page came from and that it was cut', () => {
    const text = renderContent(contentData(page, undefined));
    expect(text).toBe(
      '📄 https://e.com/new\n🔗 https://e.com/new\n↪️ redirected from https://e.com/old\n' +
        '⚠️ The page is larger than the 1,024-byte limit (WEBFETCH_MAX_BYTES): it was cut there, ' +
        'so what follows is only its beginning.\n\nhello'
    );
  });

  it('cuts very long markdown and says so', () => {
    const d = contentData(
      { ...page, body: 'x'.repeat(MAX_MARKDOWN_CHARS + 5), truncated: false },
      undefined
    );
    expect(d.markdown).toHaveLength(MAX_MARKDOWN_CHARS);
    expect(d.markdownTruncated).toBe(true);
    expect(renderContent(d)).toContain('⚠️ The content is longer than 100,000 characters');
  });
});

describe('renderMetadata', () => {
  it('lists every field, (none) for the missing ones', () => {
    const d = metadataData(
      { ...page, truncated: false, contentType: 'text/html' },
      {
        title: 'T',
        description: undefined,
        canonicalUrl: 'https://e.com/c',
        language: 'en',
        openGraph: { 'og:type': 'article' },
        twitter: {},
      }
    );
    expect(renderMetadata(d)).toBe(
      [
        '🏷️ Metadata for https://e.com/new',
        '↪️ redirected from https://e.com/old',
        '• Title: T',
        '• Description: (none)',
        '• Canonical URL: https://e.com/c',
        '• Language: en',
        '• Content type: text/html',
        '• Open Graph:',
        '  ◦ og:type: article',
        '• Twitter card: (none)',
      ].join('\n')
    );
  });
});
