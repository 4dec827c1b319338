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

/** A new secret for the app credentials: 256 random bits, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether the text could be one of our ids (anything else names no record). */
export function isWellFormedId(text: string): boolean {
  return idPattern.test(text);
}
