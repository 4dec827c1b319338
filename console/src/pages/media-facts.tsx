import { type FileView, formatDuration, hasThumbnail, isVideo } from '../api.ts';
import type { ImageSummary } from './file-thumbnail.tsx';

/** A fact the service adds a moment after verify: its value, '…' while it is read again, else '—'. */
const shown = (value: string | undefined, summary: ImageSummary) => value ?? (summary.pending ? '…' : '—');

/**
 * The rows of the file detail's record that an image or a video gets once summarized: its size
 * as displayed; a video's duration and codecs too. Shown for every such file, known or not yet:
 * each row is there before its value, so nothing below it moves when the value arrives.
 */
export function MediaFacts({ file, summary }: { file: FileView; summary: ImageSummary }) {
  if (!hasThumbnail(file)) return null;
  const { width, height, durationSeconds, videoCodec, audioCodec } = summary;
  return (
    <>
      <dt>Dimensions</dt>
      <dd>
        {shown(width !== undefined && height !== undefined ? `${width} × ${height} px` : undefined, summary)}
      </dd>
      {isVideo(file) && (
        <>
          <dt>Duration</dt>
          <dd>
            {shown(durationSeconds === undefined ? undefined : formatDuration(durationSeconds), summary)}
          </dd>
          <dt>Codecs</dt>
          <dd>
            {shown(
              videoCodec && `${videoCodec} video, ${audioCodec ? `${audioCodec} audio` : 'no sound'}`,
              summary,
            )}
          </dd>
        </>
      )}
    </>
  );
}
