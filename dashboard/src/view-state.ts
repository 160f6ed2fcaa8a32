// The whole view lives in the URL hash, so any view can be shared as a link:
//   #view=overview                   the newest full run of each suite (the landing view)
//   #view=results&run=NAME&suite=S   one result file (only suite S's groups, when given)
//   #view=compare&runs=A,B,C&base=1  several runs side by side, B the baseline
//   #view=run                        run benchmarks in this browser
//   #view=report&report=micro&run=N  a report of `wirespeed report` from a run, or a set of runs (A,B)
export type ViewState =
  | { view: 'overview' }
  | { view: 'results'; run: string | null; suite?: string }
  | { view: 'compare'; runs: string[]; base: number }
  | { view: 'run' }
  | { view: 'report'; report: string; run: string | null };

export function parseHash(hash: string): ViewState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  switch (params.get('view')) {
    case 'compare': {
      const runs = (params.get('runs') ?? '').split(',').filter(Boolean);
      const base = Number(params.get('base') ?? 0);
      return { view: 'compare', runs, base: Number.isInteger(base) && base >= 0 && base < runs.length ? base : 0 };
    }
    case 'run':
      return { view: 'run' };
    case 'results': {
      const suite = params.get('suite');
      return { view: 'results', run: params.get('run'), ...(suite ? { suite } : {}) };
    }
    case 'report':
      return { view: 'report', report: params.get('report') ?? 'micro', run: params.get('run') };
    default:
      return { view: 'overview' };
  }
}

export function toHash(state: ViewState): string {
  const params = new URLSearchParams({ view: state.view });
  if (state.view === 'results' && state.run) params.set('run', state.run);
  if (state.view === 'results' && state.suite) params.set('suite', state.suite);
  if (state.view === 'report') {
    params.set('report', state.report);
    if (state.run) params.set('run', state.run);
  }
  if (state.view === 'compare') {
    params.set('runs', state.runs.join(','));
    params.set('base', String(state.base));
  }
  return `#${params.toString()}`;
}
