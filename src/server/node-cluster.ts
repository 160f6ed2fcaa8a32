// `serve({ workers })` on Node: the node:cluster primary, which forks the workers, forks another
// for one that dies and closes them all on close(), and a worker's side of that (answering the
// primary's close, telling it why listening failed). Each worker runs the app's entry script
// again and serves as a plain server.
import cluster, { type Worker } from 'node:cluster';
import { resolveServeOptions, ServerBase, type Server, type ServeOptions } from './options.js';

/** The primary asks a worker to close gracefully (the worker then exits). */
const CLOSE_MESSAGE = 'wirespeed:close';
/** A worker tells the primary why it could not listen: `{ [LISTEN_FAILED]: message }`. */
const LISTEN_FAILED = 'wirespeed:listen-failed';

/**
 * A worker that dies before it listens is forked again after this long, doubled for each one in a
 * row, up to RESPAWN_MAX_MS: a worker that cannot start (a missing dependency, a bad config) is
 * retried and logged, not forked hundreds of times a second. One that listened resets the delay.
 */
const RESPAWN_MIN_MS = 100;
const RESPAWN_MAX_MS = 30_000;

/** The cluster primary: forks the workers, forks another for one that dies, closes them all on close(). */
export class ClusterServer extends ServerBase {
  readonly ready: Promise<void>;
  private readonly logError: (error: unknown) => void;
  /** Workers that listened: they answer CLOSE_MESSAGE (one still starting may not hear it yet). */
  private readonly listened = new WeakSet<Worker>();
  private listeningPort = 0;
  private listeningNow = false;
  private stopping = false;
  /** Workers forked again in a row that died before listening. */
  private failedInARow = 0;
  private respawnTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: ServeOptions, count: number) {
    super(options);
    this.logError = resolveServeOptions(options).logError;
    const listening = Array.from({ length: count }, () => this.fork());
    this.ready = Promise.all(listening).then(
      (ports) => {
        this.listeningPort = ports[0];
        this.listeningNow = true;
      },
      (error: unknown) => {
        // As a server that cannot listen: `ready` says why, and nothing is left serving or forking.
        this.stopping = true;
        for (const worker of this.workers()) worker.kill();
        throw error;
      },
    );
    this.closeOnAbort();
  }

  /** Forks a worker; resolves with its port once it listens, rejects with why it did not. */
  private fork(): Promise<number> {
    const worker = cluster.fork();
    // Sending to a worker that is exiting fails as an 'error' event; unheard, it ends the primary.
    worker.on('error', () => undefined);
    worker.once('exit', (code: number | null, signal: string | null) => this.exited(worker, code, signal));
    return new Promise((resolve, reject) => {
      worker.once('listening', (address) => {
        this.listened.add(worker);
        // A Unix socket's address has no port.
        resolve(address.port ?? 0);
      });
      worker.on('message', (message: unknown) => {
        if (!isListenFailure(message)) return;
        reject(new Error(`a cluster worker could not listen: ${message[LISTEN_FAILED]}`));
        worker.kill();
      });
      worker.once('exit', (code: number | null, signal: string | null) =>
        reject(new Error(`a cluster worker exited (${exitText(code, signal)}) before listening`)),
      );
    });
  }

  /** A worker died: after `ready`, another is forked (later when they keep dying before listening). */
  private exited(worker: Worker, code: number | null, signal: string | null): void {
    // Before `ready` it rejects instead; after close() nothing is forked.
    if (this.stopping || !this.listeningNow) return;
    const listened = this.listened.has(worker);
    this.failedInARow = listened ? 0 : this.failedInARow + 1;
    const delay = listened ? 0 : Math.min(RESPAWN_MIN_MS * 2 ** (this.failedInARow - 1), RESPAWN_MAX_MS);
    const how = `exited (${exitText(code, signal)})${listened ? '' : ' before listening'}`;
    this.logError(new Error(`a cluster worker (pid ${worker.process.pid}) ${how}; forking another ${delay ? `in ${delay} ms` : 'now'}`));
    const respawn = () => {
      this.respawnTimer = undefined;
      // Its failure is logged by `exited`, which forks the next.
      if (!this.stopping) this.fork().catch(() => undefined);
    };
    if (delay === 0) respawn();
    else this.respawnTimer = setTimeout(respawn, delay);
  }

  private workers(): Worker[] {
    return Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead());
  }

  protected listening(): boolean {
    return this.listeningNow;
  }

  protected boundPort(): number {
    return this.listeningPort;
  }

  protected async stop(): Promise<void> {
    this.stopping = true;
    this.listeningNow = false;
    clearTimeout(this.respawnTimer);
    const exits = this.workers().map((worker) => {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      // One still starting listens for the message only once its serve() runs, so it could miss it.
      if (this.listened.has(worker) && worker.isConnected()) worker.send(CLOSE_MESSAGE);
      else worker.kill();
      return exited;
    });
    await Promise.all(exits);
  }
}

/** In a worker: closes `server` and exits when the primary asks, and tells the primary if it cannot listen. */
export function answerPrimary(server: Server): void {
  process.on('message', (message) => {
    if (message === CLOSE_MESSAGE) void server.close().then(() => process.exit(0));
  });
  server.ready.catch((error: unknown) => {
    process.send?.({ [LISTEN_FAILED]: error instanceof Error ? error.message : String(error) });
  });
}

function isListenFailure(message: unknown): message is { [LISTEN_FAILED]: string } {
  return typeof message === 'object' && message !== null && typeof (message as Record<string, unknown>)[LISTEN_FAILED] === 'string';
}

function exitText(code: number | null, signal: string | null): string {
  return signal !== null ? signal : `code ${code}`;
}
