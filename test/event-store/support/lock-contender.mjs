// A rival process for data-dir-lock-race.int.spec.ts: takes the data-directory lock when told,
// in step with its siblings, and reports whether it got it. Protocol on stdin/stdout, one JSON
// object per line: {"dir", "at"} → spin until Date.now() >= at, lockDataDir(dir) → {"won"} or
// {"refused"}; {"release": true} → drop the lock it holds → {"released": true}.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

const { lockDataDir } = await import(process.argv[2]);
let release = null;
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.release) {
    release?.();
    release = null;
    process.stdout.write(JSON.stringify({ released: true }) + '\n');
    continue;
  }
  await sleep(Math.max(0, msg.at - Date.now() - 3));
  while (Date.now() < msg.at) {
    /* start together with the siblings */
  }
  try {
    release = lockDataDir(msg.dir);
    process.stdout.write(JSON.stringify({ won: true }) + '\n');
  } catch (err) {
    process.stdout.write(JSON.stringify({ refused: err.name }) + '\n');
  }
}
