// One uploaded file of a multipart/form-data request (CONTRACT §19 "Photos"), read with busboy into
// memory up to its limit. The request is always read to its end before the answer (a client still
// sending gets its 413 instead of a reset), except a body whose declared length is far over the limit,
// refused at once with the connection closed.
import type { Request } from 'express';
import busboy from 'busboy';
import { HttpError, badRequest } from './errors';

export interface UploadLimits {
  /** The form field that carries the file. */
  field: string;
  /** The largest file, in bytes. */
  maxBytes: number;
  /** The answers: a file over maxBytes (413), no file in `field`, more than one file. */
  tooLarge: string;
  missing: string;
  oneOnly: string;
}

/** Room for the multipart framing and a few small fields around the file. */
const FRAMING_BYTES = 64 * 1024;

/** The bytes of the one file a multipart request carries in `limits.field`. */
export function readOneFile(req: Request, limits: UploadLimits): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes + FRAMING_BYTES) {
    req.once('error', () => {});
    req.resume();
    req.res?.setHeader('Connection', 'close');
    return Promise.reject(new HttpError(413, limits.tooLarge));
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { files: 1, fileSize: limits.maxBytes, fields: 20, fieldSize: 64 * 1024, parts: 25 },
    });
  } catch {
    // Not multipart/form-data, or no boundary.
    req.resume();
    return Promise.reject(badRequest(limits.missing));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let refusal: HttpError | undefined;
    let files = 0;
    let found = false;
    const refuse = (err: HttpError) => (refusal ??= err);

    parser.on('file', (name, stream) => {
      files += 1;
      if (name !== limits.field || found) {
        stream.resume();
        return;
      }
      found = true;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        refuse(new HttpError(413, limits.tooLarge));
        chunks.length = 0;
      });
    });
    parser.on('filesLimit', () => refuse(badRequest(limits.oneOnly)));
    parser.on('partsLimit', () => refuse(badRequest(limits.oneOnly)));
    parser.on('error', () => {
      req.unpipe(parser);
      req.resume();
      reject(badRequest(limits.missing));
    });
    parser.on('close', () => {
      if (refusal) return reject(refusal);
      if (files > 1) return reject(badRequest(limits.oneOnly));
      if (!found) return reject(badRequest(limits.missing));
      resolve(Buffer.concat(chunks));
    });
    req.pipe(parser);
  });
}
