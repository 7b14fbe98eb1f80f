/** Messages only the web app shows (situations the specification leaves open). */
export const WEB_MESSAGES = {
  requestTimedOut:
    'The try-on took longer than 120 seconds and was stopped. You have not been charged; please try again.',
  configUnavailable: 'We could not reach the service. Please check your connection and refresh the page.',
  paymentReceived: 'Payment received — your credits are on their way',
  paymentSlow: 'Your payment is still being confirmed. Your credits will appear shortly; refresh the page in a minute.',
  demoCheckoutFailed: 'The demo purchase could not be completed. Please try again.',
  galleryFailed: 'Your gallery could not be loaded. Please try again.',
  galleryDeleteFailed: 'The result could not be deleted. Please try again.',
  galleryShareFailed: 'The share link could not be changed. Please try again.',
  copyFailed: 'Could not copy the link. Select it and copy it yourself.',
  busyTitle: 'Busy right now',
  tooManyTitle: 'Several try-ons under way',
  outageTitle: 'Back in a moment',
  sessionFailed:
    'We could not start your session, so the try-on was not sent. Please check your connection and refresh the page.',
  reportFailed: 'Your report could not be sent. Please try again.',
  // My photos: person photos kept for later try-ons.
  photosFailed: 'Your kept photos could not be loaded. Please try again.',
  keepPhotoFailed: 'The photo could not be kept. Please try again.',
  deletePhotoFailed: 'The photo could not be deleted. Please try again.',
  pressNotCovered: 'Your free trials and credits do not cover all of these try-ons. Nothing was charged.',
  // Try with AI with a photo missing: the specification's words, then which one.
  uploadPersonMissing: 'Please upload both photos! The person photo is missing.',
  uploadClothingMissing: 'Please upload both photos! The clothing photo is missing.',
  uploadBothMissing: 'Please upload both photos! The person photo and the clothing photo are missing.',
} as const;

export type WebMessageKey = keyof typeof WEB_MESSAGES;
