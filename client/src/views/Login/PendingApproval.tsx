import { ArrowLeft, Hourglass } from 'lucide-react';
import { UI_PENDING } from '@shared/labels';
import { Button } from '../../components/Button';

/** CONTRACT §13: shown after registering, or when a login is refused because approval is pending. */
export function PendingApproval({ email, onBack }: { email: string; onBack: () => void }) {
  return (
    <div className="space-y-5 text-center">
      <div className="mx-auto grid size-14 place-items-center rounded-full bg-amber-100 text-amber-600">
        <Hourglass aria-hidden className="size-7" />
      </div>
      <div className="space-y-2">
        <h2 className="text-xl font-semibold text-slate-900">{UI_PENDING.title}</h2>
        <p className="text-slate-600">{UI_PENDING.message}</p>
        {email && <p className="font-medium text-slate-800">{email}</p>}
      </div>
      <p className="rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-500">{UI_PENDING.hint}</p>
      <Button variant="secondary" size="lg" className="w-full" onClick={onBack} autoFocus>
        <ArrowLeft aria-hidden className="size-4" />
        {UI_PENDING.back}
      </Button>
    </div>
  );
}
