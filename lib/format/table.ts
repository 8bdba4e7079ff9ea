/** Left-aligned columns separated by three spaces, headers in capitals, as kubectl prints them. */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('   ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
