/**
 * Every user-facing message the product specification gives, word for word,
 * plus the product's own messages for situations the specification leaves open.
 */
export const MESSAGES = {
  // image upload
  unsupportedFormat: 'Unsupported format. Use JPG, PNG or WEBP.',
  fileTooLarge: 'File too large. Maximum 10MB allowed.',
  uploadFailed: 'Upload failed. Please try again.',
  // Try with AI
  uploadBothPhotos: 'Please upload both photos!',
  userLoading: 'Please wait, user is loading...',
  // checkout
  paymentLoading: 'Payment system is loading, please wait...',
  userNotFound: 'User not found, please refresh the page',
  checkoutFailed: 'Failed to open checkout. Please try again.',
  // try-on
  noCredits: 'No free trials or credits remaining. Please purchase credits to continue',
  initializing: 'Initializing AI model...',
  processingNote: 'Processing may take 30-60 seconds.',
  completed: 'Process completed!',
  processFailed: 'Process Failed',
  unknownError: 'Unknown error occurred',
  // auth
  authFailed: 'Authentication failed',
  // paywall headers
  paywallNoCredits: 'No Credits Remaining',
  paywallTrialExhausted: 'Free Trial Used!',
  paywallUpgrade: 'Upgrade to Keep Creating',

  // The product's own messages (the spec leaves these open).
  missingPersonImage: 'Please upload a photo of a person.',
  missingClothingImage: 'Please upload a photo of the clothing.',
  imageUnreadable: 'This image could not be read. Please try another photo.',
  imageTooManyPixels: 'This image is too large to process. Please use a photo under 40 megapixels.',
  invalidCategory: 'Please choose a clothing category: Upper Body, Lower Body or Full Outfit.',
  engineUnavailable: 'This try-on engine is not available right now.',
  engineFailed: 'The try-on could not be completed. You have not been charged; please try again.',
  engineTimeout: 'The try-on took too long. You have not been charged; please try again.',
  personNotFound:
    'No person was found in the person photo. Please use a photo of one person, standing, facing the camera.',
  multiplePeople: 'The person photo shows more than one person. Please use a photo of one person.',
  personTooSmall:
    'The person is too small or cut off in the photo for this clothing category. Please use a photo that shows the whole body area the clothing covers.',
  garmentNotSeparable:
    'The clothing could not be separated from its background. Please use a photo of the garment laid flat or on a hanger against a plain white background.',
  garmentNotPlaced:
    'The clothing could not be placed on the body in this photo. You have not been charged. Use a full-length photo of one person standing, facing the camera, arms a little away from the body.',
  contentBlocked: 'This photo could not be processed for safety reasons. Please try another photo.',
  invalidDeviceId: 'Invalid device id.',
  invalidRequest: 'The request is not valid.',
  notSignedIn: 'Your session has expired. Please refresh the page.',
  forbidden: 'You can only access your own account.',
  notFound: 'Not found.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  invalidPlan: 'This plan does not exist.',
  demoBillingDisabled: 'Demo checkout is not available: real payments are enabled.',
  internalError: 'Something went wrong on our side. Please try again.',
  serviceUnavailable: 'The service is temporarily unavailable. Please try again shortly.',
  invalidSignature: 'Invalid signature.',

  // Accounts: email sign-in, sign-out, delete my data, manage the plan.
  invalidEmail: 'Please enter a valid email address.',
  invalidCode: 'That code is not right. Check the latest email we sent and try again.',
  codeExpired: 'This code has expired or was already used. Please request a new one.',
  codeLocked: 'Too many wrong tries: this code no longer works. Please request a new one.',
  portalUnavailable: 'There is no paid plan to manage on this account.',
  trialsUsedOnDevice: 'Free try-ons were already used on this device.',
  trialsUsedOnNetwork: 'Free try-ons were already used on this network today.',
  signInMailSubject: 'Your AI Dress Up sign-in code',
  invalidLink: 'This sign-in link is not valid. Please request a new code.',
  confirmOtherBrowser:
    'This sign-in was asked for in another browser. Confirm to sign in here: what you made in this browser stays with it.',
  mailNotSent: 'We could not send the sign-in email just now. Please try again in a moment.',
  portalNotConfigured: 'Managing the plan online is not available right now. Please write to support.',
  planNotCanceled: 'We could not cancel your plan just now, so nothing was deleted. Please try again in a moment.',
  requestTooLarge: 'The request is too large.',
  unexpectedParts:
    'The upload has unexpected parts: send one person photo, one clothing photo (and, for a whole outfit, one bottom), the category and your user id.',
  lowerClothingNeedsUpperBody:
    'A bottom can only be added to an Upper Body try-on (a whole outfit). Choose Upper Body, or remove the bottom.',
  malformedUpload: 'The upload was incomplete or malformed. Please choose your photos again and retry.',
  engineBusy:
    'Lots of people are trying on clothes right now. Please try again in a minute. You have not been charged.',
  tooManyTryOns:
    'You have several try-ons under way. Please wait for one of them to finish, then try again. You have not been charged.',
  outage: 'Part of our service is briefly unavailable. Please try again in a moment.',
  tryOnOutage: 'Part of our service is briefly unavailable. Please try again in a moment. You have not been charged.',
  crossSiteRequest: 'This request came from another website and was refused. Please use AI Dress Up directly.',

  // Photo checks before anything is charged.
  notAPhoto: 'This file is not a photo we can read. Use JPG, PNG or WEBP.',
  photoTooSmall: 'This photo is too small to try clothes on. Please use a larger photo (768 × 1024 pixels is best).',
  personPhotoTooSmall:
    'The person photo is too small: it needs at least 256 pixels on its shorter side. Please use a larger photo (768 × 1024 pixels is best).',
  clothingPhotoTooSmall:
    'The clothing photo is too small: it needs at least 160 pixels on its shorter side. Please use a larger photo of the garment.',
  garmentWorn:
    'This clothing photo shows the garment being worn, which the built-in preview cannot use. Please use a photo of the garment on its own: laid flat or on a hanger, against a plain background. You have not been charged. If a higher-quality engine is offered, it can use photos of worn clothing.',

  // Reports of bad results, blocked accounts, the operator console.
  alreadyReported: 'You have already reported this result.',
  notReportable: 'Only a finished result can be reported.',
  accountBlocked: 'This account has been blocked. If you think this is a mistake, please write to support.',
  reauthRequired: 'Please sign in with your email again to continue (operator sign-ins last 12 hours).',
  reportDecided: 'This report has already been decided.',

  // The "Try it on" widget of shops (docs/embed.md).
  embedKeyInvalid: 'This try-on button is not set up correctly: its shop key is missing or unknown.',
  originNotAllowed: 'This shop is not allowed to use this try-on button.',
  embedSessionInvalid: 'This try-on session has ended. Please close it and open it again.',
  merchantNoCredits:
    'Sorry, try-ons are not available on this shop right now. Please try again later. Nothing was charged.',
  embedLimitReached: 'You have reached today’s number of try-ons on this shop. Please come back tomorrow.',
  /** A refusal of the shop's own garment photo: the shopper cannot take another one, so no photo advice. */
  productNotPreviewable:
    'Sorry, this product cannot be previewed here: its photo cannot be used for a try-on. Nothing was charged.',
  // Shoes & accessories; "Make it photo-real" (re-running a quick preview on a hosted engine).
  categoryNotOffered:
    'This engine cannot try on shoes and accessories. You have not been charged; please choose an engine that offers Shoes & Accessories, or a clothing category.',
  photosGone:
    'The photos of this preview are no longer kept (they are deleted 30 minutes after the try-on), so it cannot be made photo-real. Please upload them again.',
  notRerunnable: 'Only a quick preview from the built-in engine can be made photo-real.',
  rerunNeedsHostedEngine: 'Choose a photo-real (hosted) engine to make this preview photo-real.',
  // My photos: person photos kept for later try-ons.
  photoLimit: 'You keep 3 photos already. Delete one of them (on the Account page) to keep this one.',
  keptPhotoNotFound: 'This kept photo is not available any more. Please choose another or upload a photo.',
  personPhotoTwice: 'Send either a person photo or a kept photo, not both.',
  missingKeptPhoto: 'Please choose a photo to keep.',
} as const;

export type MessageKey = keyof typeof MESSAGES;
