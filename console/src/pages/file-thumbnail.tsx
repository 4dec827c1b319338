import { useEffect, useMemo, useState } from 'preact/hooks';
import { thumbHashToDataURL } from 'thumbhash';
import {
  api,
  type FileView,
  formatDuration,
  hasThumbnail,
  isVideo,
  type Project,
  thumbnailUrl,
} from '../api.ts';

type Props = { project: Project; file: FileView };

/** What the picture of a file is called: a video's is its poster frame. */
const altOf = (file: FileView) => `${isVideo(file) ? 'Poster' : 'Thumbnail'} of ${file.filePath}`;

/**
 * A file's thumbnail in the file list: the 160×160 rendition (an image, a HEIC's photo, a
 * video's poster frame) shown in a small box, fetched only when the row scrolls into view.
 * Files that are not rendered, and thumbnails that fail (a corrupt image, a file past the size
 * limit, video renditions off), keep the empty box, so rows stay the same height. A video's
 * duration, once probed, is written over its box.
 */
export function FileThumbnail({ project, file }: Props) {
  const [failed, setFailed] = useState(false);
  const src = thumbnailUrl(project, file);
  useEffect(() => setFailed(false), [src]);
  const picture =
    !hasThumbnail(file) || failed ? (
      <span class="thumbnail" />
    ) : (
      <img
        class="thumbnail"
        src={src}
        alt={altOf(file)}
        width={40}
        height={40}
        loading="lazy"
        onError={() => setFailed(true)}
      />
    );
  if (!isVideo(file)) return picture;
  return (
    <span class="thumbnail-frame">
      {picture}
      <DurationBadge seconds={file.meta.durationSeconds} />
    </span>
  );
}

/** A video's duration as players write it over a poster (m:ss); nothing until it is probed. */
function DurationBadge({ seconds }: { seconds: number | undefined }) {
  if (seconds === undefined) return null;
  return (
    <span class="duration" title="Duration">
      {formatDuration(seconds)}
    </span>
  );
}

/**
 * The larger thumbnail of the file detail, over its ThumbHash placeholder: the placeholder is
 * painted at once from the record (the box's background), the rendition covers it once loaded.
 */
export function PlaceholderThumbnail({ project, file, summary }: Props & { summary: ImageSummary }) {
  const [failed, setFailed] = useState(false);
  const placeholder = useMemo(() => toPlaceholderUrl(summary.placeholder), [summary.placeholder]);
  const src = thumbnailUrl(project, file);
  useEffect(() => setFailed(false), [src]);
  if (!hasThumbnail(file) || (failed && !placeholder)) return null;
  // A style property set from script (CSSOM), which the console's style-src 'self' allows.
  const background = placeholder ? { backgroundImage: `url("${placeholder}")` } : undefined;
  return (
    <figure class="thumbnail-large" style={background}>
      {!failed && (
        <img src={src} alt={altOf(file)} width={160} height={160} onError={() => setFailed(true)} />
      )}
      {isVideo(file) && <DurationBadge seconds={summary.durationSeconds} />}
    </figure>
  );
}

export type ImageSummary = Pick<
  FileView['meta'],
  'width' | 'height' | 'placeholder' | 'durationSeconds' | 'videoCodec' | 'audioCodec'
> & {
  /** Whether the record is being read again for a summary it did not have yet. */
  pending: boolean;
};

/**
 * An image's width, height and placeholder, a video's also its duration and codecs: from the
 * record, or, when the list was read before the service summarized the file (a moment after
 * verify), from the record read again once.
 * Kept apart from the record the page holds, so this late read never undoes a share or unshare.
 */
export function useImageSummary(project: Project, file: FileView): ImageSummary {
  const [reread, setReread] = useState<Pick<FileView, '_id' | 'etag' | 'meta'> | null>(null);
  const missing = hasThumbnail(file) && file.meta.width === undefined;
  useEffect(() => {
    if (!missing) return;
    let current = true;
    api<{ file: FileView }>('GET', `/projects/${project.id}/files/${file._id}`).then(
      (answer) => current && setReread(answer.file),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [project.id, file._id, file.etag, missing]);
  // Never the summary of another file, nor of content the file has since replaced.
  const fresh = reread?._id === file._id && reread.etag === file.etag;
  if (!missing) return { ...file.meta, pending: false };
  return fresh ? { ...reread.meta, pending: false } : { ...file.meta, pending: true };
}

/** A ThumbHash (standard base64) as a PNG data URL; undefined for none or one that does not decode. */
function toPlaceholderUrl(placeholder: string | undefined): string | undefined {
  if (!placeholder) return undefined;
  try {
    return thumbHashToDataURL(Uint8Array.from(atob(placeholder), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
