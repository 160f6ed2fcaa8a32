// Peers that need Node (node:module, node:net, node:assert, ...) load through here. The specifier
// is not a literal, so the dashboard's browser bundle leaves those modules out; in the browser the
// suites never ask for them. Specifiers are relative to this folder, as from the suites.
export function loadNodePeers<T>(specifier: string): Promise<T> {
  return import(/* @vite-ignore */ specifier) as Promise<T>;
}
