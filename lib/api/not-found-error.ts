/** The object does not exist (a Kubernetes 404 NotFound status). */
export class NotFoundError extends Error {
  constructor(readonly kind: string, readonly objectName: string) {
    super(`${kind} "${objectName}" not found`);
    this.name = 'NotFoundError';
  }
}
