import { JobListeners } from './job-events';
import { newJobId } from './ids';

describe('JobListeners (the waiter map of the job-events subscriber)', () => {
  it('an event wakes only the listeners of that job', () => {
    const l = new JobListeners();
    const a = newJobId();
    const b = newJobId();
    const calls: string[] = [];
    l.add(a, (r) => calls.push(`a1:${r}`));
    l.add(a, (r) => calls.push(`a2:${r}`));
    l.add(b, (r) => calls.push(`b:${r}`));
    l.emit(a);
    expect(calls).toEqual(['a1:event', 'a2:event']);
  });

  it('the returned function removes the listener (idempotent); empty jobs are dropped', () => {
    const l = new JobListeners();
    const a = newJobId();
    const calls: number[] = [];
    const off = l.add(a, () => calls.push(1));
    expect(l.jobs).toBe(1);
    off();
    off();
    l.emit(a);
    expect(calls).toEqual([]);
    expect(l.jobs).toBe(0);
  });

  it('a listener removing itself while being called does not skip the others', () => {
    const l = new JobListeners();
    const a = newJobId();
    const calls: string[] = [];
    const off = l.add(a, () => {
      calls.push('first');
      off();
    });
    l.add(a, () => calls.push('second'));
    l.emit(a);
    expect(calls).toEqual(['first', 'second']);
  });

  it('malformed messages are ignored; resyncAll calls every listener with "resync"', () => {
    const l = new JobListeners();
    const calls: string[] = [];
    l.add(newJobId(), (r) => calls.push(r));
    l.add(newJobId(), (r) => calls.push(r));
    l.emit('not-a-job-id');
    l.emit('');
    expect(calls).toEqual([]);
    l.resyncAll();
    expect(calls).toEqual(['resync', 'resync']);
  });
});
