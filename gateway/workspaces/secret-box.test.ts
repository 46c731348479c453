// The secret box seals with AES-256-GCM bound to (workspace, name): a value opens only where it
// was sealed and under the key it was sealed with, and the ciphertext never holds the value.
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

const HEX = 'ab'.repeat(32);
const WS = 'ws_' + '1'.repeat(24);

describe('SecretBox', () => {
  it('opens what it sealed, with a fresh IV each time', () => {
    const box = new SecretBox(HEX);
    const a = box.seal(WS, 'API_KEY', 'sk-123');
    const b = box.seal(WS, 'API_KEY', 'sk-123');
    expect(a.iv.equals(b.iv)).toBe(false);
    expect(a.ciphertext.toString('latin1')).not.toContain('sk-123');
    expect(box.open(WS, 'API_KEY', a)).toBe('sk-123');
  });

  it('refuses a value moved to another name or workspace, or tampered with', () => {
    const box = new SecretBox(HEX);
    const sealed = box.seal(WS, 'API_KEY', 'sk-123');
    expect(() => box.open(WS, 'OTHER', sealed)).toThrow(/cannot be decrypted/);
    expect(() => box.open('ws_' + '2'.repeat(24), 'API_KEY', sealed)).toThrow(
      /cannot be decrypted/
    );
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open(WS, 'API_KEY', { ...sealed, ciphertext: flipped })).toThrow(
      /cannot be decrypted/
    );
  });

  it('tells a value sealed under another key apart, and reads hex and base64 keys alike', () => {
    const sealed = new SecretBox(HEX).seal(WS, 'K', 'v');
    const base64 = new SecretBox(Buffer.from(HEX, 'hex').toString('base64'));
    expect(base64.keyId).toBe(new SecretBox(HEX).keyId);
    expect(base64.open(WS, 'K', sealed)).toBe('v');
    expect(() => new SecretBox('cd'.repeat(32)).open(WS, 'K', sealed)).toThrow(/another/);
  });

  it('uses a stable development key when none is configured', () => {
    const dev = new SecretBox(undefined);
    expect(dev.isDevelopmentKey).toBe(true);
    expect(new SecretBox(undefined).open(WS, 'K', dev.seal(WS, 'K', 'v'))).toBe('v');
    expect(new SecretBox(HEX).isDevelopmentKey).toBe(false);
  });
});
