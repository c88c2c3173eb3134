// CONTRACT §20 "Proof of the move": every active place's label — its name, its code and a QR code of the
// code — on A4 sheets, eight a page, printed without the app around it. qrcode (SVG) is loaded only with
// this page (a lazy route).
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, Printer } from 'lucide-react';
import QRCode from 'qrcode';
import type { Location } from '@shared/schemas';
import { LOCATION_KIND_LABELS, PROOF_TEXT } from '@shared/labels';
import { Button } from '../../components/Button';
import { Spinner } from '../../components/Spinner';
import { loadLocations, useLocations } from '../../stores/locations';

interface Label {
  place: Location;
  svg: string;
}

/** A QR code of a place's code, as an SVG string (quiet zone included, medium error correction). */
export const qrSvg = (code: string): Promise<string> =>
  QRCode.toString(code, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });

// A4 with 10 mm margins; the labels are 90 × 64 mm, two across and four down.
const PRINT_CSS = `@page { size: A4 portrait; margin: 10mm; }
@media print { html, body { background: #fff !important; } }`;

export function LabelsSheet() {
  const locations = useLocations((s) => s.locations);
  const loaded = useLocations((s) => s.loaded);
  const [labels, setLabels] = useState<Label[] | null>(null);

  useEffect(() => {
    void loadLocations();
  }, []);
  useEffect(() => {
    if (!loaded) return;
    let live = true;
    const active = locations.filter((l) => l.active);
    void Promise.all(active.map(async (place) => ({ place, svg: await qrSvg(place.code) }))).then(
      (made) => live && setLabels(made),
    );
    return () => {
      live = false;
    };
  }, [locations, loaded]);

  return (
    <main className="min-h-dvh bg-slate-100 print:bg-white">
      <style>{PRINT_CSS}</style>
      <header className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-4 py-3 print:hidden">
        <Link
          to="/dashboard"
          className="inline-flex h-10 items-center gap-2 rounded-lg px-3 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        >
          <ArrowLeft aria-hidden className="size-4" />
          {PROOF_TEXT.back}
        </Link>
        <div className="min-w-0 flex-1">
          <h1 className="text-lg font-bold text-slate-950">{PROOF_TEXT.labelsTitle}</h1>
          <p className="text-sm text-slate-600">{PROOF_TEXT.labelsHelp}</p>
        </div>
        <Button onClick={() => window.print()} disabled={!labels?.length}>
          <Printer aria-hidden className="size-4" />
          {PROOF_TEXT.print}
        </Button>
      </header>
      {!labels ? (
        <p role="status" className="flex items-center justify-center gap-2 py-16 text-slate-600">
          <Spinner />
          {PROOF_TEXT.labelsLoading}
        </p>
      ) : !labels.length ? (
        <p className="py-16 text-center text-slate-600">{PROOF_TEXT.noLabels}</p>
      ) : (
        <section
          aria-label={PROOF_TEXT.labelsTitle}
          className="mx-auto grid w-[190mm] grid-cols-2 gap-[2mm] bg-white p-0 py-4 print:py-0"
        >
          {labels.map(({ place, svg }) => (
            <article
              key={place.id}
              data-testid="place-label"
              data-code={place.code}
              className="flex h-[64mm] break-inside-avoid items-center gap-[3mm] overflow-hidden rounded-[2mm] border-2 border-dashed border-slate-400 p-[4mm]"
            >
              <div
                className="size-[44mm] shrink-0 [&>svg]:size-full"
                role="img"
                aria-label={place.code}
                // The SVG qrcode made from the place's code: no user text reaches it but the code itself.
                dangerouslySetInnerHTML={{ __html: svg }}
              />
              <div className="min-w-0 flex-1 space-y-[1.5mm]">
                <p className="line-clamp-3 break-words text-[5.5mm] font-bold leading-tight text-slate-950">
                  {place.name}
                </p>
                <p className="break-all font-mono text-[4.5mm] font-semibold leading-tight text-slate-800">
                  {place.code}
                </p>
                <p className="line-clamp-2 text-[3.2mm] leading-tight text-slate-600">
                  {LOCATION_KIND_LABELS[place.kind]} · {place.zone}
                </p>
              </div>
            </article>
          ))}
        </section>
      )}
    </main>
  );
}
