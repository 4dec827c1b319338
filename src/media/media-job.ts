import { open } from 'node:fs/promises';
import type { MediaTools } from './media-tools.ts';
import type { MediaWorkspace } from './media-workspace.ts';
import type { ToolRunner } from './tool-runner.ts';

/** What each media step needs: the tools found at start, the runner, the private directory. */
export type MediaContext = { tools: MediaTools; runner: ToolRunner; workspace: MediaWorkspace };

/**
 * The address space a tool needs beyond the render budget: its own code and libraries mapped,
 * thread stacks and allocator arenas. Debian 12's ffmpeg 5.1 needs 314 MiB to decode a tiny
 * clip (ffprobe 263 MiB), heif-convert 39 MiB; docs/architecture.md, "Phone media (issue 39)".
 */
export const toolAddressSpaceBytes = 512 * 1024 * 1024;

/** The first `length` bytes of a local file (fewer when it is shorter). */
export async function readFilePrefix(file: string, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
