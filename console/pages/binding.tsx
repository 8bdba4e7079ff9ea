import { useEffect, useState } from 'preact/hooks';
import { readObject, setSuspended, type Snapshot } from '../api';
import { Ago } from '../ago';
import {
  historyOf,
  namedClass,
  policyOf,
  preemptorsOf,
  prioritySource,
  scheduledCondition,
  templatePath,
  victimsOf,
  type PolicyObject,
  type Preemption,
  type PriorityClassObject,
  type TemplateObject,
} from '../binding-facts';
import { bindingHref, isPlaced, isPreemptible, priorityOf, qualified } from '../model';
import { amountsText, requestsOf } from '../requests';
import { Table } from '../table';

/** An object read once by its path: undefined while it is read (or with no path), null when the API has none, an Error when it refused. */
function useObject<T>(path: string | undefined): T | null | undefined | Error {
  const [read, setRead] = useState<{ path: string; value: T | null | Error }>();
  useEffect(() => {
    if (path === undefined) return;
    const controller = new AbortController();
    readObject<T>(path, controller.signal).then(
      (value) => setRead({ path, value }),
      (failure: Error) => controller.signal.aborted || setRead({ path, value: failure }),
    );
    return () => controller.abort();
  }, [path]);
  return path !== undefined && read?.path === path ? read.value : undefined;
}

const unlessFailed = <T,>(value: T | null | undefined | Error) => (value instanceof Error ? undefined : value);

function PreemptionLink({ preemption, now }: { preemption: Preemption; now: number }) {
  return (
    <>
      <a href={bindingHref(preemption)}>{qualified(preemption)}</a> (<Ago time={preemption.time} now={now} />)
    </>
  );
}

/**
 * One binding: why it waits or where it runs (its Scheduled condition), what it asks for, its priority
 * and where that comes from, who preempted it and whom it preempted, and its history; suspend or resume it.
 */
export function BindingPage({ snapshot, namespace, name, refresh }: { snapshot: Snapshot; namespace: string; name: string; refresh: () => void }) {
  const [error, setError] = useState('');
  const binding = snapshot.bindings.find((candidate) => candidate.metadata.name === name && (candidate.metadata.namespace ?? '') === namespace);
  const policyRef = binding && policyOf(binding);
  const policy = useObject<PolicyObject>(policyRef?.path);
  const podClass = unlessFailed(policy) && namedClass(unlessFailed(policy)!, undefined).source === 'PodPriorityClass';
  const template = useObject<TemplateObject>(binding && podClass ? templatePath(binding) : undefined);
  const className = unlessFailed(policy) ? namedClass(unlessFailed(policy)!, unlessFailed(template)).name : undefined;
  const priorityClass = useObject<PriorityClassObject>(className === undefined ? undefined : `/apis/scheduling.k8s.io/v1/priorityclasses/${encodeURIComponent(className)}`);
  if (!binding) return <section><h1>Binding {namespace ? `${namespace}/` : ''}{name}</h1><p>No such binding.</p></section>;

  const { now } = snapshot;
  const suspended = binding.spec.suspension?.scheduling === true;
  const toggle = async () => {
    try {
      await setSuspended(namespace, name, !suspended);
      setError('');
      refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const scheduled = scheduledCondition(binding);
  const requests = requestsOf(binding);
  const failed = [policy, template, priorityClass].find((read): read is Error => read instanceof Error);
  const source = failed ? `could not be read: ${failed.message}` : prioritySource(binding, unlessFailed(policy), unlessFailed(template), unlessFailed(priorityClass));
  const preemptors = preemptorsOf(binding, snapshot.events);
  const victims = victimsOf(binding, snapshot.events);
  const history = historyOf(binding, snapshot.events);
  const resource = binding.spec.resource;
  return (
    <section aria-labelledby="binding-title">
      <h1 id="binding-title">{qualified({ namespace, name })}</h1>
      <p class={`scheduled ${scheduled?.status === 'False' ? 'waiting' : ''}`} data-status={scheduled?.status ?? ''}>
        <strong>Scheduled: {scheduled ? `${scheduled.status === 'True' ? 'yes' : scheduled.status === 'False' ? 'no' : scheduled.status}` : 'not yet tried'}</strong>
        {scheduled?.reason && <> — <span class="reason">{scheduled.reason}</span></>}
        {scheduled?.message && <>: <span class="message">{scheduled.message}</span></>}
        {scheduled?.lastTransitionTime && <> (since <Ago time={scheduled.lastTransitionTime} now={now} />)</>}
      </p>
      <dl class="facts">
        <div><dt>Resource</dt><dd>{resource.kind} {qualified(resource)}</dd></div>
        <div><dt>Policy</dt><dd class="policy">{policyRef ? `${policyRef.kind} ${qualified(policyRef)}` : 'none named'}</dd></div>
        <div>
          <dt>Requests</dt>
          <dd class="requests">
            {requests.perReplica.length > 0 ? amountsText(requests.perReplica) : 'nothing but a pod'} per replica × {requests.replicas} {requests.replicas === 1 ? 'replica' : 'replicas'}
            {requests.perReplica.length > 0 && requests.replicas !== 1 && <> = {amountsText(requests.total)}</>}
          </dd>
        </div>
        <div>
          <dt>Priority</dt>
          <dd class="priority">
            {priorityOf(binding)}
            {binding.spec.schedulePriority ? ` (preemption policy ${binding.spec.schedulePriority.preemptionPolicy ?? 'PreemptLowerPriority'})` : ' (no schedulePriority)'}
          </dd>
        </div>
        <div><dt>Priority from</dt><dd class="priority-source">{source}</dd></div>
        <div><dt>Preemptibility</dt><dd>{isPreemptible(binding) ? 'preemptible' : 'non-preemptible'}</dd></div>
        <div><dt>Placement</dt><dd>{isPlaced(binding) ? (binding.spec.clusters ?? []).filter((c) => c.replicas > 0).map((c) => `${c.name} (${c.replicas})`).join(', ') : 'not placed'}</dd></div>
        <div><dt>Created</dt><dd><Ago time={binding.metadata.creationTimestamp} now={now} /></dd></div>
        {preemptors.length > 0 && (
          <div>
            <dt>Preempted by</dt>
            <dd class="preemptors">
              {preemptors.map((preemptor, index) => (
                <span key={`${qualified(preemptor)}@${preemptor.time}`}>
                  {index > 0 && ', '}
                  <PreemptionLink preemption={preemptor} now={now} />
                </span>
              ))}
            </dd>
          </div>
        )}
      </dl>
      {namespace && (
        <p>
          <button type="button" onClick={toggle} disabled={!suspended && isPlaced(binding)}>{suspended ? 'Resume scheduling' : 'Suspend scheduling'}</button>
          {error && <span role="alert" class="alarm"> {error}</span>}
        </p>
      )}
      {victims.length > 0 && (
        <>
          <h2>Preempted to place it ({victims.length})</h2>
          <Table className="victims" label="Bindings it preempted" headers={['Time', 'Victim', 'Priority', 'Message']}>
            {victims.map((victim) => (
              <tr key={`${qualified(victim)}@${victim.time}`}>
                <td><Ago time={victim.time} now={now} /></td>
                <td><a href={bindingHref(victim)}>{qualified(victim)}</a></td>
                <td class="number">{victim.victimPriority ?? ''}</td>
                <td class="message">{victim.message}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
      <h2>History</h2>
      {history.length === 0 ? (
        <p>No event in the last hour.</p>
      ) : (
        <Table className="history" label="History" headers={['Time', 'Type', 'Reason', 'Message']}>
          {history.map((event) => (
            <tr key={event.metadata.uid ?? event.metadata.name}>
              <td><Ago time={event.lastTimestamp ?? event.firstTimestamp} now={now} /></td>
              <td>{event.type}</td>
              <td>{event.reason}</td>
              <td class="message">{event.message}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
