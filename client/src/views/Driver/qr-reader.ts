// The phone's QR reader (CONTRACT §20): the camera (getUserMedia, the back camera) and frames decoded by
// jsQR — the browser's BarcodeDetector is missing from the Chromium builds here. jsQR is loaded only when
// the scan dialog opens (the initial bundle's budget).
type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
let decoder: Promise<Decode> | null = null;
const loadDecoder = (): Promise<Decode> =>
  (decoder ??= import('jsqr').then(
    (m) => (data, width, height) => m.default(data, width, height, { inversionAttempts: 'dontInvert' }),
  ));

/** The back camera's stream; throws when there is none or it is refused. */
export function openCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) return Promise.reject(new Error('no camera'));
  return navigator.mediaDevices.getUserMedia({
    video: { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 720 } },
    audio: false,
  });
}

let canvas: HTMLCanvasElement | null = null;
/** The text of a QR code in the video's current frame, or null (no frame yet, no code in it). */
export async function readFrame(video: HTMLVideoElement): Promise<string | null> {
  if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || !video.videoWidth) return null;
  const decode = await loadDecoder();
  // Decoding a frame of at most 800 px wide keeps each pass well under the interval on a phone.
  const scale = Math.min(1, 800 / video.videoWidth);
  const width = Math.round(video.videoWidth * scale);
  const height = Math.round(video.videoHeight * scale);
  canvas ??= document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  ctx.drawImage(video, 0, 0, width, height);
  const found = decode(ctx.getImageData(0, 0, width, height).data, width, height);
  return found?.data.trim() || null;
}
