/**
 * Workflow ids carry the tenant first and then the business ids, so the Temporal UI finds a
 * workflow by `WorkflowId STARTS_WITH "platform/<id>/"` and a repeated start with the same
 * business ids joins the running one instead of doubling the work.
 */
export function platformPrefix(platformId: string): string {
  return `platform/${platformId}`;
}

export function courseGrantWorkflowId(p: { platformId: string; courseId: string; email: string; accessLevel: number }): string {
  return `${platformPrefix(p.platformId)}/grant/course/${p.courseId}/${p.email}/level-${p.accessLevel}`;
}
