// Answers a request with a long read (server/reads/long-reads.ts): run off the event loop where the engine
// allows it, and sent as the bytes it was encoded to.
import type { Response } from 'express';
import { sendXlsx } from '../excel/workbook';
import { runLongRead, type LongReadArgs, type LongReadName } from '../reads/long-reads';

export async function sendLongRead<N extends LongReadName>(
  res: Response,
  read: N,
  args: LongReadArgs<N>,
): Promise<void> {
  const answer = await runLongRead(read, args);
  if (answer.kind === 'xlsx') return sendXlsx(res, answer.body, answer.fileName);
  // What res.json() sends, its ETag included (Express answers 304 to a request that has it).
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('ETag', answer.etag);
  res.send(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength));
}
