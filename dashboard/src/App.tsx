// The dashboard shell: four views (a result, machines compared, reports, a run in this browser), the
// view's whole state in the URL hash so any view can be shared as a link.
import { useCallback, useEffect, useState } from 'react';
import { listResults, type ResultSummary } from './api.js';
import { parseHash, toHash, type ViewState } from './view-state.js';
import { CompareView } from './views/CompareView.js';
import { ReportView } from './views/ReportView.js';
import { ResultView } from './views/ResultView.js';
import { RunView } from './views/RunView.js';

function useHashState(): [ViewState, (state: ViewState) => void] {
  const [state, setState] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setState(parseHash(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  const navigate = useCallback((next: ViewState) => {
    location.hash = toHash(next);
  }, []);
  return [state, navigate];
}

const TABS: [ViewState['view'], string][] = [
  ['results', 'Results'],
  ['compare', 'Machines'],
  ['report', 'Reports'],
  ['run', 'Run in this browser'],
];

/** Where a tab starts. */
function tabState(view: ViewState['view']): ViewState {
  switch (view) {
    case 'compare':
      return { view, runs: [], base: 0 };
    case 'results':
      return { view, run: null };
    case 'report':
      return { view, report: 'micro', run: null };
    case 'run':
      return { view };
  }
}

export function App() {
  const [state, navigate] = useHashState();
  const [list, setList] = useState<ResultSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(() => {
    listResults()
      .then((items) => {
        setList(items);
        setError(null);
      })
      .catch((e: unknown) => setError(String(e)));
  }, []);
  useEffect(refresh, [refresh]);

  return (
    <>
      <header>
        <h1>wirespeed benchmarks</h1>
        <nav>
          {TABS.map(([view, label]) => (
            <a key={view} href={toHash(tabState(view))} aria-current={state.view === view ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
      </header>
      <main>
        {error && (
          <div className="card" role="alert">
            Could not reach the dashboard server ({error}). Is <code>npm start</code> still running?
          </div>
        )}
        {list === null && !error && <div className="card empty">Loading results…</div>}
        {list !== null && state.view === 'results' && (
          <ResultView list={list} run={state.run} onSelect={(run) => navigate({ view: 'results', run })} />
        )}
        {list !== null && state.view === 'compare' && (
          <CompareView
            list={list}
            selection={state}
            onSelect={(selection) => navigate({ view: 'compare', ...selection })}
            onUploaded={(names) => {
              refresh();
              navigate({ view: 'compare', runs: [...new Set([...state.runs, ...names])], base: state.base });
            }}
          />
        )}
        {list !== null && state.view === 'report' && (
          <ReportView
            list={list}
            report={state.report}
            run={state.run}
            onSelect={(report, run) => navigate({ view: 'report', report, run })}
          />
        )}
        {state.view === 'run' && <RunView onSaved={(name) => (refresh(), navigate({ view: 'results', run: name }))} />}
      </main>
    </>
  );
}
