import { LegalPage } from '../../features/legal/components/legal-page';
import { RefundContent } from '../../features/legal/components/refund-content';
import { usePublicConfig } from '../../lib/public-config';

export function RefundPolicyPage() {
  const { config } = usePublicConfig();
  return (
    <LegalPage doc="refund">
      <RefundContent supportEmail={config?.supportEmail ?? null} />
    </LegalPage>
  );
}
