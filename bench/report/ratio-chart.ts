import type { ScenarioResult } from '../run-scenario.ts';

const width = 820;
const labelWidth = 300;
const barArea = 340;
const rowHeight = 24;
const top = 44;
/** Ratios are drawn up to this; larger ones are clipped, their value still printed. */
const maxRatio = 1.5;

/**
 * Horizontal bars of every scenario's ratio to each baseline (the one its verdict is on), with the issue's target as a
 * tick and 1.0 (the baseline) as a dashed line: green meets its target, red does not, grey
 * has none. Plain SVG written by the bench itself, so the docs need no charting service.
 */
export function toRatioChartSvg(results: readonly ScenarioResult[], caption: string): string {
  const bars = results.flatMap((result) =>
    (result.baselines ?? []).map((baseline, index) => ({
      label: `${result.id} vs ${baseline.label}${baseline.verdictBy === 'rate' ? '' : ` (${baseline.verdictBy})`}`,
      ratio: baseline.verdictRatio,
      target: index === 0 ? result.target : undefined,
    })),
  );
  const x = (ratio: number) => labelWidth + (Math.min(ratio, maxRatio) / maxRatio) * barArea;
  const height = top + bars.length * rowHeight + 40;
  const rows = bars.map((bar, i) => {
    const y = top + i * rowHeight;
    const color = bar.target === undefined ? '#90a4ae' : bar.ratio >= bar.target ? '#2e7d32' : '#c62828';
    const end = Number.isFinite(bar.ratio) ? x(bar.ratio) : labelWidth;
    const tick =
      bar.target === undefined
        ? ''
        : `<line x1="${x(bar.target)}" x2="${x(bar.target)}" y1="${y + 1}" y2="${y + rowHeight - 3}" stroke="#212121" stroke-width="2"/>`;
    return [
      `<text x="${labelWidth - 8}" y="${y + 16}" text-anchor="end">${escapeXml(bar.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 4}" width="${Math.max(1, end - labelWidth)}" height="${rowHeight - 9}" fill="${color}"/>`,
      tick,
      // Values in their own column, so a target tick never covers them.
      `<text x="${labelWidth + barArea + 12}" y="${y + 16}">${formatRatio(bar.ratio)}${bar.target === undefined ? '' : ` (target ${formatRatio(bar.target)})`}</text>`,
    ].join('');
  });
  const one = x(1);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12" role="img" aria-labelledby="chart-title">
<title id="chart-title">Coffer ÷ baseline per scenario, same run</title>
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="12" y="22" font-size="15" font-weight="bold">Coffer ÷ baseline, same run (higher is better)</text>
<text x="12" y="38" fill="#546e7a">${escapeXml(caption)}</text>
${rows.join('\n')}
<line x1="${one}" x2="${one}" y1="${top - 4}" y2="${height - 34}" stroke="#546e7a" stroke-dasharray="4 3"/>
<text x="${one}" y="${height - 22}" text-anchor="middle" fill="#546e7a">1.0 = baseline</text>
<text x="12" y="${height - 8}" fill="#546e7a">black tick: the issue's target · green: meets it · red: below · grey: no target · bars clipped at ${maxRatio}×</text>
</svg>
`;
}

/** Two decimals; small ratios (logins against a constant route) keep two significant digits. */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return 'n/a';
  return `${ratio > 0 && ratio < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2)}×`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (character) => `&#${character.charCodeAt(0)};`);
}
