// An Excel button's download: busy while it runs, then a success toast or the server's refusal.
import { useState } from 'react';
import { toast } from 'sonner';
import { toastError } from '../toast';

export function useDownload(download: () => Promise<unknown>, texts: { done: string; failed: string }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await download();
      toast.success(texts.done);
    } catch (err) {
      toastError(err, texts.failed);
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
