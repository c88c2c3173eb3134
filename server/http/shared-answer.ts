// Sending a shared answer (server/services/shared-answers.ts): revalidated on every load
// (`Cache-Control: no-cache`), 304 while the browser holds the current version.
import type { Request, Response } from 'express';
import type { SharedAnswer } from '../services/shared-answers';

export async function sendShared(req: Request, res: Response, answer: SharedAnswer): Promise<void> {
  res.setHeader('Cache-Control', 'no-cache');
  if (answer.etag) {
    res.setHeader('ETag', answer.etag);
    if (req.fresh) return void res.status(304).end();
  }
  res.type('application/json').send(await answer.body());
}
