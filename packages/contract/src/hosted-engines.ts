/**
 * Messages for failures of the hosted try-on engines (nano-banana, FASHN, fal) that the
 * general engine messages do not cover. Every one tells the shopper they were not charged.
 */
export const HOSTED_ENGINE_MESSAGES = {
  noImage:
    'The AI could not create a try-on image from these photos. You have not been charged; please try again or use different photos.',
  busy: 'The try-on service is busy right now. You have not been charged; please try again in a minute.',
  photoUnreadable:
    'The try-on service could not read one of the photos. You have not been charged; please try another photo.',
  poseNotFound:
    'The body pose could not be recognised in the person photo. You have not been charged; please use a photo of one person, standing, facing the camera.',
  garmentUnrecognised:
    'The clothing photo could not be recognised. You have not been charged; please use a photo of the garment laid flat, on a hanger or worn by a model.',
} as const;

export type HostedEngineMessageKey = keyof typeof HOSTED_ENGINE_MESSAGES;
