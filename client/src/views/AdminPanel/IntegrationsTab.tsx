// Sistema → Integraciones (CONTRACT §21): one section per kind of integration, stacked; another section
// (Webhooks) is one more line here.
import { ApiKeysPanel } from './ApiKeysPanel';

export function IntegrationsTab() {
  return (
    <div className="space-y-4">
      <ApiKeysPanel />
    </div>
  );
}
