import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * podman with all its state (images, containers, volumes, secrets) in a private root in a
 * temporary folder, configured as this kind of VM needs (../shared/anchors/containers.md): the
 * runc runtime, the cgroupfs manager, ulimits within the hard limits. `remove()` resets that
 * root and deletes the folder: nothing stays on the machine.
 */
export type PrivatePodman = {
  /** Its root is dir/storage, its runroot dir/run. */
  dir: string;
  run(args: string[], options?: { timeoutMs?: number }): Promise<{ stdout: string; stderr: string }>;
  /** The same, answering the exit code instead of throwing. */
  try(
    args: string[],
    options?: { timeoutMs?: number },
  ): Promise<{ code: number; stdout: string; stderr: string }>;
  remove(): Promise<void>;
};

/** The tools missing for building and running the image (empty: all there). */
export function missingContainerTools(): string[] {
  const onPath = (tool: string) =>
    (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, tool)));
  return ['podman', 'runc', 'debootstrap'].filter((tool) => !onPath(tool));
}

export async function startPrivatePodman(): Promise<PrivatePodman> {
  const dir = await mkdtemp(path.join(tmpdir(), 'coffer-podman-'));
  await mkdir(path.join(dir, 'tmp'));
  const { stdout: hardFiles } = await execFileAsync('sh', ['-c', 'ulimit -Hn']);
  await writeFile(
    path.join(dir, 'containers.conf'),
    `[containers]\ndefault_ulimits = ["nofile=${hardFiles.trim()}:${hardFiles.trim()}", "nproc=32768:32768"]\n` +
      '[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n',
  );
  const env = {
    ...process.env,
    CONTAINERS_CONF: path.join(dir, 'containers.conf'),
    TMPDIR: path.join(dir, 'tmp'),
  };
  const base = ['--root', path.join(dir, 'storage'), '--runroot', path.join(dir, 'run')];
  // A hang guard, never a speed check: sized for a busy machine.
  const run = (args: string[], options: { timeoutMs?: number } = {}) =>
    execFileAsync('podman', [...base, ...args], {
      env,
      timeout: options.timeoutMs ?? 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  return {
    dir,
    run,
    try: async (args, options) => {
      try {
        return { code: 0, ...(await run(args, options)) };
      } catch (error) {
        const failed = error as { code?: number | string; stdout?: string; stderr?: string };
        return {
          code: typeof failed.code === 'number' ? failed.code : -1,
          stdout: failed.stdout ?? '',
          stderr: failed.stderr ?? String(error),
        };
      }
    },
    remove: async () => {
      await run(['rm', '--all', '--force', '--time', '0']).catch(() => {});
      await run(['system', 'reset', '--force']).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
