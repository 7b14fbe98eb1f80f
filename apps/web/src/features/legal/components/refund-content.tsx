import { REFUND_WINDOW_DAYS } from '@aidressup/contract';
import { Link } from 'react-router';
import { SupportLink } from './legal-page';

export function RefundContent({ supportEmail }: { supportEmail: string | null }) {
  return (
    <>
      <section>
        <h2>1. Refund window</h2>
        <p>
          You can request a refund within {REFUND_WINDOW_DAYS} days of a purchase. Write to{' '}
          <SupportLink email={supportEmail} /> with your account id (shown on the Account page), the date of the
          purchase and the reason for your request.
        </p>
      </section>
      <section>
        <h2>2. What we refund</h2>
        <ul>
          <li>Purchases made by mistake or charged twice.</li>
          <li>Purchases you could not use because of a fault on our side.</li>
          <li>Unused credits of a purchase made within the last {REFUND_WINDOW_DAYS} days.</li>
        </ul>
        <p>
          Try-ons that fail are never charged, so they need no refund: the free trial or credit is returned to your
          account at once. Credits used to break our <Link to="/terms-of-service">Terms of Service</Link> are not
          refunded.
        </p>
      </section>
      <section>
        <h2>3. How refunds are paid</h2>
        <p>
          Approved refunds are paid to the original payment method. They usually appear within 5 to 10 business days,
          depending on your bank or card issuer. The credits of a refunded purchase are removed from your account.
        </p>
      </section>
      <section>
        <h2>4. Subscriptions</h2>
        <p>
          Weekly, monthly and yearly plans renew automatically at the end of each period until you cancel. Cancelling
          stops the next renewal; you keep your credits until the end of the period you paid for. Subscription credits
          expire at the end of their period. A renewal you did not want can be refunded within {REFUND_WINDOW_DAYS} days
          if you have not used its credits.
        </p>
      </section>
      <section>
        <h2>5. Your legal rights</h2>
        <p>This policy does not limit any right to a refund you have under consumer law where you live.</p>
      </section>
    </>
  );
}
