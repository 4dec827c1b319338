/**
 * Issue 23, item 10: the two ways a project on S3 serves downloads, side by side in one run on
 * one server. `s3-download-gateway` (the default: Coffer checks each link's generation and
 * streams the bytes from S3, so a revocation is immediate) against the same file's presigned
 * link (S3 serves it alone; a revocation waits for its expiry), and against the bare S3 ceiling.
 * The presigned link against S3 itself was a row once: it measured the S3 test server against
 * itself, nothing of Coffer's (issue 26). `--stack pg-s3` runs only.
 */
import type { BenchContext } from '../bench-context.ts';
import type { LoadRequest } from '../run-load.ts';
import type { Scenario } from '../scenario.ts';
import { seedWorkload } from '../seed/workload.ts';
import { downloadLinksInBothModes, sdkDownloadLink } from './s3-sides.ts';
import { loadSide } from './sides.ts';

type Link = { origin: string; path: string };
type ModeLinks = { gateway: Link; presigned: Link; direct: Link };

/** One server per run for both rows, its small file's link in each mode and the SDK's. */
const modeLinks = new WeakMap<BenchContext, Promise<ModeLinks>>();

function linksOf(context: BenchContext): Promise<ModeLinks> {
  let links = modeLinks.get(context);
  if (!links) {
    links = (async () => {
      const workload = await seedWorkload(await context.startCoffer('s3-downloads'), 's3-downloads');
      const { gateway, presigned } = await downloadLinksInBothModes(workload, workload.smallFileId);
      return { gateway, presigned, direct: await sdkDownloadLink(context, presigned) };
    })();
    modeLinks.set(context, links);
  }
  return links;
}

export const s3DownloadGateway: Scenario = {
  id: 's3-download-gateway',
  title: 'GET download on S3 through a gateway link, 1 KiB',
  unit: 'req/s',
  metric: 'rate',
  prepare: async (context) => {
    if (context.options.stack !== 'pg-s3') return { skipped: 'runs with --stack pg-s3' };
    const links = await linksOf(context);
    const { connections, durationSeconds } = context.options;
    const side = (label: string, link: Link) => {
      const request: LoadRequest = { method: 'GET', path: link.path };
      return loadSide(label, { url: link.origin, request, connections, durationSeconds });
    };
    // The first baseline is the presigned link: the ratio is the price of revocation.
    const baselines = [side('presigned', links.presigned), side('s3 direct', links.direct)];
    return { scenario: side('gateway', links.gateway), baselines };
  },
};
