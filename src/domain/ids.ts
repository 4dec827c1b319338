import { randomBytes, randomFillSync } from 'node:crypto';

/**
 * Random bytes for ids, drawn 4 KiB at a time (as Node's randomUUID buffers its own): one
 * system call per 256 ids instead of one per id, which was 2% of an upload request's CPU.
 * The bytes are the same CSPRNG's; each is handed out once.
 */
const idEntropy = Buffer.alloc(4096);
let idEntropyOffset = idEntropy.length;

function nextIdBytes(): Buffer {
  if (idEntropyOffset === idEntropy.length) {
    randomFillSync(idEntropy);
    idEntropyOffset = 0;
  }
  idEntropyOffset += 16;
  return idEntropy.subarray(idEntropyOffset - 16, idEntropyOffset);
}

/**
 * A new unguessable, URL-safe id: 128 random bits, base64url (22 characters). It never starts
 * with `-` or `_`, so that it can follow a flag on a command line (`--project -x…` reads as an
 * option); drawing again costs 1/32 of a draw on average and keeps every id equally likely.
 */
export function newId(): string {
  for (;;) {
    const id = nextIdBytes().toString('base64url');
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}

/** Digits and lowercase letters: their order is the same in every collation (C, ICU, glibc). */
const timeDigits = 36;
/** Milliseconds in base 36, 9 digits: enough until the year 5138. */
const timeWidth = 9;

/**
 * A new file id (issue 44): the creation time in milliseconds (9 base-36 digits, zero-padded,
 * so ids sort by it in any collation) followed by 13 random base64url characters (78 random
 * bits). Every index keyed by file id (the files' primary key, the ACL's, the name index's)
 * then grows at its end, as the time-ordered ones do: with 128 random bits each new file
 * dirtied a cold leaf page of each of those indexes wherever the id fell, and the WAL, the
 * checkpoint and the page cache misses per upload request grew with the project (4× the
 * WAL bytes per request at a million files). The id tells its file's creation time, which
 * the file's metadata already shows to whoever may read it (docs/security.md).
 */
export function newFileId(nowMs: number = Date.now()): string {
  const time = Math.max(0, Math.trunc(nowMs)).toString(timeDigits).padStart(timeWidth, '0');
  return (
    time +
    nextIdBytes()
      .toString('base64url')
      .slice(0, 22 - timeWidth)
  );
}

/** A new secret for the app credentials: 256 random bits, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether the text could be one of our ids (anything else names no record). */
export function isWellFormedId(text: string): boolean {
  return idPattern.test(text);
}
