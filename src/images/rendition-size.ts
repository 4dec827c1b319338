import type { RenditionSpec } from '../domain/renditions/rendition-spec.ts';

/** Sides in pixels; a side left undefined follows the source's aspect ratio. */
export type RenditionSize = { width: number | undefined; height: number | undefined };

/**
 * The size to ask sharp for, so that a rendition never has more pixels than its source on
 * either side (security: a 1×1 source asked for 4096×4096 must not become a 16-megapixel blob).
 *
 * `inside` needs nothing: sharp's withoutEnlargement keeps it within the source. For `cover`,
 * `contain` and `fill` sharp's own answer is uneven (`contain` pads a small source up to the
 * whole box, `cover` clamps a single side and breaks the box's shape, `fill` with one side keeps
 * the source's other side), so the box is computed here: the missing side follows the source's
 * ratio (as the spec says), then the box shrinks, keeping its shape, until it fits the source.
 */
export function toRenditionSize(
  source: { width: number; height: number },
  spec: RenditionSpec,
): RenditionSize {
  if (spec.resize === 'inside') return { width: spec.width ?? undefined, height: spec.height ?? undefined };
  const width = spec.width ?? Math.round(((spec.height ?? 0) * source.width) / source.height);
  const height = spec.height ?? Math.round((width * source.height) / source.width);
  const scale = Math.min(1, source.width / width, source.height / height);
  return {
    width: Math.max(1, Math.min(source.width, Math.round(width * scale))),
    height: Math.max(1, Math.min(source.height, Math.round(height * scale))),
  };
}

/** The pixels of the rendition `spec` makes of a source: what its encoder holds. */
export function toRenditionPixels(source: { width: number; height: number }, spec: RenditionSpec): number {
  const size = toRenditionSize(source, spec);
  if (size.width !== undefined && size.height !== undefined && spec.resize !== 'inside')
    return size.width * size.height;
  // inside (never enlarged): the source scaled to fit within the sides given.
  const scale = Math.min(
    1,
    spec.width ? spec.width / source.width : 1,
    spec.height ? spec.height / source.height : 1,
  );
  return Math.max(1, Math.round(source.width * scale)) * Math.max(1, Math.round(source.height * scale));
}
