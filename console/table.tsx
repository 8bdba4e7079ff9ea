import type { ComponentChildren } from 'preact';

/**
 * A table with a header row of column names; its rows are the children. It scrolls sideways in a region
 * of its own where it is wider than the screen, so that no column is cut off and the page itself keeps
 * its width; the region takes the keyboard focus, so that it scrolls without a pointer too.
 */
export function Table({ className, label, headers, children }: { className?: string; label: string; headers: readonly string[]; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table class={className}>
        <thead>
          <tr>{headers.map((header, index) => <th key={index} scope="col">{header}</th>)}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
