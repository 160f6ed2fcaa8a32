// Which implementations in a result are wirespeed's own, by the names the suites give them (the IPC
// suite's are IpcChannel's), and which of those is the headline: the path users write with the
// defaults, not a variant kept for comparison (the lazy parser, the runtime's own Response, ...).

const OURS = /^(wirespeed|IpcChannel)/;
/** Variants a suite measures beside the default path. */
const VARIANT = /lazy|runtime|light|parseRequest|JSON bytes/;

export function isOurs(impl: string): boolean {
  return OURS.test(impl);
}

export function isHeadline(impl: string): boolean {
  return OURS.test(impl) && !VARIANT.test(impl);
}

/** The runtime a server implementation runs on, for the suites that run wirespeed on each. */
export function flavorOf(impl: string): string {
  return /deno/i.test(impl) ? 'Deno' : 'Node';
}

/**
 * A ceiling, not a peer: the raw socket or transport with no protocol on it (raw-net, raw-deno, "raw
 * transport, same bytes"). The overview's "fastest peer" leaves them out; they stay baselines.
 */
export function isCeiling(impl: string): boolean {
  return /^raw[ -]/.test(impl);
}
