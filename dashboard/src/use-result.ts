// Loads stored result files by name, each fetched once per page (files do not change: an upload
// gets a new name).
import { useEffect, useState } from 'react';
import type { ResultFile } from '../../bench/harness/types.js';
import { getResult } from './api.js';

const loaded = new Map<string, Promise<ResultFile>>();

function load(name: string): Promise<ResultFile> {
  let file = loaded.get(name);
  if (!file) {
    file = getResult(name);
    loaded.set(name, file);
    file.catch(() => loaded.delete(name)); // a failed load is tried again next time
  }
  return file;
}

/** The files of `names` once all are loaded (null until then, or without names). */
export function useResults(names: string[]): { files: ResultFile[] | null; error: string | null } {
  const [state, setState] = useState<{ key: string; files: ResultFile[] | null; error: string | null }>({
    key: '',
    files: null,
    error: null,
  });
  const key = names.join('\n');
  useEffect(() => {
    if (names.length === 0) return;
    let current = true;
    Promise.all(names.map(load))
      .then((files) => current && setState({ key, files, error: null }))
      .catch((e: unknown) => current && setState({ key, files: null, error: String(e) }));
    return () => {
      current = false;
    };
  }, [key]); // `key` stands for `names`
  return state.key === key ? { files: state.files, error: state.error } : { files: null, error: null };
}

/** One stored file by name; `null` while loading or without a name. */
export function useResult(name: string | null): { file: ResultFile | null; error: string | null } {
  const { files, error } = useResults(name ? [name] : []);
  return { file: files?.[0] ?? null, error };
}
