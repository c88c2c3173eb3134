// A file for Chromium's fake camera (--use-file-for-fake-video-capture): a QR code of a text drawn on a
// white frame, written as YUV4MPEG2 (a few identical 4:2:0 frames: the luma is the picture, the chroma
// neutral grey). The browser loops it, so the page's camera shows the label as a phone held up to it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import QRCode from 'qrcode';

const WIDTH = 640;
const HEIGHT = 480;
const FRAMES = 5;

/** The luma of a QR code of `text` centred on a white WIDTH × HEIGHT frame, `quiet` modules of margin. */
export function qrFrame(text: string, module = 8, quiet = 4): Uint8Array {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const side = (size + 2 * quiet) * module;
  if (side > HEIGHT) throw new Error(`QR of ${text} too big for the frame`);
  const y = new Uint8Array(WIDTH * HEIGHT).fill(235);
  const left = Math.floor((WIDTH - size * module) / 2);
  const top = Math.floor((HEIGHT - size * module) / 2);
  for (let r = 0; r < size; r++)
    for (let c = 0; c < size; c++)
      if (qr.modules.get(r, c))
        for (let dy = 0; dy < module; dy++)
          y.fill(
            16,
            (top + r * module + dy) * WIDTH + left + c * module,
            (top + r * module + dy) * WIDTH + left + (c + 1) * module,
          );
  return y;
}

/** Writes the .y4m of a QR code of `text` into the temp folder; returns its path. */
export function writeQrY4m(text: string): string {
  const luma = qrFrame(text);
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420mpeg2\n`, 'ascii');
  const frame = Buffer.concat([Buffer.from('FRAME\n', 'ascii'), Buffer.from(luma), chroma]);
  const file = path.join(os.tmpdir(), `torre-qr-${text.replace(/[^A-Za-z0-9_-]/g, '_')}-${process.pid}.y4m`);
  fs.writeFileSync(file, Buffer.concat([header, ...Array<Buffer>(FRAMES).fill(frame)]));
  return file;
}
