import { fileNotFound } from '../../errors/errors.ts';
import { toUnixSeconds } from '../clock.ts';
import type { LinkIssuer } from '../links/link-issuer.ts';
import type { FileRecord } from './file-record.ts';
import type { FileStores } from './file-stores.ts';

/** The parts of a gateway link: the file id from the path, the rest from the query string. */
export type GatewayLink = {
  fileId: string;
  expiresAt: number;
  /** Download links: the file's links generation they were issued under (absent: 0). */
  generation?: number;
  /** Download links since issue 38: the version they were issued for. */
  version?: string;
  kid?: string;
  sig?: string;
};

/** The file a gateway link names, once its signature holds for `operation` (data plane). */
export async function getLinkedFile(
  options: Pick<FileStores, 'files' | 'clock'> & { links: LinkIssuer },
  link: GatewayLink,
  operation: 'upload' | 'download',
): Promise<FileRecord> {
  // The signature is checked before anything is looked up: a forged link learns nothing.
  await options.links.assertGatewayLink(
    {
      operation,
      fileId: link.fileId,
      expiresAt: link.expiresAt,
      generation: link.generation,
      ...(link.version !== undefined && { version: link.version }),
    },
    link,
    toUnixSeconds(options.clock.now()),
  );
  // A download is a hot read (issue 44): a record checked within 250 ms, unless this node
  // wrote since; an upload commits through the record, so it reads the current one.
  const file =
    operation === 'download'
      ? await options.files.findRecentById(link.fileId)
      : await options.files.findById(link.fileId);
  if (!file) throw fileNotFound();
  return file;
}
