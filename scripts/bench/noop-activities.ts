/** The one activity of the local-step baseline (noop-workflow.ts `benchNoopLocalStep`): it does nothing. */
export const benchNoopActivities = {
  async benchNoopStep(): Promise<void> {
    // nothing to do
  },
};

export type BenchNoopActivities = typeof benchNoopActivities;
