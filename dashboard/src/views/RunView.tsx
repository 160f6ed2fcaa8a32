// Runs benchmark suites in this browser, in a Web Worker so the page stays responsive, with
// progress and the charts growing as cases finish; the result is saved to the server.
import { useEffect, useRef, useState } from 'react';
import type { CaseResult, ResultFile } from '../../../bench/harness/types.js';
import { uploadResult } from '../api.js';
import { download } from '../export.js';
import { BROWSER_SUITES, NODE_ONLY_PEERS, type BrowserSuite, type RunRequest, type WorkerMessage } from '../run/protocol.js';
import { ResultGroups } from './ResultView.js';

type Status =
  | { state: 'idle' }
  | { state: 'running'; done: number; total: number; current: string }
  | { state: 'saved'; name: string }
  | { state: 'failed'; message: string };

export function RunView({ onSaved }: { onSaved: (name: string) => void }) {
  const [suites, setSuites] = useState<BrowserSuite[]>([...BROWSER_SUITES]);
  const [quick, setQuick] = useState(true);
  const [status, setStatus] = useState<Status>({ state: 'idle' });
  const [results, setResults] = useState<CaseResult[]>([]);
  const [file, setFile] = useState<ResultFile | null>(null);
  const worker = useRef<Worker | null>(null);

  useEffect(() => () => worker.current?.terminate(), []);

  function start() {
    worker.current?.terminate();
    setResults([]);
    setFile(null);
    const w = new Worker(new URL('../run/bench-worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    w.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const m = event.data;
      if (m.type === 'start') setStatus({ state: 'running', done: 0, total: m.total, current: '' });
      else if (m.type === 'case') setStatus((s) => (s.state === 'running' ? { ...s, done: m.index, current: m.name } : s));
      else if (m.type === 'result') setResults((r) => [...r, m.result]);
      else if (m.type === 'error') {
        w.terminate();
        setStatus({ state: 'failed', message: m.message });
      } else if (m.type === 'done') {
        setFile(m.file);
        w.terminate();
        uploadResult(JSON.stringify(m.file))
          .then((summary) => {
            setStatus({ state: 'saved', name: summary.name });
            onSaved(summary.name);
          })
          .catch((error: unknown) =>
            setStatus({ state: 'failed', message: `the run finished but the server did not store it: ${String(error)}` }),
          );
      }
    };
    // An error the worker did not catch (in a suite's callback, say) leaves its numbers suspect:
    // the run stops there, saves nothing, and says where the error was thrown.
    w.onerror = (event) => {
      w.terminate();
      const where = event.filename ? ` (${event.filename}:${event.lineno})` : '';
      setStatus({ state: 'failed', message: event.message ? `${event.message}${where}` : 'the benchmark worker failed to start' });
    };
    const request: RunRequest = { suites, quick };
    w.postMessage(request);
    setStatus({ state: 'running', done: 0, total: 0, current: 'loading the suites…' });
  }

  const running = status.state === 'running';
  return (
    <>
      <section className="card">
        <h2>Run in this browser</h2>
        {!crossOriginIsolated && (
          <p role="alert" className="warning">
            This page is not cross-origin isolated, so its timers are coarse (about 0.1 ms) and short operations measure badly. Serve it
            with <code>npm start</code> (it sends COOP/COEP).
          </p>
        )}
        <fieldset disabled={running}>
          <legend>Suites</legend>
          {BROWSER_SUITES.map((name) => (
            <label key={name}>
              <input
                type="checkbox"
                checked={suites.includes(name)}
                onChange={() => setSuites((s) => (s.includes(name) ? s.filter((n) => n !== name) : [...s, name]))}
              />{' '}
              {name}
            </label>
          ))}
          <label>
            <input type="checkbox" checked={quick} onChange={() => setQuick((q) => !q)} /> quick (a smoke run in seconds; a real run takes
            minutes)
          </label>
        </fieldset>
        <button type="button" onClick={start} disabled={running || suites.length === 0}>
          Run
        </button>
        <details className="node-only">
          <summary>Peers that run only on Node (the CLI measures them: npx wirespeed bench)</summary>
          <ul>
            {BROWSER_SUITES.flatMap((suite) =>
              NODE_ONLY_PEERS[suite].map(([peer, why]) => (
                <li key={`${suite}/${peer}`}>
                  {suite}: <b>{peer}</b> — {why}
                </li>
              )),
            )}
          </ul>
        </details>
        {running && (
          <p>
            <progress max={status.total || 1} value={status.done} aria-label="benchmark progress" /> {status.done}/{status.total} —{' '}
            {status.current}
          </p>
        )}
        {status.state === 'saved' && <p>Saved on the server as {status.name}.</p>}
        {status.state === 'failed' && <p role="alert">The run failed: {status.message}</p>}
        {file && (
          <button
            type="button"
            onClick={() =>
              download(
                `browser-${file.createdAt.replace(/[:.]/g, '-')}.json`,
                new Blob([JSON.stringify(file, null, 1)], { type: 'application/json' }),
              )
            }
          >
            Download JSON
          </button>
        )}
      </section>
      {results.length > 0 && <ResultGroups cases={results} />}
    </>
  );
}
