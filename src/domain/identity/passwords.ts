import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';

const argon2Async = promisify(argon2);

/** OWASP's minimum for argon2id: 19 MiB of memory, 2 passes, 1 lane. */
const parameters = { memory: 19456, passes: 2, parallelism: 1, tagLength: 32 } as const;

export const minPasswordLength = 8;
export const maxPasswordLength = 1024;

/** Hashes a password into a PHC string: `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, parameters);
  const { memory, passes, parallelism } = parameters;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${b64(salt)}$${b64(hash)}`;
}

/** Whether the password matches the PHC string; a malformed string never matches. */
export async function verifyPassword(password: string, phc: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(phc);
  if (!match) return false;
  const [, memory, passes, parallelism, salt, hash] = match as unknown as string[];
  const expected = Buffer.from(hash!, 'base64');
  const actual = await derive(password, Buffer.from(salt!, 'base64'), {
    memory: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
    tagLength: expected.length,
  });
  return timingSafeEqual(actual, expected);
}

// security: a login for an unknown email checks the password against this hash, so it costs
// the same time as a wrong password and cannot be told apart from one.
let decoyHash: Promise<string> | undefined;
export function getDecoyHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return decoyHash;
}

type Parameters = { memory: number; passes: number; parallelism: number; tagLength: number };

// At most cores − 1 hashes at once: a burst of logins queues here instead of taking every
// core from the requests that need none (reads stay within 2x of their idle speed).
const maxConcurrentHashes = Math.max(1, availableParallelism() - 1);
let running = 0;
const waiting: Array<() => void> = [];

async function derive(password: string, salt: Buffer, p: Parameters): Promise<Buffer> {
  if (running >= maxConcurrentHashes) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await argon2Async('argon2id', { message: password, nonce: salt, ...p });
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** PHC strings use unpadded standard base64. */
function b64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}
