import { describe, expect, it } from 'vitest';
import { pageMetadata } from './metadata.js';

describe('pageMetadata', () => {
  it('reads title, description, canonical, language, Open Graph and Twitter fields', () => {
    const html = `<html lang="en-GB"><head><title> A   Title </title>
      <meta name="description" content="Plain description">
      <link rel="canonical" href="/canonical">
      <meta property="og:title" content="OG">
      <meta property="og:image" content="img.png">
      <meta name="og:type" content="website">
      <meta property="og:site_name" content="Site">
      <meta property="og:url" content="https://e.com/c">
      <meta property="og:locale" content="en_GB">
      <meta name="twitter:card" content="summary">
      <meta property="twitter:image" content="/t.png">
      </head><body></body></html>`;
    expect(pageMetadata(html, 'https://e.com/dir/page')).toEqual({
      title: 'A Title',
      description: 'Plain description',
      canonicalUrl: 'https://e.com/canonical',
      language: 'en-GB',
      openGraph: {
        'og:title': 'OG',
        'og:image': 'https://e.com/dir/img.png',
        'og:type': 'website',
        'og:site_name': 'Site',
        'og:url': 'https://e.com/c',
      },
      twitter: { 'twitter:card': 'summary', 'twitter:image': 'https://e.com/t.png' },
    });
  });

  it('falls back to Open Graph, http-equiv and the Content-Language header', () => {
    const html = `<html><head><meta property="og:title" content="Only OG">
      <meta property="og:description" content="OG description"></head></html>`;
    const m = pageMetadata(html, 'https://e.com/', 'de, en');
    expect([m.title, m.description, m.language, m.canonicalUrl]).toEqual([
      'Only OG',
      'OG description',
      'de',
      undefined,
    ]);
    const eq = `<html><head><meta http-equiv="Content-Language" content="nl"></head></html>`;
    expect(pageMetadata(eq, 'https://e.com/', 'de').language).toBe('nl');
  });

  it('keeps the first of repeated tags and drops image links that are not http(s)', () => {
    const html = `<html><head><meta property="og:title" content="First">
      <meta property="og:title" content="Second"><meta property="og:image" content="javascript:x">
      </head></html>`;
    const m = pageMetadata(html, 'https://e.com/');
    expect(m.openGraph).toEqual({ 'og:title': 'First' });
  });
});
