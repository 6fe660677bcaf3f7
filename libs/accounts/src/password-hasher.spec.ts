import {
  hashPassword,
  isAcceptablePassword,
  needsRehash,
  passwordLength,
  verifyPassword,
} from './password-hasher';

describe('password hasher (scrypt, OWASP parameters)', () => {
  const password = 'correct horse battery staple';
  let stored: string;

  beforeAll(async () => {
    stored = await hashPassword(password);
  });

  it('stores a self-describing hash with a fresh salt, never the password', async () => {
    expect(stored).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{86}==$/);
    expect(stored).not.toContain(password);
    const again = await hashPassword(password);
    expect(again).not.toBe(stored);
    expect(needsRehash(stored)).toBe(false);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    expect(await verifyPassword(password, stored)).toBe(true);
    expect(await verifyPassword('correct horse battery staplE', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('never matches a malformed or out-of-range stored hash (and does not throw)', async () => {
    const [, , r, p, salt, key] = stored.split('$');
    for (const bad of [
      '',
      'plain text',
      stored.replace('scrypt', 'bcrypt'),
      stored.split('$').slice(0, 5).join('$'),
      `scrypt$30$${r}$${p}$${salt}$${key}`,
      `scrypt$17$${r}$${p}$${salt}$not*base64`,
      `scrypt$17$${r}$${p}$${salt}$${Buffer.alloc(8).toString('base64')}`,
      `scrypt$x$${r}$${p}$${salt}$${key}`,
    ]) {
      await expect(verifyPassword(password, bad)).resolves.toBe(false);
    }
  });

  it('asks for a rehash of weaker stored parameters', async () => {
    expect(needsRehash('scrypt$14$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + 'A'.repeat(86) + '==')).toBe(
      true,
    );
    expect(needsRehash('garbage')).toBe(true);
  });

  it('does not block the event loop while hashing', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await hashPassword('another long password');
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });

  it('counts length in characters (code points), nothing trimmed', () => {
    expect(passwordLength('😀'.repeat(12))).toBe(12);
    expect(isAcceptablePassword('a'.repeat(11))).toBe(false);
    expect(isAcceptablePassword('a'.repeat(12))).toBe(true);
    expect(isAcceptablePassword('😀'.repeat(12))).toBe(true);
    expect(isAcceptablePassword(' '.repeat(12))).toBe(true);
    expect(isAcceptablePassword('a'.repeat(256))).toBe(true);
    expect(isAcceptablePassword('a'.repeat(257))).toBe(false);
    expect(isAcceptablePassword(12345678901234 as unknown)).toBe(false);
  });
});
