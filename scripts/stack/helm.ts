/**
 * Helm for the chart's checks (`scripts/chart/check.ts`): built once per machine with
 * `go install helm.sh/helm/v3/cmd/helm@v<version>` into the tools cache, as the Temporal CLI is;
 * $HELM_PATH when set. Needs no cluster: `helm lint` and `helm template` work offline.
 */
import { ensureGoTool, type GoTool } from './go-tools.ts';
import { type Log } from './lifecycle.ts';
import { isExecutable } from './tool-cache.ts';

export const HELM_VERSION = '3.21.4';
const HELM: GoTool = { name: 'helm', label: 'Helm', version: HELM_VERSION, module: `helm.sh/helm/v3/cmd/helm@v${HELM_VERSION}`, binary: 'helm' };

export async function ensureHelm(log: Log = (line) => console.error(`[helm] ${line}`)): Promise<string> {
  const fromEnv = process.env.HELM_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`HELM_PATH=${fromEnv} is not an executable file`);
    return fromEnv;
  }
  return ensureGoTool(HELM, log);
}
