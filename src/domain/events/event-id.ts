import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford's base 32, as ULIDs spell it

/**
 * A new event id: a ULID (48 bits of milliseconds, then 80 random bits, 26 characters) behind
 * `evt_`. Ids sort by time, so a page of the audit log or a webhook's deliveries reads in order;
 * the random part keeps two events of one millisecond, on any node, apart.
 */
export function newEventId(at: Date): string {
  let time = at.getTime();
  let timePart = '';
  for (let i = 0; i < 10; i++) {
    timePart = alphabet[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(10);
  let randomPart = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of random) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      randomPart += alphabet[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return `evt_${timePart}${randomPart}`;
}

const eventIdPattern = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;

export function isEventId(text: string): boolean {
  return eventIdPattern.test(text);
}
