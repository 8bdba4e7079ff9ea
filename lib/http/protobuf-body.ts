import type { ApiRequest } from './api-types';
import { ProtobufError } from './protobuf-fields';
import { decodeProtobufObject, ProtobufKindError } from './protobuf-objects';
import type { JsonObject } from './request-body';
import { ApiError } from './status';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/**
 * The object a protobuf request body holds. A body that cannot be read is a 400 naming why; a kind
 * that is not read from protobuf a 415 (its client can send JSON), as kube-apiserver answers for the
 * kinds it has no protobuf for.
 */
export function protobufObjectBody(request: ApiRequest): JsonObject {
  if (!request.bodyBytes) throw new ApiError('BadRequest', 'the protobuf body did not arrive as bytes');
  try {
    return decodeProtobufObject(request.bodyBytes);
  } catch (error) {
    if (error instanceof ProtobufKindError) throw new ApiError('UnsupportedMediaType', error.message);
    if (error instanceof ProtobufError) throw new ApiError('BadRequest', `the protobuf body cannot be read: ${error.message}`);
    throw error;
  }
}
