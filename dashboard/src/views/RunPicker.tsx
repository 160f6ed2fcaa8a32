// Picks a stored run: grouped by machine and suites, newest first, narrowed by a search over the
// machine, suites, date and file name ("/" focuses the search).
import { useEffect, useId, useMemo, useRef, useState } from 'react';

export interface PickerRun {
  /** What is picked (a file name, or a key of several). */
  key: string;
  machine: string;
  suites: string[];
  createdAt: string;
  /** The rest of the option's text: file names, case count, quick, ... */
  detail: string;
}

/** Groups by machine, then suites; newest group first, newest run first within a group. */
export function groupRuns(runs: PickerRun[], search: string): [group: string, runs: PickerRun[]][] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = new Map<string, PickerRun[]>();
  const sorted = [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  for (const run of sorted) {
    const text = `${run.machine} ${run.suites.join(' ')} ${run.createdAt} ${run.detail}`.toLowerCase();
    if (!words.every((w) => text.includes(w))) continue;
    const group = `${run.machine} — ${run.suites.join(', ')}`;
    groups.set(group, [...(groups.get(group) ?? []), run]);
  }
  return [...groups];
}

export function RunPicker({
  runs,
  value,
  onChange,
  label,
}: {
  runs: PickerRun[];
  value: string | null;
  onChange: (key: string) => void;
  label: string;
}) {
  const [search, setSearch] = useState('');
  const searchBox = useRef<HTMLInputElement>(null);
  const id = useId();
  const groups = useMemo(() => groupRuns(runs, search), [runs, search]);
  const current = runs.find((r) => r.key === value);
  const listed = groups.some(([, members]) => members.some((r) => r.key === value));

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing = event.target instanceof HTMLElement && /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName);
      if (event.key === '/' && !typing) {
        event.preventDefault();
        searchBox.current?.focus();
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

  return (
    <span className="picker">
      <label htmlFor={id}>{label}</label>{' '}
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value)} aria-label={label}>
        {current && !listed && <option value={current.key}>{optionText(current)}</option>}
        {groups.map(([group, members]) => (
          <optgroup key={group} label={group}>
            {members.map((r) => (
              <option key={r.key} value={r.key}>
                {optionText(r)}
              </option>
            ))}
          </optgroup>
        ))}
      </select>{' '}
      <input
        ref={searchBox}
        type="search"
        placeholder="search runs ( / )"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        aria-label={`search: ${label}`}
      />{' '}
      <span className="muted small">
        {groups.reduce((n, [, members]) => n + members.length, 0)} of {runs.length}
      </span>
    </span>
  );
}

function optionText(run: PickerRun): string {
  return `${run.createdAt.slice(0, 16).replace('T', ' ')} · ${run.detail}`;
}
