import type { DynamoDBRecord } from 'aws-lambda';
import { isAnnouncedToPolicyChange, UNANNOUNCED_KINDS, type ObjectChange } from '../../lib/controllers/messages';
import { partitionKey, refOfItemKeys } from './dynamodb-object-store';

/**
 * The policy-change message a record of the objects table's stream (keys only) stands for, or
 * undefined when policy-change has nothing to do with it: a binding, an allocation record, a
 * PriorityClass, a deletion marker. Inserts, updates and removes are alike to it: it reads the object.
 */
export function objectChangeOfRecord(record: DynamoDBRecord): ObjectChange | undefined {
  const pk = record.dynamodb?.Keys?.pk?.S;
  const sk = record.dynamodb?.Keys?.sk?.S;
  if (pk === undefined || sk === undefined) throw new Error(`stream record ${record.eventID ?? '?'} has no string keys pk and sk`);
  const ref = refOfItemKeys(pk, sk);
  return ref && isAnnouncedToPolicyChange(ref) ? { ref } : undefined;
}

/**
 * The event source mapping's filter: records of the kinds policy-change never hears of are not
 * delivered at all (Lambda event filtering on the record's partition key).
 */
export const OBJECT_STREAM_FILTER = {
  dynamodb: { Keys: { pk: { S: [{ 'anything-but': UNANNOUNCED_KINDS.map(({ group, kind }) => partitionKey(group, kind)) }] } } },
} as const;
