// Loads one stored result file by name; `null` while loading or without a name.
import { useEffect, useState } from 'react';
import type { ResultFile } from '../../bench/harness/types.js';
import { getResult } from './api.js';

export function useResult(name: string | null): { file: ResultFile | null; error: string | null } {
  const [file, setFile] = useState<ResultFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setFile(null);
    setError(null);
    if (!name) return;
    let current = true;
    getResult(name)
      .then((loaded) => current && setFile(loaded))
      .catch((e: unknown) => current && setError(String(e)));
    return () => {
      current = false;
    };
  }, [name]);
  return { file, error };
}
