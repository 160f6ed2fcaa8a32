// The dashboard shell: five views (the overview, a result, machines compared, reports, a run in
// this browser), the view's whole state in the URL hash so any view can be shared as a link.
import { useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import { listResults, type ResultSummary } from './api.js';
import { parseHash, toHash, type ViewState } from './view-state.js';
import { CompareView } from './views/CompareView.js';
import { OverviewView } from './views/OverviewView.js';
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
  ['overview', 'Overview'],
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
    case 'overview':
      return { view };
    case 'results':
      return { view, run: null };
    case 'report':
      return { view, report: 'micro', run: null };
    case 'run':
      return { view };
  }
}

/** Left and right arrows move between the view links, Home and End to the first and last. */
function moveBetweenTabs(event: KeyboardEvent<HTMLElement>) {
  const links = [...event.currentTarget.querySelectorAll('a')];
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (at === -1) return;
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: links.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  links[(to + links.length) % links.length].focus();
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
        <nav aria-label="views" onKeyDown={moveBetweenTabs}>
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
        {list !== null && state.view === 'overview' && <OverviewView list={list} />}
        {list !== null && state.view === 'results' && (
          <ResultView list={list} run={state.run} suite={state.suite} onSelect={(run) => navigate({ view: 'results', run })} />
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
