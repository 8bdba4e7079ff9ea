import { useState } from 'preact/hooks';
import { tryManifests, type WhatIf } from '../api';
import { qualified } from '../model';
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
      // What an earlier try decided is not what these manifests would do.
      setResult(undefined);
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
          {result.rejections.length > 0 && (
            <>
              <h2>Refused ({result.rejections.length})</h2>
              <p>Applying these would be refused — you may not write them, or they are invalid — so what follows is decided without them.</p>
              <ul class="rejections" role="alert">{result.rejections.map((rejection) => <li key={rejection.object} class="alarm">{rejection.object}: {rejection.message}</li>)}</ul>
            </>
          )}
          <h2>Victims ({result.victims.length})</h2>
          {result.victims.length === 0 ? <p>Nothing would be preempted.</p> : <ul class="victims">{result.victims.map((victim) => <li key={victim}>{victim}</li>)}</ul>}
          <h2>Placements that would change ({result.placements.length})</h2>
          {result.placements.length === 0 ? (
            <p>No placement would change.</p>
          ) : (
            <Table className="placements" label="Placements that would change" headers={['Binding', 'Now', 'After']}>
              {result.placements.map((change) => (
                <tr key={change.binding}><td>{change.binding}</td><td>{placement(change.before)}</td><td>{placement(change.after)}</td></tr>
              ))}
            </Table>
          )}
          <h2>Decisions ({result.decisions.length})</h2>
          {result.decisions.length === 0 ? (
            <p>Nothing would be decided.</p>
          ) : (
            <Table className="decisions" label="Decisions" headers={['Type', 'Reason', 'Object', 'Message']}>
              {result.decisions.map((decision, index) => (
                <tr key={index}><td>{decision.type}</td><td>{decision.reason}</td><td>{qualified(decision.object)}</td><td class="message">{decision.message}</td></tr>
              ))}
            </Table>
          )}
        </div>
      )}
    </section>
  );
}
