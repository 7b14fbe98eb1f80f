import { LegalPage } from '../../features/legal/components/legal-page';
import { TermsContent } from '../../features/legal/components/terms-content';
import { usePublicConfig } from '../../lib/public-config';

export function TermsOfServicePage() {
  const { config } = usePublicConfig();
  return (
    <LegalPage
      title="Terms of Service"
      intro="These terms govern your use of AI Dress Up, the virtual clothing try-on service. By using it you accept them."
    >
      <TermsContent supportEmail={config?.supportEmail ?? null} plans={config?.plans ?? null} />
    </LegalPage>
  );
}
