import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_STYLES } from './model.js';
import { placeholderSvg } from './placeholder.js';

const base = { operation: 'placeholder' as const, color: '#123456', background: 'white' };

describe('placeholderSvg', () => {
  it('gives every style the size asked for and the colours', () => {
    for (const style of PLACEHOLDER_STYLES) {
      const svg = placeholderSvg({ ...base, width: 120, height: 80, style });
      expect(svg).toMatch(
        /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="120" height="80" viewBox="0 0 120 80">/
      );
      expect(svg.endsWith('</svg>')).toBe(true);
      if (style !== 'solid') expect(svg).toContain('#123456');
      if (style !== 'gradient') expect(svg).toContain('fill="white"');
    }
  });

  it('labels dimensions with W×H or the escaped text', () => {
    expect(placeholderSvg({ ...base, width: 640, height: 360, style: 'dimensions' })).toContain(
      '>640×360</text>'
    );
    expect(
      placeholderSvg({ ...base, width: 10, height: 10, style: 'dimensions', text: `a<b>&"c'` })
    ).toContain('>a&#60;b&#62;&#38;&#34;c&#39;</text>');
  });
});
