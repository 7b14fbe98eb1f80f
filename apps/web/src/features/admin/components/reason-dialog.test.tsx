import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ApiError } from '../../../lib/api-client';
import { ReasonDialog, type ReasonDialogProps } from './reason-dialog';

afterEach(cleanup);

function setup(over: Partial<ReasonDialogProps> = {}) {
  const props = {
    title: 'Block this account',
    description: 'Its sessions and email sign-ins are refused until it is unblocked.',
    confirmLabel: 'Block',
    onClose: vi.fn(),
    onConfirm: vi.fn((_input: { reason: string; amount: number; text: string }) => Promise.resolve()),
    ...over,
  };
  render(<ReasonDialog {...props} />);
  return props;
}

const confirm = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('reason dialog', () => {
  it('is a dialog named by its title, described, with the reason field focused when nothing else is asked', () => {
    setup();
    const dialog = screen.getByRole('dialog', { name: 'Block this account' });
    expect(dialog.textContent).toContain('Its sessions and email sign-ins are refused until it is unblocked.');
    expect(screen.queryByLabelText('Credits')).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText('Reason'));
    expect(screen.getByLabelText('Reason').getAttribute('maxlength')).toBe('500');
  });

  it('refuses an empty or blank reason in the dialog, marking the field, and sends nothing', async () => {
    const props = setup();
    // The button is not disabled: pressing it says what is missing.
    expect(confirm('Block').disabled).toBe(false);
    await act(async () => fireEvent.click(confirm('Block')));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Say why: the reason is kept in the ledger and the audit log.');
    const reason = screen.getByLabelText('Reason');
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(reason.getAttribute('aria-describedby')).toBe(alert.id);

    type('Reason', '   \n  ');
    await act(async () => fireEvent.click(confirm('Block')));
    expect(screen.getByRole('alert').textContent).toContain('Say why');
    expect(props.onConfirm).not.toHaveBeenCalled();
    expect(props.onClose).not.toHaveBeenCalled();
  });

  it('sends the reason trimmed, and the error goes once it is given', async () => {
    const props = setup();
    await act(async () => fireEvent.click(confirm('Block')));
    expect(screen.getByRole('alert')).toBeTruthy();
    type('Reason', '  chargeback fraud, ticket 12  ');
    await act(async () => fireEvent.click(confirm('Block')));
    expect(props.onConfirm).toHaveBeenCalledTimes(1);
    expect(props.onConfirm).toHaveBeenCalledWith({ reason: 'chargeback fraud, ticket 12', amount: 1, text: '' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Reason').getAttribute('aria-invalid')).toBeNull();
  });

  it('asks for credits when told to, starting at 1 and focused first', () => {
    setup({ title: 'Add credits', confirmLabel: 'Add credits', withAmount: true });
    const amount = screen.getByLabelText('Credits') as HTMLInputElement;
    expect(amount.value).toBe('1');
    expect(amount.type).toBe('number');
    expect(document.activeElement).toBe(amount);
  });

  it.each(['0', '-5', '2.5', '', '100001', 'abc'])(
    'refuses %j credits before looking at the reason, and sends nothing',
    async (value) => {
      const props = setup({ title: 'Add credits', confirmLabel: 'Add credits', withAmount: true });
      type('Credits', value);
      type('Reason', 'goodwill');
      await act(async () => fireEvent.click(confirm('Add credits')));
      expect(screen.getByRole('alert').textContent).toBe('Enter a whole number of credits between 1 and 100,000.');
      expect(props.onConfirm).not.toHaveBeenCalled();
    },
  );

  it('sends the number of credits as a number, up to 100,000', async () => {
    const props = setup({ title: 'Add credits', confirmLabel: 'Add credits', withAmount: true });
    type('Credits', '100000');
    type('Reason', 'bulk goodwill');
    await act(async () => fireEvent.click(confirm('Add credits')));
    expect(props.onConfirm).toHaveBeenCalledWith({ reason: 'bulk goodwill', amount: 100_000, text: '' });
  });

  it('asks for a text when told to, starting from what it is given, and sends it as typed', async () => {
    const props = setup({
      title: 'Allowed origins',
      confirmLabel: 'Save origins',
      withText: { label: 'Origins', initial: 'https://a.example\nhttps://b.example' },
    });
    const text = screen.getByLabelText('Origins') as HTMLTextAreaElement;
    expect(text.value).toBe('https://a.example\nhttps://b.example');
    expect(document.activeElement).toBe(text);
    type('Origins', 'https://c.example ');
    type('Reason', 'new domain');
    await act(async () => fireEvent.click(confirm('Save origins')));
    expect(props.onConfirm).toHaveBeenCalledWith({ reason: 'new domain', amount: 1, text: 'https://c.example ' });
  });

  it('closes on Escape, on Cancel and on the close button, without confirming', () => {
    const props = setup();
    fireEvent.keyDown(screen.getByLabelText('Reason'), { key: 'Escape' });
    expect(props.onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(props.onClose).toHaveBeenCalledTimes(2);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(props.onClose).toHaveBeenCalledTimes(3);
    expect(props.onConfirm).not.toHaveBeenCalled();
  });

  it('cannot be closed or sent twice while the action runs; a refusal is shown and the dialog stays usable', async () => {
    let refuse!: (e: unknown) => void;
    const props = setup({
      onConfirm: vi.fn(() => new Promise<void>((_resolve, reject) => (refuse = reject))),
    });
    type('Reason', 'abuse');
    await act(async () => fireEvent.click(confirm('Block')));
    expect(confirm('Block').disabled).toBe(true);
    expect(confirm('Cancel').disabled).toBe(true);
    fireEvent.keyDown(screen.getByLabelText('Reason'), { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await act(async () => fireEvent.click(confirm('Block')));
    expect(props.onClose).not.toHaveBeenCalled();
    expect(props.onConfirm).toHaveBeenCalledTimes(1);

    await act(async () => refuse(new ApiError('This account is already blocked.', 409, 'ALREADY_BLOCKED', {})));
    expect(screen.getByRole('alert').textContent).toBe('This account is already blocked.');
    expect(confirm('Block').disabled).toBe(false);
    expect((screen.getByLabelText('Reason') as HTMLTextAreaElement).value).toBe('abuse');
    fireEvent.keyDown(screen.getByLabelText('Reason'), { key: 'Escape' });
    expect(props.onClose).toHaveBeenCalledTimes(1);
  });

  it('says the server could not be reached when the action fails without an answer', async () => {
    setup({ onConfirm: vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))) });
    type('Reason', 'abuse');
    await act(async () => fireEvent.click(confirm('Block')));
    expect(screen.getByRole('alert').textContent).toBe('Could not reach the server.');
  });
});
