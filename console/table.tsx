import type { ComponentChildren } from 'preact';

/** A table with a header row of column names; its rows are the children. */
export function Table({ className, headers, children }: { className?: string; headers: readonly string[]; children: ComponentChildren }) {
  return (
    <table class={className}>
      <thead>
        <tr>{headers.map((header, index) => <th key={index} scope="col">{header}</th>)}</tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
