/** The DynamoDB store's resourceVersions as watch reads them: write times, mapped to the change feed's cursor. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbObjectStore } from '../../functions/adapters/dynamodb-object-store';
import { compareRevisions } from '../../lib/ports/object-store';

const store = new DynamoDbObjectStore({} as DynamoDBDocumentClient, 'objects');

describe('DynamoDB resourceVersions and the change feed', () => {
  it('a bookmark\'s version lies the feed\'s overlap (5 s) before its cursor: a write in flight as that read began is later', () => {
    const cursor = Date.now() - 60_000;
    const version = store.versionAt(String(cursor));
    expect(store.cursorAt(version)).toBe(String(cursor - 5_000));
    const inFlight = `${(cursor - 4_000).toString(36).padStart(9, '0')}0123456789ab`;
    expect(compareRevisions(inFlight, version)).toBeGreaterThan(0);
  });

  it.each([
    ['older than the deletion markers (a day)', store.versionAt(String(Date.now() - 25 * 3600_000))],
    ['not one of this store\'s', '42'],
    ['empty', ''],
  ])('a version %s has no cursor (410 Expired)', (_, version) => {
    expect(store.cursorAt(version)).toBeUndefined();
  });
});
