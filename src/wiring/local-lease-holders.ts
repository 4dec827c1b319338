import { readFile, readlink } from 'node:fs/promises';
import type { LeaseHolders } from '../domain/resumable/lease-holders.ts';

/*
 * A holder is `<node>/<pid>/<start>`: `node` names the process table the pid belongs to (the
 * kernel's boot id and the pid namespace, so two containers on one host, whose pids overlap,
 * never judge each other's), and `start` the process's start time in clock ticks since boot
 * (/proc/<pid>/stat, field 22), so a pid the kernel handed to a new process is not mistaken
 * for the dead one. Linux only; elsewhere no holder is ever judged gone (leases lapse).
 */

/** Leases' holders on this node, told apart by /proc: a holder whose process is not there is gone. */
export async function openLocalLeaseHolders(): Promise<LeaseHolders> {
  const node = await readNodeName();
  const start = node && (await readStartTicks(process.pid));
  if (!node || !start) return { self: `unknown/${process.pid}/0`, isGone: async () => false };
  return {
    self: `${node}/${process.pid}/${start}`,
    async isGone(holder: string): Promise<boolean> {
      const [holderNode, pid, holderStart] = holder.split('/');
      if (holderNode !== node || !pid || !/^\d+$/.test(pid)) return false;
      if (Number(pid) === process.pid) return holderStart !== start;
      return (await readStartTicks(Number(pid))) !== holderStart;
    },
  };
}

async function readNodeName(): Promise<string | undefined> {
  try {
    const bootId = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
    const pidNamespace = /\[(\d+)\]/.exec(await readlink('/proc/self/ns/pid'))?.[1];
    return pidNamespace ? `${bootId}.${pidNamespace}` : undefined;
  } catch {
    return undefined;
  }
}

/** The process's start time, or undefined when it is not running (gone, or a zombie). */
async function readStartTicks(pid: number): Promise<string | undefined> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it are counted
  // from its last ')'. Field 3 is the state, field 22 the start time.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return fields[19];
}
