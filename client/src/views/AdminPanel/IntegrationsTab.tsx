// Sistema → Integraciones (CONTRACT §21): one section per kind of integration, stacked.
import { ApiKeysPanel } from './ApiKeysPanel';
import { WebhooksPanel } from './WebhooksPanel';

export function IntegrationsTab() {
  return (
    <div className="space-y-4">
      <ApiKeysPanel />
      <WebhooksPanel />
    </div>
  );
}
