import { randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError, keyId, parseEncryptionKey } from './secret-box';

describe('SecretBox (AES-256-GCM secrets at rest)', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;

  it('round trip; a random IV per value; the key id travels with the value', () => {
    const box = new SecretBox(k1);
    const a = box.seal(secret, 'row:1');
    const b = box.seal(secret, 'row:1');
    expect(a).not.toBe(b);
    expect(a.startsWith(`enc:v1:${keyId(k1)}:`)).toBe(true);
    expect(a).not.toContain(secret.slice(6, 20));
    expect(box.open(a, 'row:1')).toBe(secret);
    expect(SecretBox.keyIdOf(a)).toBe(keyId(k1));
    expect(SecretBox.keyIdOf(secret)).toBeNull();
  });

  it('old keys still open; new values use the current key', () => {
    const sealedOld = new SecretBox(k1).seal(secret, 'c');
    const rotated = new SecretBox(k2, [k1]);
    expect(rotated.open(sealedOld, 'c')).toBe(secret);
    expect(SecretBox.keyIdOf(rotated.seal(secret, 'c'))).toBe(keyId(k2));
    expect(rotated.knows(keyId(k1))).toBe(true);
  });

  it('a missing key, a wrong context (another row) or an altered value fail loudly', () => {
    const sealed = new SecretBox(k1).seal(secret, 'row:1');
    expect(() => new SecretBox(k2).open(sealed, 'row:1')).toThrow(SecretBoxError);
    expect(() => new SecretBox(k2).open(sealed, 'row:1')).toThrow(/not configured/);
    expect(() => new SecretBox(k1).open(sealed, 'row:2')).toThrow(/does not decrypt/);
    const parts = sealed.split(':');
    const body = Buffer.from(parts[5], 'base64url');
    body[0] ^= 1;
    parts[5] = body.toString('base64url');
    expect(() => new SecretBox(k1).open(parts.join(':'), 'row:1')).toThrow(/does not decrypt/);
    expect(() => new SecretBox(k1).open('enc:v1:zz', 'row:1')).toThrow(/malformed/);
  });

  it('without a key: values stay as they are; plaintext always reads back', () => {
    const none = new SecretBox(null);
    expect(none.enabled).toBe(false);
    expect(none.seal(secret, 'c')).toBe(secret);
    expect(new SecretBox(k1).open(secret, 'c')).toBe(secret);
  });

  it('keys from configuration: base64 or hex of 32 bytes, nothing else', () => {
    expect(parseEncryptionKey(k1.toString('base64'))).toEqual(k1);
    expect(parseEncryptionKey(k1.toString('hex'))).toEqual(k1);
    expect(parseEncryptionKey(k1.toString('base64url'))).toEqual(k1);
    expect(parseEncryptionKey(randomBytes(16).toString('base64'))).toBeNull();
    expect(parseEncryptionKey('correct horse battery staple')).toBeNull();
    expect(parseEncryptionKey('')).toBeNull();
  });
});
