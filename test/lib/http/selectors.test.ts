import { describe, expect, it } from 'vitest';
import { fieldSelectorQuery, type FieldGetters } from '../../../lib/http/field-selector-query';
import { labelSelectorQuery } from '../../../lib/http/label-selector-query';
import { ApiError } from '../../../lib/http/status';

describe('labelSelectorQuery', () => {
  const web = { app: 'web', tier: 'front' };
  const batch = { app: 'batch' };
  const bare = {};

  it.each([
    [undefined, [true, true, true]],
    ['', [true, true, true]],
    ['app=web', [true, false, false]],
    ['app==web', [true, false, false]],
    ['app = web', [true, false, false]],
    ['app!=web', [false, true, true]],
    ['app in (web,batch)', [true, true, false]],
    ['app in (web, batch),tier', [true, false, false]],
    ['app notin (web)', [false, true, true]],
    ['tier', [true, false, false]],
    ['!tier', [false, true, true]],
    ['app,!tier', [false, true, false]],
    ['app=web,tier=front', [true, false, false]],
    ['app=web,tier=back', [false, false, false]],
    ['example.com/team=', [false, false, false]],
  ])('%s selects %o', (selector, expected) => {
    const matches = labelSelectorQuery(selector);
    expect([web, batch, bare].map((labels) => matches(labels))).toEqual(expected);
  });

  it('matches objects without labels as objects with none', () => {
    expect(labelSelectorQuery('!app')(undefined)).toBe(true);
    expect(labelSelectorQuery('app')(undefined)).toBe(false);
  });

  it.each(['app=web,', 'app in (web', 'app in web)', 'app in ((web))', 'app>1', 'a b', 'app in ()', 'Bad Key=x', 'app=bad value!', '-app=x'])(
    '%s is refused with a 400',
    (selector) => {
      expect(() => labelSelectorQuery(selector)).toThrow(ApiError);
      try {
        labelSelectorQuery(selector);
      } catch (error) {
        expect((error as ApiError).reason).toBe('BadRequest');
      }
    },
  );
});

describe('fieldSelectorQuery', () => {
  interface Row {
    name: string;
    kind: string;
    uid?: string;
  }
  const fields: FieldGetters<Row> = { 'metadata.name': (r) => r.name, 'involvedObject.kind': (r) => r.kind, 'involvedObject.uid': (r) => r.uid };
  const rows: Row[] = [
    { name: 'web', kind: 'Deployment' },
    { name: 'a,b=c', kind: 'Job', uid: 'u1' },
  ];

  it.each([
    ['', [true, true]],
    ['metadata.name=web', [true, false]],
    ['metadata.name==web', [true, false]],
    ['metadata.name!=web', [false, true]],
    ['metadata.name=web,involvedObject.kind=Job', [false, false]],
    [String.raw`metadata.name=a\,b\=c`, [false, true]],
    ['involvedObject.uid=u2', [true, false]], // a field an object does not record does not exclude it
  ])('%s selects %o', (selector, expected) => {
    const query = fieldSelectorQuery(selector, fields);
    expect(rows.map(query.matches)).toEqual(expected);
  });

  it('reports the fields pinned to one value', () => {
    const query = fieldSelectorQuery('involvedObject.kind=Job,metadata.name!=x,metadata.name=y', fields);
    expect([...query.equalities]).toEqual([['involvedObject.kind', 'Job'], ['metadata.name', 'y']]);
  });

  describe('over a field an object holds several of', () => {
    const placed: FieldGetters<{ clusters: string[] }> = { 'spec.clusters.name': (b) => b.clusters };
    const bindings = [{ clusters: ['east', 'west'] }, { clusters: ['west'] }, { clusters: [] }];

    it.each([
      ['spec.clusters.name=east', [true, false, false]],
      ['spec.clusters.name=west', [true, true, false]],
      ['spec.clusters.name!=east', [false, true, true]],
      ['spec.clusters.name=', [false, false, true]],
      ['spec.clusters.name!=', [true, true, false]],
    ])('%s selects %o', (selector, expected) => {
      expect(bindings.map(fieldSelectorQuery(selector, placed).matches)).toEqual(expected);
    });
  });

  it.each(['spec.replicas=1', 'metadata.name', 'constructor=x', '=x'])('%s is refused with a 400', (selector) => {
    expect(() => fieldSelectorQuery(selector, fields)).toThrow(ApiError);
  });
});
