import { GroupCommit } from './group-commit';

/** A sender whose batches the test answers by hand. */
function manualSender() {
  const batches: Array<{
    items: number[];
    answer: (answers: string[]) => void;
    fail: (err: Error) => void;
  }> = [];
  const send = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({ items, answer: resolve, fail: reject });
    });
  return { batches, send };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('sends a lone item at once', async () => {
    const commit = new GroupCommit<number, string>(10);
    const { batches, send } = manualSender();
    const answer = commit.submit('a', 1, send);
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    batches[0].answer(['one']);
    await expect(answer).resolves.toBe('one');
  });

  it('sends the items that arrive while a batch is out as one batch, answered by place', async () => {
    const commit = new GroupCommit<number, string>(10);
    const { batches, send } = manualSender();
    const first = commit.submit('a', 1, send);
    const later = [2, 3, 4].map((n) => commit.submit('a', n, send));
    expect(batches).toHaveLength(1);
    batches[0].answer(['1st']);
    await first;
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    batches[1].answer(['2nd', '3rd', '4th']);
    await expect(Promise.all(later)).resolves.toEqual(['2nd', '3rd', '4th']);
  });

  it('caps a batch at maxBatch and sends the rest next', async () => {
    const commit = new GroupCommit<number, string>(2);
    const { batches, send } = manualSender();
    const all = [1, 2, 3, 4, 5, 6].map((n) => commit.submit('a', n, send));
    for (let i = 0; i < 4; i++) {
      batches[i].answer(batches[i].items.map(String));
      await tick();
    }
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3], [4, 5], [6]]);
    await expect(Promise.all(all)).resolves.toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('keeps lanes apart: each key has its own batches and its own sender', async () => {
    const commit = new GroupCommit<number, string>(10);
    const a = manualSender();
    const b = manualSender();
    const fromA = commit.submit('a', 1, a.send);
    const fromB = commit.submit('b', 2, b.send);
    expect(a.batches.map((x) => x.items)).toEqual([[1]]);
    expect(b.batches.map((x) => x.items)).toEqual([[2]]);
    b.batches[0].answer(['b']);
    a.batches[0].answer(['a']);
    await expect(Promise.all([fromA, fromB])).resolves.toEqual(['a', 'b']);
  });

  it('fails every item of a failed batch and goes on with the next', async () => {
    const commit = new GroupCommit<number, string>(10);
    const { batches, send } = manualSender();
    const first = commit.submit('a', 1, send);
    const second = [2, 3].map((n) => commit.submit('a', n, send));
    batches[0].answer(['ok']);
    await first;
    await tick();
    batches[1].fail(new Error('down'));
    for (const p of second) await expect(p).rejects.toThrow('down');
    const after = commit.submit('a', 4, send);
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3], [4]]);
    batches[2].answer(['back']);
    await expect(after).resolves.toBe('back');
  });

  it('turns a sender that throws into a failed batch', async () => {
    const commit = new GroupCommit<number, string>(10);
    const throwing = () => {
      throw new Error('bad statement');
    };
    await expect(commit.submit('a', 1, throwing)).rejects.toThrow('bad statement');
    const { batches, send } = manualSender();
    const next = commit.submit('a', 2, send);
    expect(batches.map((b) => b.items)).toEqual([[2]]);
    batches[0].answer(['fine']);
    await expect(next).resolves.toBe('fine');
  });

  it('opens a new lane with the new sender once a lane has drained', async () => {
    const commit = new GroupCommit<number, string>(10);
    const first = manualSender();
    const answer = commit.submit('a', 1, first.send);
    first.batches[0].answer(['first']);
    await answer;
    await tick();
    const second = manualSender();
    const again = commit.submit('a', 2, second.send);
    expect(first.batches).toHaveLength(1);
    expect(second.batches.map((b) => b.items)).toEqual([[2]]);
    second.batches[0].answer(['second']);
    await expect(again).resolves.toBe('second');
  });
});
