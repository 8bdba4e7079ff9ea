import { formatQuantity } from '../lib/quantity';
import type { ResourceFill } from './fill';

/** What a fill's numbers are: the cluster's allocatable, what others use of it, and what outrank placed of the rest. */
export function fillTitle(fill: ResourceFill): string {
  const amount = (value: number) => formatQuantity(value, fill.resource);
  const others = fill.others > 0 ? ` − ${amount(fill.others)} allocated by others` : '';
  return `${fill.resource}: ${amount(fill.placed)} placed by outrank of ${amount(fill.capacity)} (allocatable ${amount(fill.allocatable)}${others})`;
}

/** A bar of placed against what outrank may place, turning amber at 70 % and red at 90 %, with "3 / 4". */
export function FillMeter({ fill, cluster }: { fill: ResourceFill; cluster: string }) {
  return (
    <span class="fill" title={fillTitle(fill)} data-resource={fill.resource} data-fraction={fill.fraction}>
      <meter min={0} max={1} low={0.7} high={0.9} optimum={0} value={Math.min(1, fill.fraction)} aria-label={`${fill.resource} placed on ${cluster}`} />
      <span class="amount">{fill.label}</span>
    </span>
  );
}
