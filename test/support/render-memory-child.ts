import { estimateRenditionBytes } from '../../src/images/render-memory.ts';
import { SharpImageRenderer } from '../../src/images/sharp-image-renderer.ts';
import { peakRssBytes, resetPeakRss } from './peak-rss.ts';

// Renders one image file in a process of its own and prints, as JSON, how far its peak RSS grew
// during the render and what render-memory.ts estimated from the header before it
// (src/images/render-memory.test.ts). Usage: node render-memory-child.ts <file> <spec JSON>

const [file = '', specJson = ''] = process.argv.slice(2);
const spec = JSON.parse(specJson);
const renderer = new SharpImageRenderer();
// No budget here: the point is to measure what the render takes.
const limits = { maxPixels: 50_000_000, maxMemoryBytes: Number.POSITIVE_INFINITY };
const header = await renderer.readHeader(file, limits);
if (!header) throw new Error(`${file} has no readable header`);
const estimatedBytes = estimateRenditionBytes(header, spec);
resetPeakRss();
const before = peakRssBytes();
const rendition = await renderer.render(file, spec, { limits, timeoutSeconds: 300 });
const grownBytes = peakRssBytes() - before;
process.stdout.write(
  `${JSON.stringify({ grownBytes, estimatedBytes, width: rendition.width, height: rendition.height })}\n`,
);
