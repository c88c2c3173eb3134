// A read thread (server/db/read-pool.ts): runs the long reads of ./long-reads.ts with the server's clock
// and configuration of the moment, and hands back their encoded answer without copying it.
import { setClockOffset } from '../clock';
import { configure } from '../config';
import { serveReadThread } from '../db/read-pool';
import { runHere, type LongReadJob } from './long-reads';

serveReadThread(async (payload) => {
  const job = payload as LongReadJob;
  configure(job.config);
  setClockOffset(job.clockOffsetMs);
  const answer = await runHere(job.read, job.args);
  return { reply: answer, transfer: [answer.body.buffer as ArrayBuffer] };
});
