// The dashboard server's API (bench/dashboard/server.ts).
import type { ResultSummary } from '../../bench/dashboard/store.js';
import type { ResultFile } from '../../bench/harness/types.js';

export type { ResultSummary };

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) {
    const text = await response.text();
    let reason = text;
    try {
      reason = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      // Not JSON: the text is the reason.
    }
    throw new Error(`${response.status}: ${reason}`);
  }
  return (await response.json()) as T;
}

export const listResults = () => json<ResultSummary[]>('/api/results');
export const getResult = (name: string) => json<ResultFile>(`/api/results/${encodeURIComponent(name)}`);

/** Stores a result file on the server; rejects with the server's reason (e.g. a schema error). */
export const uploadResult = (text: string) =>
  json<ResultSummary>('/api/results', { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
