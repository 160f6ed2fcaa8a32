// The dashboard server's API (bench/dashboard/server.ts).
import type { ResultFile } from '../../bench/harness/types.js';

export interface ResultSummary {
  name: string;
  createdAt: string;
  cpuModel: string;
  runtime: string;
  runtimeVersion: string;
  suites: string[];
  cases: number;
}

async function json<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const listResults = () => json<ResultSummary[]>('/api/results');
export const getResult = (name: string) => json<ResultFile>(`/api/results/${encodeURIComponent(name)}`);
