/** The DynamoDB store's resourceVersions as watch reads them: write times, mapped to the change feed's cursor. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbObjectStore } from '../../functions/adapters/dynamodb-object-store';

const store = new DynamoDbObjectStore({} as DynamoDBDocumentClient, 'objects');

describe('DynamoDB resourceVersions and the change feed', () => {
  it('a bookmark\'s version maps back to the cursor it was made from', () => {
    const cursor = String(Date.now() - 60_000);
    expect(store.cursorAt(store.versionAt(cursor))).toBe(cursor);
  });

  it.each([
    ['older than the deletion markers (a day)', store.versionAt(String(Date.now() - 25 * 3600_000))],
    ['not one of this store\'s', '42'],
    ['empty', ''],
  ])('a version %s has no cursor (410 Expired)', (_, version) => {
    expect(store.cursorAt(version)).toBeUndefined();
  });
});
