// `Exportar Excel` of a report: busy while the workbook downloads, then a success toast or the server's
// refusal.
import { Download } from 'lucide-react';
import { Button } from './Button';
import { useDownload } from './useDownload';

export function ExcelButton({
  download,
  texts,
  disabled = false,
}: {
  download: () => Promise<unknown>;
  texts: { label: string; done: string; failed: string };
  disabled?: boolean;
}) {
  const { busy, run } = useDownload(download, texts);
  return (
    <Button variant="secondary" loading={busy} disabled={disabled} onClick={() => void run()}>
      <Download aria-hidden className="size-4" />
      {texts.label}
    </Button>
  );
}
