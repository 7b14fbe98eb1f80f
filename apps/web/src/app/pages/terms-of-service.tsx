import { LegalPage } from '../../features/legal/components/legal-page';
import { TermsContent } from '../../features/legal/components/terms-content';
import { usePublicConfig } from '../../lib/public-config';

export function TermsOfServicePage() {
  const { config } = usePublicConfig();
  return (
    <LegalPage doc="terms">
      <TermsContent supportEmail={config?.supportEmail ?? null} plans={config?.plans ?? null} />
    </LegalPage>
  );
}
