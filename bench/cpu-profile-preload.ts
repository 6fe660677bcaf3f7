import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

/**
 * Preloaded into a server by the benchmarks (`node -r dist/bench/cpu-profile-preload.js`)
 * when BENCH_CPU_PROFILE names a directory: SIGWINCH starts V8's sampling profiler, the next
 * SIGWINCH stops it and writes `<dir>/<pid>-<n>.cpuprofile`, so a profile covers exactly one
 * measured load window (not start-up, warm-up or the other targets' rounds). Nothing is
 * loaded otherwise. SIGWINCH because its default action is to do nothing and Nest's
 * shutdown hooks listen to SIGUSR2 (and the inspector to SIGUSR1). `bench/profile-top.ts` turns a profile into the top-N table of
 * docs/performance.md.
 */
const dir = process.env.BENCH_CPU_PROFILE;
if (dir) {
  const session = new Session();
  session.connect();
  let running = false;
  let written = 0;
  session.post('Profiler.enable', () =>
    session.post('Profiler.setSamplingInterval', { interval: 100 }),
  );
  process.on('SIGWINCH', () => {
    if (!running) {
      running = true;
      session.post('Profiler.start');
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, result) => {
      if (err) {
        console.error(`cpu profile: ${err.message}`);
        return;
      }
      const file = path.join(dir, `${process.pid}-${++written}.cpuprofile`);
      writeFileSync(file, JSON.stringify(result.profile));
      console.error(`cpu profile written: ${file}`);
    });
  });
}
