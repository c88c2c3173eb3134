// CONTRACT §20 "Proof of the move": completing by scanning the label of the place where the trailer was
// left (or typing its code). The destination's code completes at once (proof `scan` from the camera,
// `manual` when typed); another place asks `¿Lo has dejado en {place}?` first; an unknown code says so.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Camera, MapPin } from 'lucide-react';
import type { CompletionProof, Location, Task } from '@shared/schemas';
import { PROOF_TEXT } from '@shared/labels';
import { identityKey } from '@shared/text';
import { Button } from '../../components/Button';
import { inputClass } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { cn } from '../../components/cn';
import { openCamera, readFrame } from './qr-reader';

/** How often a camera frame is decoded (ms). */
const SCAN_EVERY_MS = 250;

interface ScanDialogProps {
  task: Task;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The catalogue (inactive places are refused). */
  locations: readonly Location[];
  /** Completes the task with its proof; the dialog closes when it resolves, stays open when it throws. */
  onComplete: (proof: CompletionProof) => Promise<unknown>;
}

type Found = { place: Location; proof: 'scan' | 'manual' };

/** The active place a label or a typed code names (codes are stored upper-case: compared by identity key). */
export function placeOfCode(code: string, locations: readonly Location[]): Location | null {
  const key = identityKey(code);
  return locations.find((l) => l.active && identityKey(l.code) === key) ?? null;
}

export function ScanDialog({ task, open, onOpenChange, locations, onComplete }: ScanDialogProps) {
  const [other, setOther] = useState<Found | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [camera, setCamera] = useState<'starting' | 'on' | 'off'>('starting');
  const [typed, setTyped] = useState('');
  // The <video> once mounted (the dialog's content mounts after it opens).
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  // The latest handler for the camera loop, which is set up once per opening.
  const onCode = useRef<(code: string, proof: 'scan' | 'manual') => void>(() => undefined);

  const finish = async (proof: CompletionProof) => {
    setBusy(true);
    try {
      await onComplete(proof);
      onOpenChange(false);
    } catch {
      // The caller has shown why; the driver may try again or close.
    } finally {
      setBusy(false);
    }
  };

  onCode.current = (code, proof) => {
    if (busy || other) return;
    const place = placeOfCode(code, locations);
    if (!place) {
      setProblem(PROOF_TEXT.unknownCode(code));
      return;
    }
    setProblem(null);
    if (place.id === task.destination_location_id) void finish({ proof, location_id: place.id });
    else setOther({ place, proof });
  };

  // The camera runs while the dialog is open and no question is asked; closed, its tracks stop.
  const scanning = open && !other;
  useEffect(() => {
    if (!scanning || !video) return;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    let stopped = false;
    setCamera('starting');
    openCamera()
      .then((s) => {
        if (stopped) return s.getTracks().forEach((t) => t.stop());
        stream = s;
        video.srcObject = s;
        void Promise.resolve(video.play?.()).catch(() => undefined);
        setCamera('on');
        let reading = false;
        timer = setInterval(() => {
          if (reading) return;
          reading = true;
          readFrame(video)
            .then((code) => code && !stopped && onCode.current(code, 'scan'))
            .catch(() => undefined)
            .finally(() => (reading = false));
        }, SCAN_EVERY_MS);
      })
      .catch(() => !stopped && setCamera('off'));
    return () => {
      stopped = true;
      clearInterval(timer);
      stream?.getTracks().forEach((t) => t.stop());
      video.srcObject = null;
    };
  }, [scanning, video]);

  const close = (o: boolean) => {
    if (busy) return;
    if (!o) {
      setOther(null);
      setProblem(null);
      setTyped('');
    }
    onOpenChange(o);
  };

  const submitTyped = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim()) onCode.current(typed.trim(), 'manual');
  };

  return (
    <Modal
      open={open}
      onOpenChange={close}
      title={other ? PROOF_TEXT.otherPlace(other.place.name) : PROOF_TEXT.scanTitle}
      size="sm"
      dismissible={!busy}
    >
      {other ? (
        <div className="space-y-4" data-testid="scan-other-place">
          <p className="flex items-start gap-2 text-base text-slate-800">
            <MapPin aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600" />
            {PROOF_TEXT.otherPlaceHelp(task.destination)}
          </p>
          <div className="grid gap-3">
            <Button
              variant="warning"
              size="lg"
              className="w-full"
              loading={busy}
              onClick={() => void finish({ proof: other.proof, location_id: other.place.id })}
            >
              {PROOF_TEXT.confirmOther}
            </Button>
            <Button
              variant="secondary"
              size="lg"
              className="w-full"
              disabled={busy}
              onClick={() => setOther(null)}
            >
              {PROOF_TEXT.cancelOther}
            </Button>
          </div>
        </div>
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">{PROOF_TEXT.scanHelp}</p>
          <div className="relative aspect-[4/3] overflow-hidden rounded-xl bg-slate-900">
            <video
              ref={setVideo}
              data-testid="scan-video"
              className={cn('size-full object-cover', camera !== 'on' && 'invisible')}
              muted
              playsInline
              autoPlay
            />
            {camera !== 'on' && (
              <p
                role="status"
                className="absolute inset-0 flex items-center justify-center gap-2 p-4 text-center text-sm text-white"
              >
                <Camera aria-hidden className="size-5 shrink-0" />
                {camera === 'starting' ? PROOF_TEXT.cameraStarting : PROOF_TEXT.cameraUnavailable}
              </p>
            )}
          </div>
          {problem && (
            <p
              role="alert"
              className="rounded-lg bg-red-50 px-3 py-2 text-sm font-semibold text-red-800 ring-1 ring-inset ring-red-300"
            >
              {problem}
            </p>
          )}
          <form onSubmit={submitTyped} className="space-y-2">
            <label htmlFor="scan-code" className="block text-sm font-medium text-slate-700">
              {PROOF_TEXT.codeLabel}
            </label>
            <div className="flex gap-2">
              <input
                id="scan-code"
                className={cn(inputClass, 'h-12 font-mono text-base uppercase')}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
              />
              <Button type="submit" size="lg" disabled={busy || !typed.trim()} loading={busy}>
                {PROOF_TEXT.codeSubmit}
              </Button>
            </div>
          </form>
          <Button
            variant="secondary"
            size="lg"
            className="w-full"
            onClick={() => close(false)}
            disabled={busy}
          >
            {PROOF_TEXT.close}
          </Button>
        </div>
      )}
    </Modal>
  );
}
