import { describe, expect, it } from 'vitest';
import { parseDataUri, parseRequest } from './parse.js';
import { MAX_INPUT_BYTES } from './model.js';

const IMAGE = 'data:image/png;base64,iVBORw0KGgo=';

function message(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a failure');
}

describe('parseRequest', () => {
  it('reads an operation in any case, with defaults', () => {
    expect(parseRequest({ operation: 'Resize', image: IMAGE, width: '300' })).toMatchObject({
      operation: 'resize',
      width: 300,
      fit: 'cover',
      source: { base64: true, declaredType: 'image/png', payload: 'iVBORw0KGgo=' },
    });
    expect(parseRequest({ operation: 'compress', image: IMAGE })).toMatchObject({
      format: 'webp',
      quality: 75,
    });
    expect(parseRequest({ operation: 'thumbnail', image: IMAGE })).toMatchObject({
      size: 'sm',
      fit: 'cover',
    });
    expect(parseRequest({ operation: 'placeholder' })).toEqual({
      operation: 'placeholder',
      width: 300,
      height: 200,
      style: 'dimensions',
      color: '#6b7280',
      background: '#e5e7eb',
    });
  });

  it('maps jpg to jpeg and leaves "format": "json" to the kit', () => {
    expect(parseRequest({ operation: 'convert', image: IMAGE, format: 'JPG' })).toMatchObject({
      format: 'jpeg',
    });
    expect(parseRequest({ operation: 'compress', image: IMAGE, format: 'json' })).toMatchObject({
      format: 'webp',
    });
    expect(
      message(() => parseRequest({ operation: 'convert', image: IMAGE, format: 'json' }))
    ).toBe('convert: `format`: is required: one of jpeg, png, webp, avif');
  });

  it('names the operations when it is missing or unknown', () => {
    expect(message(() => parseRequest({ image: IMAGE }))).toMatch(
      /add "operation" with one of resize, compress, convert, thumbnail, placeholder, info, adjust/
    );
    expect(message(() => parseRequest({ operation: 'blurify' }))).toMatch(
      /unknown operation "blurify"; use one of resize, /
    );
    expect(parseRequest({ action: 'info', image: IMAGE }).operation).toBe('info');
  });

  it('names the field that is out of range', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ operation: 'adjust', image: IMAGE, blur: 251 }, /^adjust: `blur`: must be 1 to 250/],
      [{ operation: 'adjust', image: IMAGE, blur: 0.5 }, /`blur`: must be 1 to 250/],
      [{ operation: 'adjust', image: IMAGE, rotate: 45 }, /`rotate`: must be 90, 180 or 270/],
      [{ operation: 'adjust', image: IMAGE, brightness: 9 }, /`brightness`/],
      [{ operation: 'adjust', image: IMAGE, sharpen: 'lots' }, /`sharpen`/],
      [{ operation: 'adjust', image: IMAGE }, /say what to adjust/],
      [{ operation: 'adjust', image: IMAGE, sharpen: false }, /say what to adjust/],
      [{ operation: 'resize', image: IMAGE }, /`width`: give width, height or both/],
      [{ operation: 'resize', image: IMAGE, width: 1.5 }, /`width`: must be a whole number/],
      [{ operation: 'resize', image: IMAGE, height: 9000 }, /`height`: must be at most 8192/],
      [{ operation: 'resize', image: IMAGE, width: 9, fit: 'fill' }, /`fit`/],
      [{ operation: 'compress', image: IMAGE, quality: 0 }, /`quality`: must be 1 to 100/],
      [{ operation: 'convert', image: IMAGE, format: 'bmp' }, /`format`: must be one of jpeg/],
      [{ operation: 'thumbnail', image: IMAGE, size: 'xxl' }, /`size`/],
      [{ operation: 'placeholder', background: 'url(#x)' }, /`background`: must be a CSS colour/],
      [{ operation: 'placeholder', color: '#12345' }, /`color`/],
      [{ operation: 'placeholder', text: 'x'.repeat(101) }, /`text`/],
      [{ operation: 'info' }, /`image`/],
      [{ operation: 'info', image: 42 }, /`image`/],
    ];
    for (const [body, re] of cases) expect(message(() => parseRequest(body))).toMatch(re);
  });

  it('accepts the adjust options together', () => {
    expect(
      parseRequest({
        operation: 'adjust',
        image: IMAGE,
        grayscale: 'true',
        blur: 3,
        sharpen: true,
        brightness: 1.2,
        contrast: '0.8',
        rotate: '270',
      })
    ).toMatchObject({
      grayscale: true,
      blur: 3,
      sharpen: true,
      brightness: 1.2,
      contrast: 0.8,
      rotate: 270,
    });
  });

  it('accepts colours in the usual CSS forms', () => {
    for (const c of ['#fff', '#ffffff80', 'white', 'rgb(10, 20, 30)', 'hsla(120, 50%, 50%, 0.5)']) {
      expect(parseRequest({ operation: 'placeholder', color: c })).toMatchObject({ color: c });
    }
  });
});

describe('parseDataUri', () => {
  it('splits base64 and percent-encoded URIs', () => {
    expect(parseDataUri('data:image/svg+xml,%3Csvg%3E')).toEqual({
      payload: '%3Csvg%3E',
      base64: false,
      declaredType: 'image/svg+xml',
    });
    expect(parseDataUri('data:;base64,AAAA')).toMatchObject({ base64: true, declaredType: '' });
  });

  it('refuses what is not an image data URI', () => {
    expect(message(() => parseDataUri('iVBORw0KGgo='))).toMatch(/must be a data URI/);
    expect(message(() => parseDataUri('data:image/png;base64'))).toMatch(/must be a data URI/);
    expect(message(() => parseDataUri('data:text/html;base64,PGI+'))).toMatch(/it says text\/html/);
    expect(message(() => parseDataUri('data:image/png;base64,'))).toMatch(/is empty/);
  });

  it('refuses an oversized image from its base64 length, with its size', () => {
    const chars = (Math.floor(MAX_INPUT_BYTES / 3) + 1) * 4;
    expect(message(() => parseDataUri(`data:image/png;base64,${'A'.repeat(chars)}`))).toMatch(
      /^`image` is 10\.0 MB \(10,485,762 bytes\); the limit is 10\.0 MB \(10,485,760 bytes\)/
    );
    const exact = Math.floor(MAX_INPUT_BYTES / 3) * 4;
    expect(parseDataUri(`data:image/png;base64,${'A'.repeat(exact)}`).base64).toBe(true);
  });
});
