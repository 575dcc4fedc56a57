/**
 * What a reliability test records for `pnpm reliability`'s table, in vitest's task meta (which the
 * JSON reporter writes out): how many cases it tried, and a figure worth printing under the table.
 * A test that records nothing counts as one case.
 */
import fc from "fast-check";
import type { TaskMeta } from "vitest";

declare module "vitest" {
  interface TaskMeta {
    /** Cases this test tried (property runs, or calls); a failed test failed one of them. */
    cases?: number;
    /** Figures for the report, e.g. the slowest answer. */
    notes?: string[];
  }
}

interface HasMeta {
  task: { meta: TaskMeta };
}

export function countCases(ctx: HasMeta, n: number): void {
  ctx.task.meta.cases = n;
}

export function note(ctx: HasMeta, text: string): void {
  ctx.task.meta.notes = [...(ctx.task.meta.notes ?? []), text];
}

/**
 * fc.assert over an async property, recording how many runs it took. A failure throws fast-check's
 * own report: the shrunk counterexample and the seed and path to replay it.
 */
export async function holds<T>(
  ctx: HasMeta,
  property: fc.IAsyncProperty<T>,
  params: { numRuns: number; seed: number },
): Promise<void> {
  await fc.assert(property, {
    ...params,
    asyncReporter: async (details) => {
      countCases(ctx, details.numRuns);
      if (!details.failed) return;
      const report = await fc.asyncDefaultReportMessage(details);
      const cause = details.errorInstance;
      const why = cause instanceof Error ? cause.message : String(cause);
      throw new Error(`${report}\nThe smallest case failed with: ${why}`, { cause });
    },
  });
}
