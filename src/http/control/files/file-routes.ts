import { copyFile } from './copy-file.ts';
import { deleteFile } from './delete-file.ts';
import { deleteFiles } from './delete-files.ts';
import { getFile } from './get-file.ts';
import { holdFile } from './hold-file.ts';
import { listFiles } from './list-files.ts';
import { moveFile } from './move-file.ts';
import { releaseFile } from './release-file.ts';
import { releaseQuarantine } from './release-quarantine.ts';
import { requestUpload } from './request-upload.ts';
import { revokeLinks } from './revoke-links.ts';
import { shareFile } from './share-file.ts';
import { shareFileByEmail } from './share-file-by-email.ts';
import { unshareFile } from './unshare-file.ts';
import { updateFile } from './update-file.ts';
import { verifyUpload } from './verify-upload.ts';

/** The /api/v1 routes of file records, uploads, ACLs, links and organizing, in the order they are registered (and documented). */
export const fileRoutes = [
  requestUpload,
  verifyUpload,
  shareFile,
  shareFileByEmail,
  unshareFile,
  getFile,
  listFiles,
  deleteFile,
  updateFile,
  revokeLinks,
  copyFile,
  moveFile,
  deleteFiles,
  holdFile,
  releaseFile,
  releaseQuarantine,
];
