/**
 * Every benchmark scenario, in the order they run. Adding one is one entry here (and its
 * `prepare`); `npm run bench -- --only <id>` runs it alone. "memory" (server RSS during a
 * 1 GiB upload and download) is not a ratio and lives in memory/measure-transfer-memory.ts.
 */

import type { Scenario } from './scenario.ts';
import { archiveDownload } from './scenarios/archive-scenarios.ts';
import { capabilitiesHotPath } from './scenarios/capabilities-scenario.ts';
import {
  getFile,
  getUser,
  listFiles,
  login,
  requestUpload,
  verifyUpload,
} from './scenarios/control-plane-scenarios.ts';
import {
  download1k,
  downloadLarge,
  uploadLargeMultipart,
  uploadLargeRaw,
} from './scenarios/data-plane-scenarios.ts';
import { verifyWithWebhooks } from './scenarios/event-scenarios.ts';
import { folderMove } from './scenarios/folder-move-scenario.ts';
import { folderPageScale, folderPageScale20, folderPageScaleCold } from './scenarios/folder-scenarios.ts';
import { folderSharesHotPath } from './scenarios/folder-share-scenario.ts';
import { loginInterference, manyRecords } from './scenarios/hot-path-scenarios.ts';
import { heicRender, videoPoster } from './scenarios/media-scenarios.ts';
import { renditionCached, renditionRender } from './scenarios/rendition-scenarios.ts';
import { tusUpload } from './scenarios/resumable-scenarios.ts';
import { s3DownloadGateway } from './scenarios/s3-download-scenarios.ts';
import {
  scaleListAdmin,
  scaleListFew,
  scaleListMany,
  scaleListNone,
  scaleReadsWhileListing,
} from './scenarios/scale-scenarios.ts';
import { uploadScanned } from './scenarios/scan-scenarios.ts';
import { searchScenarios } from './scenarios/search-scenarios.ts';
import { sharedWithMe, sharedWithMeCold } from './scenarios/shared-with-me-scenario.ts';
import {
  getFileOnPostgres,
  getFileOnPostgresS3,
  requestUploadOnPostgresS3,
  verifyOnPostgresS3,
} from './scenarios/stack-scenarios.ts';
import { requestUploadAtScale } from './scenarios/upload-request-scale-scenario.ts';
import { webhookBesideTarpit } from './scenarios/webhook-tarpit-scenario.ts';
import { bareFastifyWorkers, getFileWorkers } from './scenarios/worker-scenarios.ts';

export const scenarios: readonly Scenario[] = [
  getUser,
  requestUpload,
  requestUploadAtScale,
  getFile,
  getFileWorkers,
  bareFastifyWorkers,
  listFiles,
  verifyUpload,
  download1k,
  downloadLarge,
  archiveDownload,
  uploadLargeRaw,
  uploadLargeMultipart,
  tusUpload,
  uploadScanned,
  renditionRender,
  renditionCached,
  heicRender,
  videoPoster,
  verifyWithWebhooks,
  webhookBesideTarpit,
  login,
  loginInterference,
  manyRecords,
  getFileOnPostgres,
  getFileOnPostgresS3,
  requestUploadOnPostgresS3,
  verifyOnPostgresS3,
  s3DownloadGateway,
  scaleListAdmin,
  scaleListMany,
  scaleListFew,
  scaleListNone,
  scaleReadsWhileListing,
  ...searchScenarios,
  folderPageScale,
  folderPageScale20,
  folderPageScaleCold,
  sharedWithMe,
  sharedWithMeCold,
  folderMove,
  folderSharesHotPath,
  capabilitiesHotPath,
];
