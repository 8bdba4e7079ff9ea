import type { Template } from 'aws-cdk-lib/assertions';

/** One resource of a synthesized template. */
export interface TemplateResource {
  readonly Type: string;
  readonly Properties: Record<string, any>;
  readonly DeletionPolicy?: string;
  readonly Metadata?: Record<string, any>;
}

/** The synthesized template as plain data, with the look-ups the stack tests keep needing. */
export class TemplateModel {
  readonly resources: Readonly<Record<string, TemplateResource>>;

  constructor(readonly template: Template) {
    this.resources = template.toJSON().Resources as Record<string, TemplateResource>;
  }

  ofType(type: string): Array<[logicalId: string, resource: TemplateResource]> {
    return Object.entries(this.resources).filter(([, resource]) => resource.Type === type);
  }

  /** Logical id of the resource of this type whose property `key` is `value`. */
  idWhere(type: string, key: string, value: unknown): string {
    const found = this.ofType(type).find(([, resource]) => resource.Properties[key] === value);
    if (!found) throw new Error(`no ${type} with ${key} = ${String(value)}`);
    return found[0];
  }

  queueId(queueName: string): string {
    return this.idWhere('AWS::SQS::Queue', 'QueueName', queueName);
  }

  functionId(functionName: string): string {
    return this.idWhere('AWS::Lambda::Function', 'FunctionName', functionName);
  }

  /** Every (action, resource) a function's role is allowed, resources as logical ids where they are one. */
  grantsOf(functionName: string): Array<{ action: string; resource: string }> {
    const roleId = (this.resources[this.functionId(functionName)]!.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const statements = this.ofType('AWS::IAM::Policy')
      .filter(([, policy]) => (policy.Properties.Roles as Array<{ Ref: string }>).some((role) => role.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>);
    return statements.flatMap((statement) =>
      [statement.Action].flat().flatMap((action) => [statement.Resource].flat().map((resource) => ({ action, resource: resourceName(resource) }))),
    );
  }
}

/** A Ref or Fn::GetAtt as the logical id it points at; anything else as JSON. */
export function resourceName(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    if ('Ref' in value) return String(value.Ref);
    if ('Fn::GetAtt' in value) return String((value['Fn::GetAtt'] as string[])[0]);
  }
  return JSON.stringify(value);
}

/** Resolves the Refs and Fn::Joins of a value, a Ref to `id` becoming `refValue(id)`. */
export function resolveValue(value: unknown, refValue: (logicalId: string) => string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'Fn::Join' in value) {
    const [separator, parts] = value['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => resolveValue(part, refValue)).join(separator);
  }
  if (typeof value === 'object' && value !== null && 'Ref' in value) return refValue(String(value.Ref));
  throw new Error(`cannot resolve ${JSON.stringify(value)}`);
}
