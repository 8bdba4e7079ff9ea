import { describe, expect, it } from 'vitest';
import { tenancySettingsSchema } from '../../../lib/auth/tenancy-settings';
import { fieldPath } from '../../../lib/api/invalid-object-error';
import { TENANCY } from './support';

function problems(settings: unknown): string[] {
  const result = tenancySettingsSchema.safeParse(settings);
  return result.success ? [] : result.error.issues.map((issue) => fieldPath(issue.path));
}

describe('tenancy settings', () => {
  it('accept the model the tests use', () => {
    expect(problems(TENANCY)).toEqual([]);
  });

  it.each([
    ['admins missing', { tenants: [] }, 'admins'],
    ['a wildcard inside a principal', { admins: ['arn:aws:iam::1:*/x'], tenants: [] }, 'admins[0]'],
    ['a tenant without principals', { admins: [], tenants: [{ principals: [], namespaces: ['a'] }] }, 'tenants[0].principals'],
    ['a tenant without namespaces', { admins: [], tenants: [{ principals: ['p'], namespaces: [] }] }, 'tenants[0].namespaces'],
    ['a namespace that is not a DNS label', { admins: [], tenants: [{ principals: ['p'], namespaces: ['Team_A'] }] }, 'tenants[0].namespaces[0]'],
    ['a class name that is not an object name', { admins: [], tenants: [], restrictedPriorityClasses: ['Critical!'] }, 'restrictedPriorityClasses[0]'],
    ['namespacePriorityClasses keyed by a bad namespace', { admins: [], tenants: [], namespacePriorityClasses: { Team_A: ['a'] } }, 'namespacePriorityClasses.Team_A'],
    ['an unknown field (a typo must not loosen isolation silently)', { admins: [], tenants: [], restrictedClasses: ['a'] }, '<root>'],
  ])('refuse %s', (_, settings, field) => {
    expect(problems(settings)).toEqual([field]);
  });
});
