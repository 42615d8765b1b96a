/** The one activity of the local-step baseline (noop-local-step-workflow.ts): it does nothing. */
export const benchNoopActivities = {
  async benchNoopStep(): Promise<void> {
    // nothing to do
  },
};

export type BenchNoopActivities = typeof benchNoopActivities;
