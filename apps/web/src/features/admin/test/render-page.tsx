/** The operator console's pages for unit tests: a page at its route, its tables read as text, a dialog filled in. */
import type { ReactElement } from 'react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';

/** Renders `page` at the address `entry`, under the route `pattern` that gives it its params. */
export function renderAt(entry: string, pattern: string, page: ReactElement) {
  return render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path={pattern} element={page} />
      </Routes>
    </MemoryRouter>,
  );
}

/** The text of every cell of the table with this test id, row by row, its header row left out. */
export const tableRows = (testId: string) =>
  within(screen.getByTestId(testId))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

/**
 * Presses `button`, fills the dialog it opens (field label → value) and confirms with `confirm`;
 * returns the dialog. `dialog` names the dialog when the page may show more than one.
 */
export async function runAction(
  button: string,
  fields: Record<string, string>,
  confirm: string,
  dialog?: string,
): Promise<HTMLElement> {
  fireEvent.click(screen.getByRole('button', { name: button }));
  const opened = dialog ? screen.getByRole('dialog', { name: dialog }) : screen.getByRole('dialog');
  for (const [label, value] of Object.entries(fields)) {
    fireEvent.change(within(opened).getByLabelText(label), { target: { value } });
  }
  await act(async () => fireEvent.click(within(opened).getByRole('button', { name: confirm })));
  return opened;
}
