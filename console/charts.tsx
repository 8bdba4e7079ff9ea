/**
 * Small charts drawn as inline SVG: columns stacked by series, and a heat strip. Each draws a fixed
 * number of columns whatever the fleet's size (minutes of the last hour, or fill bins), so that a
 * hundred clusters or ten thousand bindings are as legible, and as cheap to draw, as three. Every mark
 * says what it counts on hover (its <title>) and carries it as data-* for tests; series are told apart
 * by class (s0, s1, …), coloured by the style sheet.
 */

export interface Series {
  readonly name: string;
  /** One per column; undefined where nothing was sampled. */
  readonly values: ReadonlyArray<number | undefined>;
}

/** The colours the style sheet gives series (s0 … s7), taken again in turn past the eighth series. */
const COLOURS = 8;
const seriesClass = (index: number) => `s${index % COLOURS}`;

const WIDTH = 360;
const TOP = 6;
const PLOT = 80;
/** Room for the y axis's labels on the left and the x axis's below. */
const LEFT = 30;
const BELOW = 14;
const HEIGHT = TOP + PLOT + BELOW;

/** "12", "1.2k", "35k": short enough for the axis. */
function short(value: number): string {
  if (value < 1_000) return String(Math.round(value * 10) / 10);
  return value < 10_000 ? `${(value / 1_000).toFixed(1)}k` : `${Math.round(value / 1_000)}k`;
}

function Legend({ series }: { series: readonly Series[] }) {
  return (
    <ul class="legend">
      {series.map((entry, index) => (
        <li key={entry.name}>
          <span class={`swatch ${seriesClass(index)}`} aria-hidden="true" />
          {entry.name}
        </li>
      ))}
    </ul>
  );
}

interface ChartProps {
  /** What the chart shows, for screen readers and as its caption. */
  readonly label: string;
  readonly className?: string;
  /** What a column is: "00:03", "90–99%". */
  readonly columnTitle: (column: number) => string;
  /** The x axis's first and last labels. */
  readonly axis: readonly [string, string];
  /** What is counted: "preemptions", "clusters". */
  readonly unit: string;
}

/** Columns, each a stack of its series' values: preemptions per minute by band, clusters per fill bin. */
export function ColumnChart({ label, className, columnTitle, axis, unit, series }: ChartProps & { readonly series: readonly Series[] }) {
  const columns = Math.max(0, ...series.map((entry) => entry.values.length));
  const totals = Array.from({ length: columns }, (_, column) => series.reduce((sum, entry) => sum + (entry.values[column] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const step = (WIDTH - LEFT) / Math.max(1, columns);
  const height = (value: number) => (value / max) * PLOT;
  return (
    <figure class={`chart ${className ?? ''}`} data-total={totals.reduce((sum, total) => sum + total, 0)}>
      <figcaption>{label}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
        <line class="grid" x1={LEFT} x2={WIDTH} y1={TOP} y2={TOP} />
        <line class="axis" x1={LEFT} x2={WIDTH} y1={TOP + PLOT} y2={TOP + PLOT} />
        <text class="tick" x={LEFT - 4} y={TOP + 4} text-anchor="end">{short(max)}</text>
        <text class="tick" x={LEFT - 4} y={TOP + PLOT} text-anchor="end">0</text>
        {Array.from({ length: columns }, (_, column) => {
          let base = TOP + PLOT;
          return series.map((entry, index) => {
            const value = entry.values[column];
            if (!value) return null;
            base -= height(value);
            return (
              <rect key={`${column}/${index}`} class={seriesClass(index)} x={LEFT + column * step + step * 0.1} y={base} width={step * 0.8} height={height(value)} data-column={column} data-series={entry.name} data-value={value}>
                <title>{`${columnTitle(column)} — ${series.length > 1 ? `${entry.name}: ` : ''}${value} ${unit}`}</title>
              </rect>
            );
          });
        })}
        <text class="tick" x={LEFT} y={HEIGHT - 2}>{axis[0]}</text>
        <text class="tick" x={WIDTH} y={HEIGHT - 2} text-anchor="end">{axis[1]}</text>
      </svg>
      {series.length > 1 && <Legend series={series} />}
    </figure>
  );
}

/**
 * Rows by columns of counts, darker for more: clusters per fill bin (rows, fullest on top) per minute
 * (columns). A hundred clusters make ten rows, not a hundred lines.
 */
export function HeatStrip({ label, className, columnTitle, axis, unit, rows }: ChartProps & { readonly rows: readonly Series[] }) {
  const columns = Math.max(0, ...rows.map((row) => row.values.length));
  const max = Math.max(1, ...rows.flatMap((row) => row.values.map((value) => value ?? 0)));
  const step = (WIDTH - LEFT) / Math.max(1, columns);
  const rowHeight = PLOT / Math.max(1, rows.length);
  return (
    <figure class={`chart heat ${className ?? ''}`}>
      <figcaption>{label}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
        <rect class="plot" x={LEFT} y={TOP} width={WIDTH - LEFT} height={PLOT} />
        {rows.length > 0 && <text class="tick" x={LEFT - 4} y={TOP + rowHeight * 0.8} text-anchor="end">{rows[0]!.name}</text>}
        {rows.length > 1 && <text class="tick" x={LEFT - 4} y={TOP + PLOT - rowHeight * 0.2} text-anchor="end">{rows[rows.length - 1]!.name}</text>}
        {rows.map((row, index) =>
          row.values.map((value, column) =>
            value === undefined ? null : (
              <rect key={`${index}/${column}`} class={value > 0 ? 'cell' : 'cell none'} x={LEFT + column * step} y={TOP + index * rowHeight} width={step} height={rowHeight} fill-opacity={value > 0 ? 0.15 + (0.85 * value) / max : 1} data-column={column} data-row={row.name} data-value={value}>
                <title>{`${columnTitle(column)} — ${row.name}: ${value} ${unit}`}</title>
              </rect>
            ),
          ),
        )}
        <text class="tick" x={LEFT} y={HEIGHT - 2}>{axis[0]}</text>
        <text class="tick" x={WIDTH} y={HEIGHT - 2} text-anchor="end">{axis[1]}</text>
      </svg>
    </figure>
  );
}
