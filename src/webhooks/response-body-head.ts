import type { ResponseBodyHead } from '../domain/events/webhook-sender.ts';

/** How much of an answer's body an attempt keeps, to show in the delivery's attempts. */
export const responseBodyHeadBytes = 1024;

/**
 * The first responseBodyHeadBytes of a body as text, given its first bytes (`head`: one more
 * than that when the body had them, to see where the cut falls) and how many it had in all. A
 * cut never splits a UTF-8 character: when the byte after the limit continues a character
 * (10xxxxxx), the cut moves back to where that character began (at most 3 bytes: none is
 * longer than 4), so no U+FFFD is made of a good body's bytes.
 */
export function toResponseBodyHead(head: Buffer, totalBytes: number): ResponseBodyHead {
  const truncated = totalBytes > responseBodyHeadBytes;
  let end = Math.min(head.length, responseBodyHeadBytes);
  const continues = (index: number) => index < head.length && (head[index]! & 0xc0) === 0x80;
  if (truncated) for (let back = 0; back < 3 && continues(end); back++) end--;
  return { text: head.subarray(0, end).toString('utf8'), truncated };
}
