/** Paths that more than a route needs to know (the metrics plugin labels them). */

/** Where Paddle sends its notifications (set in Paddle's dashboard; docs/paddle.md). */
export const PADDLE_WEBHOOK_PATH = '/api/webhooks/paddle';
