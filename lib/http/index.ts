/** The transport-independent HTTP API; the Lambda handler and the local server adapt their requests to it. */
export type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
export { handleApiRequest } from './handle-request';
