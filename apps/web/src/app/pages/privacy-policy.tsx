import { LegalPage } from '../../features/legal/components/legal-page';
import { PrivacyContent } from '../../features/legal/components/privacy-content';
import { usePublicConfig } from '../../lib/public-config';

export function PrivacyPolicyPage() {
  const { config } = usePublicConfig();
  return (
    <LegalPage doc="privacy">
      <PrivacyContent
        supportEmail={config?.supportEmail ?? null}
        {...(config?.keptPhotoDays ? { keptPhotoDays: config.keptPhotoDays } : {})}
      />
    </LegalPage>
  );
}
