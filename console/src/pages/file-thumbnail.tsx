import { useEffect, useMemo, useState } from 'preact/hooks';
import { thumbHashToDataURL } from 'thumbhash';
import { api, type FileView, hasThumbnail, type Project, thumbnailUrl } from '../api.ts';

type Props = { project: Project; file: FileView };

/**
 * A file's thumbnail in the file list: the 160×160 rendition shown in a small box, fetched
 * only when the row scrolls into view. Files that are not rendered images, and thumbnails
 * that fail (a corrupt image, a file past the size limit), keep the empty box, so rows stay
 * the same height.
 */
export function FileThumbnail({ project, file }: Props) {
  const [failed, setFailed] = useState(false);
  const src = thumbnailUrl(project, file);
  useEffect(() => setFailed(false), [src]);
  if (!hasThumbnail(file) || failed) return <span class="thumbnail" />;
  return (
    <img
      class="thumbnail"
      src={src}
      alt={`Thumbnail of ${file.filePath}`}
      width={40}
      height={40}
      loading="lazy"
      onError={() => setFailed(true)}
    />
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
        <img
          src={src}
          alt={`Thumbnail of ${file.filePath}`}
          width={160}
          height={160}
          onError={() => setFailed(true)}
        />
      )}
    </figure>
  );
}

export type ImageSummary = Pick<FileView['meta'], 'width' | 'height' | 'placeholder'> & {
  /** Whether the record is being read again for a summary it did not have yet. */
  pending: boolean;
};

/**
 * An image's width, height and placeholder: from the record, or, when the list was read before
 * the service summarized the image (a moment after verify), from the record read again once.
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
