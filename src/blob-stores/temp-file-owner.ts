import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/**
 * Who wrote a temp file, written into its name, so that a sweeper in any process can tell a
 * write in progress from the leftovers of a crash (kill -9, power loss) without a lock:
 *   <host>-<pid>-<start>-<token>-<random>.tmp
 * host:  this machine and PID namespace (a hash): a PID means nothing in another one, e.g. a
 *        container sharing the volume, so such files are judged by age only;
 * pid:   the writing process;
 * start: when that process started (Linux /proc, in clock ticks since boot; 0 elsewhere): a
 *        live process with the same PID but another start time is not the writer (PID reuse);
 * token: random per process: tells this process's own files apart without asking the OS.
 */
export type TempFileOwner = { host: string; pid: number; start: string; token: string };

const TEMP_NAME = /^([0-9a-f]{8})-(\d{1,10})-(\d{1,20})-([0-9a-f]{8})-[0-9a-f]{16}\.tmp$/;

let self: TempFileOwner | undefined;

/** This process, as its temp file names show it. */
export function thisProcess(): TempFileOwner {
  self ??= {
    host: createHash('sha256')
      .update(`${hostname()}\n${readLinkOr('/proc/self/ns/pid', '')}`)
      .digest('hex')
      .slice(0, 8),
    pid: process.pid,
    start: readStartTicks(process.pid) ?? '0',
    token: randomBytes(4).toString('hex'),
  };
  return self;
}

/** A fresh temp file name owned by this process. */
export function newTempName(): string {
  return toTempName(thisProcess());
}

/** A fresh temp file name recording `owner`. */
export function toTempName(owner: TempFileOwner): string {
  const { host, pid, start, token } = owner;
  return `${host}-${pid}-${start}-${token}-${randomBytes(8).toString('hex')}.tmp`;
}

/** The owner a temp file name records; undefined for names in another format (older versions). */
export function toTempFileOwner(name: string): TempFileOwner | undefined {
  const match = TEMP_NAME.exec(name);
  if (!match) return undefined;
  const [, host = '', pid = '', start = '', token = ''] = match;
  return { host, pid: Number(pid), start, token };
}

/**
 * Whether the process that wrote a temp file may still be writing it: false only when that is
 * certain (the process is gone, or its PID now belongs to another process). Owners on another
 * host or PID namespace cannot be asked: they count as alive (the age backstop applies).
 */
export async function isTempFileOwnerAlive(owner: TempFileOwner): Promise<boolean> {
  const me = thisProcess();
  if (owner.host !== me.host) return true;
  if (owner.pid === me.pid) return owner.token === me.token && owner.start === me.start;
  if (!processExists(owner.pid)) return false;
  // No start time on this platform: a live PID must be taken as the owner.
  if (owner.start === '0' || me.start === '0') return true;
  const stat = await readFile(`/proc/${owner.pid}/stat`, 'utf8').catch(() => '');
  // A zombie (killed, not yet reaped) writes nothing any more.
  return !isZombie(stat) && toStartTicks(stat) === owner.start;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readStartTicks(pid: number): string | undefined {
  try {
    // Synchronous once per process, at its first temp file: /proc never waits for a disk.
    return toStartTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Fields 3 on of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses. */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Field 22: the start time. */
function toStartTicks(stat: string): string | undefined {
  const start = statFields(stat)[19];
  return start && /^\d+$/.test(start) ? start : undefined;
}

/** Field 3: the state (Z zombie, X dead). */
function isZombie(stat: string): boolean {
  const state = statFields(stat)[0];
  return state === 'Z' || state === 'X';
}

function readLinkOr(path: string, fallback: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return fallback;
  }
}
