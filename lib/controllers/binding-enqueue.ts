import type { ResourceBinding } from '../api/resource-binding';
import { enqueueInBand } from './band-enqueue';
import type { ControllerContext } from './context';
import { bindingObjectRef } from './binding-references';
import type { BindingRequest } from './messages';

/**
 * binding-enqueue: reads the binding a request names and queues it in its priority band when it needs
 * scheduling (band-enqueue.ts). It reads the binding and the clusters it is placed on, nothing else.
 */
export class BindingEnqueueController {
  constructor(private readonly context: ControllerContext) {}

  async handle(request: BindingRequest): Promise<void> {
    const binding = await this.context.store.get<ResourceBinding>(bindingObjectRef(request.binding));
    if (binding) await enqueueInBand(this.context, binding, 'binding-enqueue', request.cause, request.wokenFor);
  }
}
