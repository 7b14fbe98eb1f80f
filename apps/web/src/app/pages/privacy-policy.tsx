import { LegalPage } from '../../features/legal/components/legal-page';
import { PrivacyContent } from '../../features/legal/components/privacy-content';
import { usePublicConfig } from '../../lib/public-config';

export function PrivacyPolicyPage() {
  const { config } = usePublicConfig();
  return (
    <LegalPage
      title="Privacy Policy"
      intro="This policy explains what AI Dress Up collects, why, how long we keep it and the choices you have."
    >
      <PrivacyContent supportEmail={config?.supportEmail ?? null} />
    </LegalPage>
  );
}
