import { connect, type Socket } from 'node:net';
import type { Scanner, ScanVerdict } from '../domain/admission/scanner.ts';
import type { Clock } from '../domain/clock.ts';
import { scannerUnavailable } from '../errors/admission-errors.ts';
import { ScanSlots } from './scan-slots.ts';

/** Where clamd listens: a TCP port or a Unix socket (COFFER_SCAN_URL, scan-settings.ts). */
export type ClamdAddress = { host: string; port: number } | { path: string };

export type ClamdScannerOptions = {
  address: ClamdAddress;
  /** clamd.conf's StreamMaxLength: Coffer refuses larger streams itself (a clamd past MaxFileSize says OK). */
  maxBytes: number;
  /** Scans at once; more wait for a slot (COFFER_SCAN_CONCURRENCY). */
  concurrency: number;
  /** The longest silence (connecting, writing, answering) before the scan counts as unavailable. */
  timeoutMs: number;
  clock: Clock;
};

/** clamd(8): "It is mandatory to prefix this command with n or z"; z: replies end with a NUL too. */
const instream = Buffer.from('zINSTREAM\0');
/** clamd(8): "The stream is terminated by sending a zero-length chunk." */
const endOfStream = Buffer.alloc(4);
/** Chunks clamd takes at once; larger reads are cut (its StreamMaxLength counts the sum, not a chunk). */
const maxChunkBytes = 64 * 1024;

/**
 * ClamAV's daemon as the Scanner (issue 42): each scan a connection of its own, `zINSTREAM`,
 * the bytes as length-prefixed chunks written as the socket drains (a slow clamd slows the
 * upload, never fills memory), then the reply. `VERSION` names the engine and the signature
 * database; asked once per scan, since freshclam may load new signatures at any time.
 */
export class ClamdScanner implements Scanner {
  readonly maxBytes: number;
  readonly #o: ClamdScannerOptions;
  readonly #slots: ScanSlots;

  constructor(options: ClamdScannerOptions) {
    this.#o = options;
    this.maxBytes = options.maxBytes;
    this.#slots = new ScanSlots(options.concurrency);
  }

  async scan(
    bytes: AsyncIterable<Uint8Array> | NodeJS.ReadableStream,
    signal?: AbortSignal,
  ): Promise<ScanVerdict> {
    const release = await this.#slots.take(signal);
    try {
      const reply = await this.#instream(bytes as AsyncIterable<Uint8Array>, signal);
      const { engine, signatures } = toVersion(await this.#command('zVERSION\0', signal));
      const scannedAt = this.#o.clock.now().toISOString();
      const found = /^stream: (.+) FOUND$/.exec(reply);
      if (found) return { result: 'infected', signature: found[1]!, engine, signatures, scannedAt };
      if (reply === 'stream: OK') return { result: 'clean', engine, signatures, scannedAt };
      // "INSTREAM size limit exceeded. ERROR" and any other error: no verdict was reached.
      throw scannerUnavailable(new Error(`clamd answered: ${reply}`));
    } finally {
      release();
    }
  }

  /** PING → PONG: whether clamd answers (start-up checks, tests). */
  async ping(signal?: AbortSignal): Promise<boolean> {
    return (await this.#command('zPING\0', signal).catch(() => '')) === 'PONG';
  }

  async #instream(bytes: AsyncIterable<Uint8Array>, signal?: AbortSignal): Promise<string> {
    const connection = this.#open(signal);
    try {
      await connection.write(instream);
      for await (const chunk of bytes) {
        for (let at = 0; at < chunk.length; at += maxChunkBytes) {
          const part = chunk.subarray(at, at + maxChunkBytes);
          const length = Buffer.alloc(4);
          length.writeUInt32BE(part.length);
          // A reply before the end is clamd refusing (a size limit): stop sending, read it.
          if (connection.answered) break;
          await connection.write(length, part);
        }
      }
      if (!connection.answered) await connection.write(endOfStream);
      return await connection.reply;
    } finally {
      connection.close();
    }
  }

  async #command(command: string, signal?: AbortSignal): Promise<string> {
    const connection = this.#open(signal);
    try {
      await connection.write(Buffer.from(command));
      return await connection.reply;
    } finally {
      connection.close();
    }
  }

  #open(signal?: AbortSignal): ClamdConnection {
    return new ClamdConnection(connect(this.#o.address), this.#o.timeoutMs, signal);
  }
}

/** "ClamAV 1.4.6/27000/Sun Nov 29 09:00:00 2026" → the engine and the database's version and date. */
function toVersion(reply: string): { engine: string; signatures: string } {
  const [engine = reply, ...database] = reply.split('/');
  return { engine, signatures: database.join('/') || 'unknown' };
}

/**
 * One connection to clamd: writes that wait for the socket to drain, and the one reply (up to
 * the NUL of a z-command, or the close). Every failure — refused, reset, silent past the
 * timeout, aborted — rejects with SCANNER_UNAVAILABLE.
 */
class ClamdConnection {
  readonly reply: Promise<string>;
  answered = false;
  readonly #socket: Socket;
  #failure: Error | undefined;

  constructor(socket: Socket, timeoutMs: number, signal?: AbortSignal) {
    this.#socket = socket;
    socket.setTimeout(timeoutMs);
    this.reply = new Promise<string>((resolve, reject) => {
      const received: Buffer[] = [];
      const fail = (error: Error) => {
        this.#failure ??= error;
        reject(scannerUnavailable(error));
        socket.destroy();
      };
      const answer = () => {
        this.answered = true;
        const text = Buffer.concat(received).toString('utf8');
        resolve(text.replace(/\0[\s\S]*$/, '').trim());
      };
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        if (chunk.includes(0)) answer();
      });
      socket.on('end', answer);
      socket.on('error', fail);
      socket.on('timeout', () => fail(new Error('clamd did not answer in time')));
      socket.on('close', () => fail(new Error('clamd closed the connection without an answer')));
      signal?.addEventListener('abort', () => fail(new Error('the scan was aborted')), { once: true });
    });
    // Read by #instream or #command; a rejection nobody waits for must not go unheard.
    this.reply.catch(() => {});
  }

  /**
   * Resolves once the bytes are handed to the kernel or the socket drains; rejects as the reply
   * does. Several buffers go in one writev (a chunk's length and its bytes: one syscall, not two).
   */
  write(...buffers: Array<Buffer | Uint8Array>): Promise<void> {
    if (this.#failure) return this.reply.then(() => {});
    return new Promise<void>((resolve, reject) => {
      this.#socket.cork();
      for (const bytes of buffers.slice(0, -1)) this.#socket.write(bytes);
      const drained = this.#socket.write(buffers.at(-1)!, (error) => {
        if (error) this.reply.then(() => resolve(), reject);
      });
      this.#socket.uncork();
      if (drained) resolve();
      else this.#socket.once('drain', resolve);
      this.reply.then(() => resolve(), reject);
    });
  }

  close(): void {
    this.#socket.destroy();
  }
}
