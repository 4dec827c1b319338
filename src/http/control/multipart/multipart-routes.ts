import type { RouteRegistrar } from '../../route-context.ts';
import { abortMultipartUpload } from './abort-multipart-upload.ts';
import { completeMultipartUpload } from './complete-multipart-upload.ts';
import { listMultipartParts } from './list-multipart-parts.ts';
import { signMultipartRequest } from './sign-multipart-request.ts';
import { startMultipartUpload } from './start-multipart-upload.ts';

/** Parallel uploads of parts straight to S3 (issue 20), in the order they are registered (and documented). */
export const multipartRoutes: RouteRegistrar[] = [
  startMultipartUpload,
  listMultipartParts,
  completeMultipartUpload,
  abortMultipartUpload,
  signMultipartRequest,
];
