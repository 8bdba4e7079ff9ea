import { useState } from 'preact/hooks';
import { tryManifests, type WhatIf } from '../api';
import { Table } from '../table';

const placement = (clusters: ReadonlyArray<{ name: string; replicas: number }> | null) =>
  clusters === null ? 'new' : clusters.length === 0 ? 'not placed' : clusters.map((c) => `${c.name} (${c.replicas})`).join(', ');

/**
 * "What if these manifests were applied now": the API decides it with the simulator's controllers on a
 * copy of the live state and answers the decisions and victims; nothing is written. Manifests the
 * caller could not write for real (tenancy) or that are invalid are listed as refused, with the rule.
 */
export function WhatIfPage() {
  const [manifests, setManifests] = useState('');
  const [result, setResult] = useState<WhatIf>();
  const [error, setError] = useState('');
  const run = async (event: Event) => {
    event.preventDefault();
    try {
      setResult(await tryManifests(manifests));
      setError('');
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <section aria-labelledby="what-if-title">
      <h1 id="what-if-title">What if</h1>
      <form onSubmit={run}>
        <label for="manifests">Manifests to try (YAML or JSON; several documents separated by ---)</label>
        <textarea id="manifests" rows={14} value={manifests} onInput={(event) => setManifests((event.target as HTMLTextAreaElement).value)} />
        <p><button type="submit">Try on a copy of the live state</button></p>
      </form>
      {error && <p role="alert" class="alarm">{error}</p>}
      {result && (
        <div class="what-if-result">
          <h2>Victims ({result.victims.length})</h2>
          {result.victims.length === 0 ? <p>Nothing would be preempted.</p> : <ul class="victims">{result.victims.map((victim) => <li key={victim}>{victim}</li>)}</ul>}
          {result.rejections.length > 0 && (
            <>
              <h2>Refused ({result.rejections.length})</h2>
              <p>Applying these would be refused — you may not write them, or they are invalid — so what follows is decided without them.</p>
              <ul class="rejections">{result.rejections.map((rejection) => <li key={rejection.object} class="alarm">{rejection.object}: {rejection.message}</li>)}</ul>
            </>
          )}
          <h2>Placements that would change</h2>
          <Table className="placements" headers={['Binding', 'Now', 'After']}>
            {result.placements.map((change) => (
              <tr key={change.binding}><td>{change.binding}</td><td>{placement(change.before)}</td><td>{placement(change.after)}</td></tr>
            ))}
          </Table>
          <h2>Decisions</h2>
          <Table className="decisions" headers={['Type', 'Reason', 'Object', 'Message']}>
            {result.decisions.map((decision, index) => (
              <tr key={index}><td>{decision.type}</td><td>{decision.reason}</td><td>{decision.object.namespace ? `${decision.object.namespace}/` : ''}{decision.object.name}</td><td class="message">{decision.message}</td></tr>
            ))}
          </Table>
        </div>
      )}
    </section>
  );
}
