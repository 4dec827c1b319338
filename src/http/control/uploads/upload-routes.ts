import type { RouteRegistrar } from '../../route-context.ts';
import { createUpload } from './create-upload.ts';

/** Resumable uploads (tus 1.0 creation); the uploads' own URLs are on the data plane. */
export const uploadRoutes: RouteRegistrar[] = [createUpload];
