import type { DirectMultipart } from '../../../domain/resumable/direct-multipart.ts';
import { validationFailed } from '../../../errors/errors.ts';
import type { Services } from '../../../services.ts';

/** The parallel-upload service, or 400 naming why there is none (checked before any lookup). */
export function directMultipartOf(services: Services): DirectMultipart {
  if (services.directMultipart) return services.directMultipart;
  throw validationFailed(
    "This server's blob store is not S3, so parts cannot be sent to it directly: upload through resumableUrl (tus) or putFileUrl",
  );
}
