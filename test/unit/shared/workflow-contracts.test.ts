/**
 * Issue 25, item 2: a workflow starts another by its type name with the arguments of its contract
 * (workflows/*\/contracts.ts). Type-checked (npm run typecheck): every name is a workflow the
 * worker registers (an export of workflows/index.ts) and the contract's arguments are exactly its
 * parameters, so a renamed workflow or a changed input fails here instead of at run time.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type * as workflows from '../../../workflows/index.ts';
import type { ChildWorkflows } from '../../../workflows/shared/start-child-once.ts';

describe('child workflow contracts', () => {
  it('name exported workflows and their exact parameters', () => {
    expectTypeOf<{ [K in keyof ChildWorkflows]: Parameters<(typeof workflows)[K]> }>().toEqualTypeOf<{ [K in keyof ChildWorkflows]: ChildWorkflows[K] }>();
  });
});
