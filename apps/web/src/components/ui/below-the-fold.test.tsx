import { useLayoutEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { BelowTheFold } from './below-the-fold';

afterEach(cleanup);

describe('BelowTheFold', () => {
  it('is an empty, screen-tall element in the first render, and gets its content in a later one', () => {
    const commits: string[] = [];
    /** Notes, in the commit that mounts it, how the element looks. */
    function Spy({ name }: { name: string }) {
      useLayoutEffect(() => {
        const el = document.getElementById('studio')!;
        commits.push(`${name}: ${el.tagName} ${el.className} ${el.childElementCount} children`);
      }, [name]);
      return null;
    }
    render(
      <>
        <Spy name="first screen" />
        <BelowTheFold as="section" id="studio" className="mt-14" aria-label="Studio">
          <Spy name="below" />
          <p>below the fold</p>
        </BelowTheFold>
      </>,
    );
    expect(screen.getByRole('region', { name: 'Studio' }).textContent).toBe('below the fold');
    expect(commits).toEqual(['first screen: SECTION mt-14 min-h-dvh 0 children', 'below: SECTION mt-14 1 children']);
  });
});
