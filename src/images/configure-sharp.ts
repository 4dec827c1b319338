import sharp from 'sharp';

// security: libvips chooses a loader by sniffing the bytes, whatever the file claims to be, and
// most of its loaders (SVG, PDF, TIFF, ImageMagick, OpenSlide, FITS, Matrix, CSV, PPM, the vips
// native format, JPEG 2000, JPEG XL, raw camera files, UltraHDR…) were never hardened against
// hostile input. Every loader is blocked and only those of the five formats Coffer renders are
// let back in: a loader that a later libvips adds stays blocked until someone lets it in here.
const blockedLoaders = ['VipsForeignLoad'];
const allowedLoaders = [
  'VipsForeignLoadJpeg',
  'VipsForeignLoadPng',
  'VipsForeignLoadWebp',
  'VipsForeignLoadNsgif',
  // AVIF. The same loader reads HEIC, which readImageHeader refuses before any decoding.
  'VipsForeignLoadHeif',
];

let isConfigured = false;

/**
 * Sets sharp up for untrusted input, once per process: only the renderable formats' loaders,
 * no operation cache, one thread per image. It is process-wide: after it, sharp in this process
 * reads nothing but JPEG, PNG, WebP, GIF and HEIF/AVIF.
 */
export function configureSharp(): void {
  if (isConfigured) return;
  isConfigured = true;
  sharp.block({ operation: blockedLoaders });
  sharp.unblock({ operation: allowedLoaders });
  // libvips' operation cache would keep decoded images of one user's render alive for the next
  // (memory that no render accounts for, up to 50 MB by default); every source is rendered once.
  sharp.cache(false);
  // One libvips thread per image: renders run side by side on libuv's pool (the render queue
  // bounds how many), so more threads per image would only contend for the same two cores and
  // hold more tile buffers each. sharp already picks 1 on glibc; musl (Alpine) would get one per
  // core, so it is set rather than assumed.
  sharp.concurrency(1);
}
