/**
 * Issue 39's rows: a rendition of a phone's HEIC photo and a video's poster, each judged by the
 * server's CPU per render (its media tools included: they are children of the server, counted
 * by bench/probes/process-cpu.ts) against the decoder alone on the same file, run by the bench.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { skipWithoutMediaTools } from '../../test/support/media-fixtures.ts';
import type { BenchContext } from '../bench-context.ts';
import { measureChildrenCpu, measureCpu } from '../probes/process-cpu.ts';
import type { PreparedScenario, Scenario, Side } from '../scenario.ts';
import type { Workload } from '../seed/workload.ts';
import { makePhoneVideo, makePhotoHeic } from './media-sources.ts';
import { fetchRendition, runRenders, specSequence } from './rendition-scenarios.ts';

/** Renders a round: each costs the better part of a CPU-second on either side. */
const fullCount = 8;
/** The box of src/media/tool-runner.ts gives its tools this environment: so does the bench. */
const toolEnvironment = { LC_ALL: 'C', PATH: '/usr/bin:/bin' };

/** Why the rows cannot run here: the tools the server needs (prlimit boxes them) or the bench does. */
function missingTools(): string | undefined {
  if (skipWithoutMediaTools) return skipWithoutMediaTools;
  if (!existsSync('/usr/bin/prlimit'))
    return 'prlimit (util-linux) is missing: the server runs no media tool';
  return undefined;
}

/**
 * Uploads a media file and waits for its summary (meta.placeholder: the server decodes it once
 * after verify), so that no summary's decode falls in a timed round.
 */
async function uploadMedia(workload: Workload, file: string, contentType: string): Promise<string> {
  const uploaded = await workload.api.uploadFile(
    workload.token,
    `bench/${Date.now()}-${path.basename(file)}`,
    await readFile(file),
    { contentType },
  );
  const deadline = Date.now() + 120_000;
  for (;;) {
    const answer = await workload.api.call('GET', `/api/v1/file/${uploaded._id}`, { token: workload.token });
    if (answer.status !== 200) throw new Error(`GET file: ${answer.status} ${answer.text}`);
    if (typeof answer.body.meta?.placeholder === 'string') return uploaded._id;
    if (Date.now() > deadline)
      throw new Error(
        `no summary of ${path.basename(file)} in 2 minutes: meta ${JSON.stringify(answer.body.meta)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** One rendition outside the timed sequence (a PNG): the server renders this media, 256 px wide. */
async function checkRendition(workload: Workload, fileId: string): Promise<void> {
  const png = await fetchRendition(workload, fileId, 'width=256&format=png');
  const { format, width } = await sharp(png).metadata();
  if (format !== 'png' || width !== 256) throw new Error(`the rendition is a ${width} px ${format}`);
}

/** Coffer's side: `count` new renditions (a spec never rendered before each), 256 px WebP. */
function cofferSide(workload: Workload, fileId: string, count: number): Side {
  const nextSpec = specSequence();
  return {
    label: 'coffer',
    run: () =>
      measureCpu(workload.server.url, () =>
        runRenders(count, async () => {
          const { quality, resize } = nextSpec();
          await fetchRendition(workload, fileId, `width=256&format=webp&quality=${quality}&resize=${resize}`);
        }),
      ),
  };
}

/** The decoder's side: the tool run by the bench `count` times, its CPU from its rusage. */
function decoderSide(label: string, count: number, command: (index: number) => ToolCommand): Side {
  let next = 0;
  return {
    label,
    run: () =>
      measureChildrenCpu(() =>
        runRenders(count, async () => {
          const { tool, args, cleanUp } = command(next++);
          try {
            await runTool(tool, args);
          } finally {
            await cleanUp?.();
          }
        }),
      ),
  };
}

type ToolCommand = { tool: string; args: string[]; cleanUp?: () => Promise<void> };

/** Runs a tool to its end, its output read and dropped (as the server reads it); fails on a non-zero exit. */
function runTool(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env: toolEnvironment, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', () => {});
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.stdout.on('error', reject);
    child.stderr.on('error', reject);
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${tool} ended with ${signal ?? code}: ${stderr.trim()}`)),
    );
  });
}

export const heicRender: Scenario = {
  id: 'heic-render',
  title: 'Render a 12 MP HEIC to a 256 px WebP (new rendition: heif-convert in its box, then sharp)',
  unit: 'req/s',
  metric: 'rate',
  // Issue 39: at least 0.8× by server CPU per render, the decoder alone's ÷ Coffer's.
  target: 0.8,
  prepare: async (context: BenchContext): Promise<PreparedScenario> => {
    const missing = missingTools();
    if (missing) return { skipped: missing };
    const workload = await context.workload();
    const dir = path.join(context.workDir, 'media');
    const heic = await makePhotoHeic(dir, context.options.smoke ? 1 : 12);
    const fileId = await uploadMedia(workload, heic, 'image/heic');
    await checkRendition(workload, fileId);
    const count = context.options.smoke ? 2 : fullCount;
    const stills = path.join(dir, 'stills');
    await mkdir(stills, { recursive: true });
    // The server's decode (src/media/decode-still.ts): JPEG at quality 92, to a file.
    const alone = decoderSide('heif-convert', count, (index) => {
      const output = path.join(stills, `still-${index}.jpg`);
      return {
        tool: '/usr/bin/heif-convert',
        args: ['--quiet', '-q', '92', heic, output],
        cleanUp: () => rm(output, { force: true }),
      };
    });
    return { scenario: cofferSide(workload, fileId, count), baselines: [alone] };
  },
};

export const videoPoster: Scenario = {
  id: 'video-poster',
  title:
    'Poster of a 1080p H.264 MP4 as a 256 px WebP (new rendition: ffmpeg in its box, the probe from the record, then sharp)',
  unit: 'req/s',
  metric: 'rate',
  // Issue 39: at least 0.8× by server CPU per render, the decoder alone's ÷ Coffer's.
  target: 0.8,
  prepare: async (context: BenchContext): Promise<PreparedScenario> => {
    const missing = missingTools();
    if (missing) return { skipped: missing };
    const workload = await context.workload();
    const mp4 = await makePhoneVideo(path.join(context.workDir, 'media'), {
      height: context.options.smoke ? 360 : 1080,
      seconds: context.options.smoke ? 2 : 3,
    });
    const fileId = await uploadMedia(workload, mp4, 'video/mp4');
    await checkRendition(workload, fileId);
    const count = context.options.smoke ? 2 : fullCount;
    // The server's poster (src/media/decode-still.ts): the frame at 1 s, one thread, the MP4
    // demuxer forced, an uncompressed RGB PNG on stdout.
    const alone = decoderSide('ffmpeg', count, () => ({
      tool: '/usr/bin/ffmpeg',
      args: [
        ...['-nostdin', '-v', 'error', '-threads', '1', '-filter_threads', '1'],
        ...['-protocol_whitelist', 'file,pipe', '-f', 'mov', '-ss', '1.000', '-i', `file:${mp4}`],
        ...['-frames:v', '1', '-an', '-sn', '-dn', '-pix_fmt', 'yuvj420p'],
        ...['-f', 'image2pipe', '-c:v', 'mjpeg', '-q:v', '2', 'pipe:1'],
      ],
    }));
    return { scenario: cofferSide(workload, fileId, count), baselines: [alone] };
  },
};
