import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';

type Props = {
  /** What a drop does, shown over the zone while files are dragged over it. */
  label: string;
  /** The zone's name for assistive technology (a drop has a keyboard alternative: the upload form). */
  name: string;
  onFiles: (files: File[]) => void;
  children: ComponentChildren;
};

/**
 * A region that takes files dropped on it. While files are dragged over it, it is outlined and
 * says what a drop does, on a layer above its content (so nothing moves).
 */
export function DropZone({ label, name, onFiles, children }: Props) {
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child the pointer crosses: count them.
  const depth = useRef(0);
  const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
  const enter = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const over = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    // Without this the browser opens the file in place of the console.
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  };
  const leave = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const drop = (event: DragEvent) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length > 0) onFiles(files);
  };
  return (
    <section
      aria-label={name}
      class={dragging ? 'drop-zone dragging' : 'drop-zone'}
      onDragEnter={enter}
      onDragOver={over}
      onDragLeave={leave}
      onDrop={drop}
    >
      {children}
      {dragging && <p class="drop-label">{label}</p>}
    </section>
  );
}
