import { LegalPage } from '../../features/legal/components/legal-page';
import { RefundContent } from '../../features/legal/components/refund-content';
import { usePublicConfig } from '../../lib/public-config';

export function RefundPolicyPage() {
  const { config } = usePublicConfig();
  return (
    <LegalPage
      title="Refund Policy"
      intro="We want you to be happy with every purchase. Here is how refunds work for AI Dress Up credits and plans."
    >
      <RefundContent supportEmail={config?.supportEmail ?? null} />
    </LegalPage>
  );
}
