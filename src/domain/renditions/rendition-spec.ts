import { validationFailed } from '../../errors/errors.ts';

export const resizeModes = ['cover', 'contain', 'fill', 'inside'] as const;
export type ResizeMode = (typeof resizeModes)[number];
export const outputFormats = ['origin', 'webp', 'avif', 'jpeg', 'png'] as const;
export type OutputFormat = (typeof outputFormats)[number];

export const maxRenditionSide = 4096;
export const minQuality = 20;
export const maxQuality = 100;
export const defaultQuality = 80;
/** The latest poster a rendition may ask for (a day's clip), in seconds. */
export const maxPosterAtSeconds = 86_400;

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
  /**
   * Every frame of an animated GIF or WebP, with its timing, as an animated WebP (issue 39);
   * false: the first frame. A source of one frame renders the same either way.
   */
  animated: boolean;
  /** Where a video's poster frame is taken, in ms; null: at 1 s, or the first frame of a shorter clip. */
  posterAtMs: number | null;
};

/** The free parameters of `GET /api/v1/file/:id`, as the query string carries them. */
export type RenditionQuery = {
  width?: string;
  height?: string;
  resize?: string;
  format?: string;
  quality?: string;
  animated?: string;
  posterAt?: string;
};

/** The parameters that size and encode a rendition: a preset names them all. */
const sizeParameters = ['width', 'height', 'resize', 'format', 'quality'] as const;
/**
 * The parameters that are no size (issue 39): they may go beside a preset's name, since a
 * gallery asks its one preset of stills, animations and videos alike (docs/decisions.md).
 */
const presetModifiers = ['animated', 'posterAt'] as const;

/**
 * The one spelling of a spec, e.g. `200x200-cover-webp-q80` (0 for a side left to the ratio),
 * then `-anim` when animated and `-t<ms>` for a poster time (`320x0-cover-webp-q80-anim`,
 * `320x0-cover-webp-q80-t2500`): it names the cached rendition and is signed into its link. A
 * spec without the parameters of issue 39 is spelled as before them, so the links handed out and
 * the renditions stored stay valid. security: every spec has exactly one canonical string, so a
 * signed link cannot be edited into another size that means the same.
 */
export function toCanonicalSpec(spec: RenditionSpec): string {
  const base = `${spec.width ?? 0}x${spec.height ?? 0}-${spec.resize}-${spec.format}-q${spec.quality}`;
  return `${base}${spec.animated ? '-anim' : ''}${spec.posterAtMs === null ? '' : `-t${spec.posterAtMs}`}`;
}

const canonicalPattern =
  /^(0|[1-9]\d{0,3})x(0|[1-9]\d{0,3})-([a-z]+)-([a-z]+)-q([1-9]\d{1,2})(-anim)?(?:-t(0|[1-9]\d{0,7}))?$/;

/** The spec a canonical string names; undefined for anything toCanonicalSpec would not write. */
export function parseCanonicalSpec(text: string): RenditionSpec | undefined {
  const match = canonicalPattern.exec(text);
  if (!match) return undefined;
  const [, width = '', height = '', resize = '', format = '', quality = '', anim, posterAtMs] = match;
  const spec: RenditionSpec = {
    width: width === '0' ? null : Number(width),
    height: height === '0' ? null : Number(height),
    resize: resize as ResizeMode,
    format: format as OutputFormat,
    quality: Number(quality),
    animated: anim !== undefined,
    posterAtMs: posterAtMs === undefined ? null : Number(posterAtMs),
  };
  if (!isValidSpec(spec) || toCanonicalSpec(spec) !== text) return undefined;
  return spec;
}

/** Whether any free rendition parameter is present (none: the plain download, unchanged). */
export function hasRenditionQuery(query: RenditionQuery): boolean {
  return hasSizeParameters(query) || presetModifiers.some((name) => query[name] !== undefined);
}

/** Whether any parameter a preset's name stands for is present (then no preset may be named). */
export function hasSizeParameters(query: RenditionQuery): boolean {
  return sizeParameters.some((name) => query[name] !== undefined);
}

/** The free parameters → a spec; VALIDATION_FAILED naming the parameter and its allowed values. */
export function parseRenditionQuery(query: RenditionQuery): RenditionSpec {
  const spec: RenditionSpec = {
    width: parseSide(query.width, 'width'),
    height: parseSide(query.height, 'height'),
    resize: oneOf(query.resize, 'resize', resizeModes, 'cover'),
    format: oneOf(query.format, 'format', outputFormats, 'origin'),
    quality: parseQuality(query.quality, 'quality'),
    animated: parseFlag(query.animated, 'animated') ?? false,
    posterAtMs: parsePosterAtMs(query.posterAt),
  };
  if (spec.width === null && spec.height === null)
    throw validationFailed(`a rendition needs width or height (integers 1–${maxRenditionSide})`);
  assertAnimatedFormat(spec);
  return spec;
}

/** A preset's spec with the modifiers beside its name: each one given replaces the preset's own. */
export function withPresetModifiers(
  preset: RenditionSpec,
  query: RenditionQuery,
  name: string,
): RenditionSpec {
  const animated = parseFlag(query.animated, 'animated');
  const spec: RenditionSpec = {
    ...preset,
    animated: animated ?? preset.animated,
    posterAtMs: query.posterAt === undefined ? preset.posterAtMs : parsePosterAtMs(query.posterAt),
  };
  assertAnimatedFormat(spec, `preset ${name} writes ${preset.format}`);
  return spec;
}

/** Only WebP is written animated: GIF out would lose colours, and AVIF sequences are slow to encode. */
function assertAnimatedFormat(spec: RenditionSpec, reason?: string): void {
  if (spec.animated && spec.format !== 'webp')
    throw validationFailed(
      `animated=true needs format=webp (only WebP is written animated)${reason ? `; ${reason}` : ''}`,
    );
}

/**
 * A preset as `coffer project set <p> renditions.<name>=<w>x<h>[,<resize>][,<format>][,q<quality>][,anim][,t<seconds>]`
 * writes it (`200x200,cover,webp,q80`; a side may be empty: `200x`; `anim` and `t2.5` are the
 * query's animated=true and posterAt=2.5).
 */
export function parsePreset(text: string, name: string): RenditionSpec {
  const [size = '', ...options] = text.split(',').map((part) => part.trim().toLowerCase());
  const sides = /^(\d*)x(\d*)$/.exec(size);
  if (!sides)
    throw validationFailed(
      `${name} must read <width>x<height>[,<resize>][,<format>][,q<quality>][,anim][,t<seconds>], e.g. 200x200,cover,webp,q80`,
    );
  const query: RenditionQuery = {};
  if (sides[1]) query.width = sides[1];
  if (sides[2]) query.height = sides[2];
  for (const option of options) {
    if ((resizeModes as readonly string[]).includes(option)) query.resize = option;
    else if ((outputFormats as readonly string[]).includes(option)) query.format = option;
    else if (/^q\d+$/.test(option)) query.quality = option.slice(1);
    else if (option === 'anim') query.animated = 'true';
    else if (/^t[\d.]+$/.test(option)) query.posterAt = option.slice(1);
    else
      throw validationFailed(
        `${name}: ${JSON.stringify(option)} is none of resize (${resizeModes.join(', ')}), format (${outputFormats.join(', ')}), q<quality>, anim or t<seconds>`,
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
  const base = `${spec.width ?? ''}x${spec.height ?? ''},${spec.resize},${spec.format},q${spec.quality}`;
  return `${base}${spec.animated ? ',anim' : ''}${spec.posterAtMs === null ? '' : `,t${toSecondsText(spec.posterAtMs)}`}`;
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
    (spec.quality as number) <= maxQuality &&
    (spec.animated === false || (spec.animated === true && spec.format === 'webp')) &&
    (spec.posterAtMs === null ||
      (Number.isInteger(spec.posterAtMs) &&
        (spec.posterAtMs as number) >= 0 &&
        (spec.posterAtMs as number) <= maxPosterAtSeconds * 1000))
  );
}

/** `true` or `false`, as the query spells a flag; undefined when it is absent. */
function parseFlag(text: string | undefined, name: string): boolean | undefined {
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') throw validationFailed(`${name} must be true or false`);
  return text === 'true';
}

/**
 * Seconds with at most 3 decimals (`2`, `2.5`, `0.040`) → whole milliseconds, counted from the
 * digits rather than through a float, so `2.5` and `2.500` are one spec (`-t2500`).
 */
function parsePosterAtMs(text: string | undefined): number | null {
  if (text === undefined) return null;
  const match = /^(0|[1-9]\d{0,4})(?:\.(\d{1,3}))?$/.exec(text);
  const ms = match ? Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0')) : Number.NaN;
  if (!(ms >= 0 && ms <= maxPosterAtSeconds * 1000))
    throw validationFailed(
      `posterAt must be seconds from 0 to ${maxPosterAtSeconds}, with at most 3 decimals (e.g. 2.5)`,
    );
  return ms;
}

/** Milliseconds as parsePosterAtMs reads them: 2500 → `2.5`. */
function toSecondsText(ms: number): string {
  return String(ms / 1000);
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
