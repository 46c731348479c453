// acceptedOutputModes against a card (spec "Endpoints" rule 5): wildcards either side, defaults.
import { describe, expect, it } from 'vitest';
import { HubError } from '../errors/index.js';
import { acceptsOutputModes, assertAcceptsOutputModes, outputModesOf } from './output-modes.js';

const png = {
  defaultOutputModes: ['image/png'],
  skills: [{ outputModes: ['text/csv; charset=utf-8'] }],
};
const bare = { skills: [{}] };

describe('acceptsOutputModes', () => {
  it('accepts when the caller names nothing', () => {
    expect(acceptsOutputModes(png, undefined)).toBe(true);
    expect(acceptsOutputModes(png, [])).toBe(true);
  });

  it('matches the card defaults and every skill, ignoring parameters and case', () => {
    expect(acceptsOutputModes(png, ['image/png'])).toBe(true);
    expect(acceptsOutputModes(png, ['TEXT/CSV'])).toBe(true);
    expect(acceptsOutputModes(png, ['application/pdf', 'image/png'])).toBe(true);
    expect(acceptsOutputModes(png, ['application/pdf'])).toBe(false);
  });

  it('treats */* and type/* as wildcards on either side', () => {
    expect(acceptsOutputModes(png, ['*/*'])).toBe(true);
    expect(acceptsOutputModes(png, ['image/*'])).toBe(true);
    expect(acceptsOutputModes(png, ['audio/*'])).toBe(false);
    const any = { defaultOutputModes: ['*/*'], skills: [] };
    expect(acceptsOutputModes(any, ['application/pdf'])).toBe(true);
    const images = { defaultOutputModes: ['image/*'], skills: [] };
    expect(acceptsOutputModes(images, ['image/webp'])).toBe(true);
    expect(acceptsOutputModes(images, ['video/mp4'])).toBe(false);
  });

  it('gives a card that declares nothing text/plain', () => {
    expect(outputModesOf(bare)).toEqual(['text/plain']);
    expect(outputModesOf({})).toEqual(['text/plain']);
    expect(acceptsOutputModes({}, ['text/*'])).toBe(true);
    expect(acceptsOutputModes(bare, ['text/plain'])).toBe(true);
    expect(acceptsOutputModes(bare, ['text/*'])).toBe(true);
    expect(acceptsOutputModes(bare, ['image/png'])).toBe(false);
  });

  it('throws ContentTypeNotSupported (-32005) from the assert form', () => {
    expect(() => assertAcceptsOutputModes(png, ['image/png'])).not.toThrow();
    try {
      assertAcceptsOutputModes(bare, ['image/png']);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(HubError);
      expect(err).toMatchObject({ code: 'CONTENT_TYPE_NOT_SUPPORTED', rpcCode: -32005 });
    }
  });
});
