import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238's defaults, which every authenticator app reads: SHA-1, 6 digits, 30-second steps. */
const periodSeconds = 30;

/** A new TOTP secret: 160 random bits (RFC 4226 §4 recommends 160), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URI an authenticator app scans (Key Uri Format). */
export function toOtpauthUrl(options: { issuer: string; account: string; secret: string }): string {
  return toTotp(options.secret, options.issuer, options.account).toString();
}

/**
 * The time step a code is right for, or undefined: one step either side of now is accepted
 * (RFC 6238 §5.2, the clock drift of a phone), compared in constant time by otpauth.
 */
export function findTotpStep(secret: string, code: string, now: Date): number | undefined {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = toTotp(secret).validate({ token, timestamp: now.getTime(), window: 1 });
  return delta === null ? undefined : Math.floor(now.getTime() / 1000 / periodSeconds) + delta;
}

function toTotp(secret: string, issuer = 'Coffer', account = 'user'): TOTP {
  return new TOTP({
    issuer,
    label: account,
    algorithm: 'SHA1',
    digits: 6,
    period: periodSeconds,
    secret: Secret.fromBase32(secret),
  });
}

/** Ten recovery codes of 80 random bits each, as `xxxx-xxxx-xxxx-xxxx` (base32, no look-alikes). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const text = new Secret({ buffer: Uint8Array.from(randomBytes(10)).buffer }).base32.toLowerCase();
    return text.match(/.{4}/g)!.join('-');
  });
}

/** What is stored of a recovery code: SHA-256 of its normalized text (dashes, spaces and case ignored). */
export function hashRecoveryCode(code: string): string {
  const normalized = code.replace(/[\s-]/g, '').toLowerCase();
  return createHash('sha256').update(normalized).digest('hex');
}

/** The stored hash a code matches, compared against every one in constant time. */
export function findRecoveryCodeHash(hashes: readonly string[], code: string): string | undefined {
  const wanted = Buffer.from(hashRecoveryCode(code), 'hex');
  let found: string | undefined;
  for (const hash of hashes) {
    const stored = Buffer.from(hash, 'hex');
    if (stored.length === wanted.length && timingSafeEqual(stored, wanted)) found = hash;
  }
  return found;
}

/** A token for an MFA step or an enrolment, and what is stored of it (SHA-256). */
export function newMfaToken(prefix: string): { token: string; tokenHash: string } {
  const token = `${prefix}${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: hashMfaToken(token) };
}

export function hashMfaToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
