/** Karmada's group selection, ported from pkg/scheduler/core/spreadconstraint/select_groups_test.go (TestSelectGroups). */
import { describe, expect, it } from 'vitest';
import { selectGroups, type GroupInfo } from '../../../../lib/scheduler/spread/select-groups';

const groups = (...entries: Array<[string, number, number]>): GroupInfo[] => entries.map(([name, value, weight]) => ({ name, value, weight }));

describe('selectGroups (select_groups_test.go, TestSelectGroups)', () => {
  it.each<[string, GroupInfo[], number, number, number, string[]]>([
    ['empty groups', [], 2, 3, 1, []],
    ['no enough groups', groups(['R1', 1, 80]), 2, 3, 1, []],
    ['no enough value', groups(['R1', 1, 80], ['R2', 2, 30]), 2, 3, 4, []],
    ['select one group', groups(['R1', 1, 80]), 1, 3, 1, ['R1']],
    ['prioritize one path', groups(['R1', 1, 80], ['R3', 1, 80], ['R2', 1, 60], ['R5', 2, 60], ['R4', 5, 50], ['R6', 3, 50]), 1, 3, 10, ['R5', 'R4', 'R6']],
    ['select groups with less total number', groups(['R1', 1, 80], ['R2', 4, 40], ['R3', 1, 30], ['R4', 3, 30], ['R5', 3, 20], ['R6', 5, 10]), 2, 6, 5, ['R1', 'R2']],
    ['select groups with the highest score', groups(['R1', 1, 60], ['R2', 1, 50], ['R3', 1, 40], ['R4', 3, 30], ['R5', 3, 20], ['R6', 3, 10]), 1, 3, 6, ['R1', 'R4', 'R5']],
    ['select groups that are chosen earlier', groups(['R1', 1, 60], ['R2', 2, 50], ['R3', 3, 40], ['R4', 4, 30]), 1, 2, 5, ['R1', 'R4']],
    ['select groups with greater value', groups(['R4', 1, 60], ['R3', 3, 50], ['R1', 3, 40], ['R2', 4, 30]), 1, 2, 5, ['R3', 'R1']],
  ])('%s', (_, given, minGroups, maxGroups, target, expected) => {
    expect(selectGroups(given, minGroups, maxGroups, target).map((group) => group.name)).toEqual(expected);
  });

  it('when every group is needed for minGroups, only all of them together are tried', () => {
    expect(selectGroups(groups(['R1', 1, 10], ['R2', 1, 20]), 2, 2, 2).map((group) => group.name)).toEqual(['R2', 'R1']);
    expect(selectGroups(groups(['R1', 1, 10], ['R2', 1, 20]), 2, 2, 3)).toEqual([]);
  });

  it('maxGroups 0 selects nothing', () => {
    expect(selectGroups(groups(['R1', 3, 10]), 1, 0, 1)).toEqual([]);
  });
});
