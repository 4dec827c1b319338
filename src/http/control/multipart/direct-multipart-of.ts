import type { DirectMultipart } from '../../../domain/resumable/direct-multipart.ts';
import type { DirectMultipartSigner } from '../../../domain/resumable/direct-multipart-signer.ts';
import { validationFailed } from '../../../errors/errors.ts';
import type { Services } from '../../../services.ts';

/** The parallel-upload service, or 400 naming why there is none (checked before any lookup). */
export function directMultipartOf(services: Services): DirectMultipart {
  if (services.directMultipart) return services.directMultipart;
  throw notS3();
}

/** Uppy's `@uppy/aws-s3` signing, or the same 400. */
export function directMultipartSignerOf(services: Services): DirectMultipartSigner {
  if (services.directMultipartSigner) return services.directMultipartSigner;
  throw notS3();
}

function notS3() {
  return validationFailed(
    "This server's blob store is not S3, so parts cannot be sent to it directly: upload through resumableUrl (tus) or putFileUrl",
  );
}
