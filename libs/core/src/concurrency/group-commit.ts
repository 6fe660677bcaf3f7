/** Sends one batch of a lane: one answer per item, in the items' order. */
export type BatchSender<T, R> = (items: T[]) => Promise<readonly R[]>;

interface Waiting<T, R> {
  item: T;
  resolve: (answer: R) => void;
  reject: (err: unknown) => void;
}

/** The items of one lane waiting to go, and how a batch of them is sent. */
interface Lane<T, R> {
  queue: Waiting<T, R>[];
  send: BatchSender<T, R>;
}

/**
 * Group commit by lane (the monthly meter's statements, the per-minute limit's script
 * calls): while a batch of a lane is out, the lane's next items wait, and then go together
 * in one batch of at most `maxBatch`, each answered by its place in arrival order. A lone
 * item goes at once. A failed batch fails each of its items; the lane goes on with the next
 * batch. A lane lives only while it has items out or waiting.
 *
 * Every item of a lane is sent by the `send` of the item that opened it, so the lane's key
 * must name all that `send` depends on.
 */
export class GroupCommit<T, R> {
  private readonly lanes = new Map<string, Lane<T, R>>();

  constructor(private readonly maxBatch: number) {}

  submit(key: string, item: T, send: BatchSender<T, R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const lane = this.lanes.get(key);
      if (lane) {
        lane.queue.push({ item, resolve, reject });
        return;
      }
      const opened: Lane<T, R> = { queue: [{ item, resolve, reject }], send };
      this.lanes.set(key, opened);
      this.flush(key, opened);
    });
  }

  /** Sends the lane's waiting items as one batch; then the next batch, if any. */
  private flush(key: string, lane: Lane<T, R>): void {
    const batch = lane.queue.splice(0, this.maxBatch);
    let sent: Promise<readonly R[]>;
    try {
      sent = lane.send(batch.map((w) => w.item));
    } catch (err) {
      sent = Promise.reject(err);
    }
    sent
      .then(
        (answers) => {
          for (let i = 0; i < batch.length; i++) batch[i].resolve(answers[i]);
        },
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        if (lane.queue.length > 0) this.flush(key, lane);
        else this.lanes.delete(key);
      });
  }
}
