// The inspection (CONTRACT §19): the seven items of the shared checklist, each Bien / Mal (an item left
// unanswered is not checked; Mal asks what is wrong), and the camera: every photo is uploaded as soon as it
// is taken, shown as a thumbnail with a button that takes it off the inspection.
import { Camera, ImageOff, X } from 'lucide-react';
import { INSPECTION_ITEM_LABELS, UI_GATE } from '@shared/labels';
import { INSPECTION_CODES, INSPECTION_NOTE_MAX, type InspectionCode } from '@shared/schemas';
import { Spinner } from '../../components/Spinner';
import type { DraftPhoto, InspectionAnswer } from './entry';
import { bigInput, Choice, Section } from './ui';

interface InspectionProps {
  items: Partial<Record<InspectionCode, InspectionAnswer>>;
  onItem: (code: InspectionCode, answer: InspectionAnswer | undefined) => void;
  photos: DraftPhoto[];
  onTakePhotos: (files: File[]) => void;
  onRemovePhoto: (url: string) => void;
}

export function Inspection({ items, onItem, photos, onTakePhotos, onRemovePhoto }: InspectionProps) {
  return (
    <Section title={UI_GATE.inspectionSection}>
      <p className="text-sm text-slate-500">{UI_GATE.inspectionHint}</p>
      <ul className="divide-y divide-slate-100">
        {INSPECTION_CODES.map((code) => {
          const name = INSPECTION_ITEM_LABELS[code];
          const answer = items[code];
          // Pressing the chosen answer again un-checks the item.
          const choose = (ok: boolean) =>
            onItem(code, answer?.ok === ok ? undefined : { ok, note: answer?.note ?? '' });
          return (
            <li key={code} className="space-y-2 py-2" data-testid={`item-${code}`}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span id={`gate-item-${code}`} className="text-base font-medium text-slate-800">
                  {name}
                </span>
                <div role="group" aria-labelledby={`gate-item-${code}`} className="flex gap-2">
                  <Choice pressed={answer?.ok === true} tone="green" onClick={() => choose(true)}>
                    {UI_GATE.itemOk}
                  </Choice>
                  <Choice pressed={answer?.ok === false} tone="red" onClick={() => choose(false)}>
                    {UI_GATE.itemNotOk}
                  </Choice>
                </div>
              </div>
              {answer?.ok === false && (
                <input
                  aria-label={UI_GATE.itemNote(name)}
                  placeholder={UI_GATE.itemNotePlaceholder}
                  maxLength={INSPECTION_NOTE_MAX}
                  value={answer.note}
                  onChange={(e) => onItem(code, { ok: false, note: e.target.value })}
                  className={bigInput}
                />
              )}
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        {/* The label is the 48 px target; the input itself opens the rear camera on phones and tablets. */}
        <label className="inline-flex min-h-12 cursor-pointer items-center gap-2 rounded-lg bg-slate-800 px-4 text-base font-semibold text-white focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-blue-500 hover:bg-slate-700">
          <Camera aria-hidden className="size-5" />
          {UI_GATE.takePhoto}
          <input
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            className="sr-only"
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              e.target.value = '';
              if (files.length) onTakePhotos(files);
            }}
          />
        </label>
        {photos.map((photo, i) => (
          <figure
            key={photo.url}
            className="relative size-24 overflow-hidden rounded-lg ring-1 ring-slate-300"
          >
            {photo.status === 'failed' ? (
              <div className="grid size-full place-items-center bg-red-50 p-1 text-center text-xs text-red-700">
                <ImageOff aria-hidden className="size-5" />
                {UI_GATE.photoFailed}
              </div>
            ) : (
              <img src={photo.url} alt={UI_GATE.photo(i + 1)} className="size-full object-cover" />
            )}
            {photo.status === 'uploading' && (
              <figcaption className="absolute inset-x-0 bottom-0 flex items-center gap-1 bg-slate-900/70 px-1 text-xs text-white">
                <Spinner />
                {UI_GATE.photoUploading}
              </figcaption>
            )}
            <button
              type="button"
              aria-label={UI_GATE.removePhoto(i + 1)}
              onClick={() => onRemovePhoto(photo.url)}
              className="absolute right-0 top-0 grid size-12 place-items-start justify-items-end p-1"
            >
              <span className="grid size-7 place-items-center rounded-full bg-slate-900/80 text-white">
                <X aria-hidden className="size-4" />
              </span>
            </button>
          </figure>
        ))}
      </div>
    </Section>
  );
}
