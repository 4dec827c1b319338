import { validationFailed } from '../../errors/errors.ts';

export const resizeModes = ['cover', 'contain', 'fill', 'inside'] as const;
export type ResizeMode = (typeof resizeModes)[number];
export const outputFormats = ['origin', 'webp', 'avif', 'jpeg', 'png'] as const;
export type OutputFormat = (typeof outputFormats)[number];

export const maxRenditionSide = 4096;
export const minQuality = 20;
export const maxQuality = 100;
export const defaultQuality = 80;

/**
 * One rendition of an image (issue 21). At least one side is given; a missing side follows the
 * source's aspect ratio. `origin` keeps the source's format.
 */
export type RenditionSpec = {
  width: number | null;
  height: number | null;
  resize: ResizeMode;
  format: OutputFormat;
  quality: number;
};

/** The free parameters of `GET /api/v1/file/:id`, as the query string carries them. */
export type RenditionQuery = {
  width?: string;
  height?: string;
  resize?: string;
  format?: string;
  quality?: string;
};

/**
 * The one spelling of a spec, e.g. `200x200-cover-webp-q80` (0 for a side left to the ratio):
 * it names the cached rendition and is signed into its link. security: every spec has exactly
 * one canonical string, so a signed link cannot be edited into another size that means the same.
 */
export function toCanonicalSpec(spec: RenditionSpec): string {
  return `${spec.width ?? 0}x${spec.height ?? 0}-${spec.resize}-${spec.format}-q${spec.quality}`;
}

const canonicalPattern = /^(0|[1-9]\d{0,3})x(0|[1-9]\d{0,3})-([a-z]+)-([a-z]+)-q([1-9]\d{1,2})$/;

/** The spec a canonical string names; undefined for anything toCanonicalSpec would not write. */
export function parseCanonicalSpec(text: string): RenditionSpec | undefined {
  const match = canonicalPattern.exec(text);
  if (!match) return undefined;
  const [, width = '', height = '', resize = '', format = '', quality = ''] = match;
  const spec: RenditionSpec = {
    width: width === '0' ? null : Number(width),
    height: height === '0' ? null : Number(height),
    resize: resize as ResizeMode,
    format: format as OutputFormat,
    quality: Number(quality),
  };
  if (!isValidSpec(spec) || toCanonicalSpec(spec) !== text) return undefined;
  return spec;
}

/** Whether any free rendition parameter is present (none: the plain download, unchanged). */
export function hasRenditionQuery(query: RenditionQuery): boolean {
  return ['width', 'height', 'resize', 'format', 'quality'].some(
    (name) => query[name as keyof RenditionQuery] !== undefined,
  );
}

/** The free parameters → a spec; VALIDATION_FAILED naming the parameter and its allowed values. */
export function parseRenditionQuery(query: RenditionQuery): RenditionSpec {
  const spec: RenditionSpec = {
    width: parseSide(query.width, 'width'),
    height: parseSide(query.height, 'height'),
    resize: oneOf(query.resize, 'resize', resizeModes, 'cover'),
    format: oneOf(query.format, 'format', outputFormats, 'origin'),
    quality: parseQuality(query.quality, 'quality'),
  };
  if (spec.width === null && spec.height === null)
    throw validationFailed(`a rendition needs width or height (integers 1–${maxRenditionSide})`);
  return spec;
}

/**
 * A preset as `coffer project set <p> renditions.<name>=<w>x<h>[,<resize>][,<format>][,q<quality>]`
 * writes it (`200x200,cover,webp,q80`; a side may be empty: `200x`).
 */
export function parsePreset(text: string, name: string): RenditionSpec {
  const [size = '', ...options] = text.split(',').map((part) => part.trim().toLowerCase());
  const sides = /^(\d*)x(\d*)$/.exec(size);
  if (!sides)
    throw validationFailed(
      `${name} must read <width>x<height>[,<resize>][,<format>][,q<quality>], e.g. 200x200,cover,webp,q80`,
    );
  const query: RenditionQuery = {};
  if (sides[1]) query.width = sides[1];
  if (sides[2]) query.height = sides[2];
  for (const option of options) {
    if ((resizeModes as readonly string[]).includes(option)) query.resize = option;
    else if ((outputFormats as readonly string[]).includes(option)) query.format = option;
    else if (/^q\d+$/.test(option)) query.quality = option.slice(1);
    else
      throw validationFailed(
        `${name}: ${JSON.stringify(option)} is none of resize (${resizeModes.join(', ')}), format (${outputFormats.join(', ')}) or q<quality>`,
      );
  }
  try {
    return parseRenditionQuery(query);
  } catch (error) {
    throw validationFailed(`${name}: ${(error as Error).message}`);
  }
}

/** The preset written back as parsePreset reads it. */
export function toPresetText(spec: RenditionSpec): string {
  return `${spec.width ?? ''}x${spec.height ?? ''},${spec.resize},${spec.format},q${spec.quality}`;
}

export function isValidSpec(value: unknown): value is RenditionSpec {
  if (value === null || typeof value !== 'object') return false;
  const spec = value as Record<string, unknown>;
  const isSide = (side: unknown) =>
    side === null ||
    (Number.isInteger(side) && (side as number) >= 1 && (side as number) <= maxRenditionSide);
  return (
    isSide(spec.width) &&
    isSide(spec.height) &&
    (spec.width !== null || spec.height !== null) &&
    (resizeModes as readonly unknown[]).includes(spec.resize) &&
    (outputFormats as readonly unknown[]).includes(spec.format) &&
    Number.isInteger(spec.quality) &&
    (spec.quality as number) >= minQuality &&
    (spec.quality as number) <= maxQuality
  );
}

function parseSide(text: string | undefined, name: string): number | null {
  if (text === undefined) return null;
  const value = /^[1-9]\d{0,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= maxRenditionSide))
    throw validationFailed(`${name} must be an integer from 1 to ${maxRenditionSide}`);
  return value;
}

function parseQuality(text: string | undefined, name: string): number {
  if (text === undefined) return defaultQuality;
  const value = /^[1-9]\d{1,2}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= minQuality && value <= maxQuality))
    throw validationFailed(`${name} must be an integer from ${minQuality} to ${maxQuality}`);
  return value;
}

function oneOf<T extends string>(
  text: string | undefined,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  if (text === undefined) return fallback;
  if (!(choices as readonly string[]).includes(text))
    throw validationFailed(`${name} must be one of ${choices.join(', ')}`);
  return text as T;
}
