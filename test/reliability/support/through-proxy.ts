import type { AwsResources } from '../../../functions/adapters/aws-context';
import type { SerializingProxy } from '../../../functions/local/serializing-proxy';

/**
 * The resources with their queue URLs on the proxy: the SQS client sends each request to the host of
 * the queue URL it names, not to AWS_ENDPOINT_URL.
 */
export function throughProxy(resources: AwsResources, proxy: SerializingProxy): AwsResources {
  const moved = (url: string) => `${proxy.url}${new URL(url).pathname}`;
  return {
    ...resources,
    policyChangeQueueUrl: moved(resources.policyChangeQueueUrl),
    bindingEnqueueQueueUrl: moved(resources.bindingEnqueueQueueUrl),
    scheduleTickQueueUrl: moved(resources.scheduleTickQueueUrl),
    bandQueueUrls: Object.fromEntries(Object.entries(resources.bandQueueUrls).map(([band, url]) => [band, moved(url)])),
  };
}
