import {
  RESULT_RETENTION_DAYS,
  SIGN_IN_CODE_TTL_MINUTES,
  TRANSACTION_RETENTION_YEARS,
  UPLOAD_RETENTION_MINUTES,
} from '@aidressup/contract';
import { SupportLink } from './legal-page';

export function PrivacyContent({ supportEmail }: { supportEmail: string | null }) {
  return (
    <>
      <section>
        <h2>1. What we collect</h2>
        <ul>
          <li>
            <strong>Device information</strong> when you open the site: an anonymous device identifier computed in your
            browser, browser family, operating system, screen resolution, time zone, language and device type (mobile,
            tablet or desktop). The device identifier only limits free try-ons to one set per device; it never opens an
            account. We do not ask for your name or a password.
          </li>
          <li>
            <strong>Your email address</strong>, only if you choose to sign in with email. We keep it to sign you in and
            to send you the sign-in emails you ask for (a one-time code and a sign-in link, valid for{' '}
            {SIGN_IN_CODE_TTL_MINUTES} minutes). We send no newsletters or marketing email.
          </li>
          <li>
            <strong>Photos you upload</strong> (a person photo and a clothing photo) and the <strong>results</strong> we
            generate from them.
          </li>
          <li>
            <strong>Purchase records</strong>: the plan or credits you bought, amounts, dates and the reference our
            payment provider gives us. Card details are handled by the payment provider and never reach us.
          </li>
          <li>
            Technical logs (such as IP address and request times) used to keep the service secure and prevent abuse.
          </li>
        </ul>
      </section>
      <section>
        <h2>2. How long we keep it</h2>
        <ul>
          <li>
            Uploaded photos are deleted as soon as your try-on ends, and never later than about{' '}
            {UPLOAD_RETENTION_MINUTES} minutes after upload.
          </li>
          <li>
            Results are kept for {RESULT_RETENTION_DAYS} days so you can see and download them in My Gallery, then
            deleted.
          </li>
          <li>
            Transaction records are kept for {TRANSACTION_RETENTION_YEARS} years, as tax and accounting law requires.
          </li>
          <li>Your account stays until you delete it (below) or ask us to.</li>
        </ul>
        <p>Stored images carry no location or camera (EXIF) data: we remove it when you upload.</p>
      </section>
      <section>
        <h2>3. Deleting your data</h2>
        <p>
          On the Account page, <strong>Delete my data</strong> deletes at once your photos and try-on results, your
          email address, your device information and your sign-ins (every device is signed out). Unspent credits are
          forfeited when you delete your data and cannot be refunded or restored afterwards. Transaction records are
          kept for {TRANSACTION_RETENTION_YEARS} years, as tax and accounting law requires, without your personal data.
          Deleting your data does not cancel a plan that renews: cancel it first with Manage subscription.
        </p>
      </section>
      <section>
        <h2>4. How we use it</h2>
        <ul>
          <li>To create your try-ons and show them to you.</li>
          <li>To count your free trials and credits and to process purchases.</li>
          <li>
            To sign you in with your email, if you choose to, so your credits, plan and results reach you on any device.
          </li>
          <li>To protect the service against abuse and fraud.</li>
        </ul>
        <p>We do not sell your data, do not use your photos for advertising, and do not use them to train AI models.</p>
      </section>
      <section>
        <h2>5. Who we share it with</h2>
        <ul>
          <li>
            Our payment provider, to take payments and handle refunds. If you are signed in, we give it your email
            address for the receipt.
          </li>
          <li>Our email delivery provider, only to send the sign-in emails you ask for.</li>
          <li>
            Hosting and, where enabled, AI processing providers that act on our instructions and may not use your photos
            for their own purposes.
          </li>
          <li>Authorities, only where the law requires it.</li>
        </ul>
      </section>
      <section>
        <h2>6. Cookies and local storage</h2>
        <p>
          We use one essential session cookie that keeps your browser connected to your account; it is the only key to
          your account, and signing out ends it. Your browser&apos;s local storage keeps a copy of your credits for
          display and the device identifier. We use no advertising or tracking cookies.
        </p>
      </section>
      <section>
        <h2>7. Your rights</h2>
        <p>
          You may delete your data yourself on the Account page. You may also ask for a copy of your data, its
          correction or its deletion, and you may object to its processing: write to{' '}
          <SupportLink email={supportEmail} /> from the email you sign in with, or quote the account id shown on the
          Account page. Where the law gives you the right, you may also complain to your data-protection authority.
        </p>
      </section>
      <section>
        <h2>8. Children</h2>
        <p>
          AI Dress Up is for adults aged 18 or over, or the age of majority where they live. Photos of minors must not
          be uploaded.
        </p>
      </section>
    </>
  );
}
