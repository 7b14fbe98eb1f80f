import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MESSAGES, type User } from '@aidressup/contract';
import { TrialsWithheldNote, trialsWithheldMessage } from './trials-withheld-note';
import { testUser } from '../../../test/user';

const user = (over: Partial<User>): User =>
  testUser({ id: 'u1', free_trials_used: 2, segment: 'trial_exhausted', ...over });

afterEach(cleanup);

describe('why free try-ons were withheld', () => {
  it('names the device or the network', () => {
    expect(trialsWithheldMessage(user({ free_trials_withheld: 'device' }))).toBe(MESSAGES.trialsUsedOnDevice);
    expect(trialsWithheldMessage(user({ free_trials_withheld: 'network' }))).toBe(MESSAGES.trialsUsedOnNetwork);
  });

  it('says nothing when the trials were used here, or some are left', () => {
    expect(trialsWithheldMessage(user({}))).toBeNull();
    expect(trialsWithheldMessage(user({ free_trials_withheld: 'device', free_trials_used: 1 }))).toBeNull();
    expect(trialsWithheldMessage(null)).toBeNull();
  });

  it('renders a note', () => {
    render(<TrialsWithheldNote user={user({ free_trials_withheld: 'device' })} />);
    expect(screen.getByRole('note').textContent).toBe(MESSAGES.trialsUsedOnDevice);
  });
});
