import type { RouteInput, RouteOutput } from '../../../src-preload/contract';
import type { approvalRoutes } from '../../../src-preload/contract/approvals';
import type { artifactRoutes } from '../../../src-preload/contract/artifacts';
import type { evidenceRoutes } from '../../../src-preload/contract/evidence';
import type { Bridge } from './bridge';

/**
 * Routes whose contract files exist but which another part of the app registers in
 * the route map (artifacts, evidence, approvals). Called through here they are typed
 * by their own contract file whether or not this build registered them yet; an
 * unregistered one answers `unknown_route`, which the panels show as "not available".
 */
export type ExtraRoutes = typeof artifactRoutes & typeof evidenceRoutes & typeof approvalRoutes;
export type ExtraRoute = keyof ExtraRoutes & string;

export function invokeExtra<K extends ExtraRoute>(
  bridge: Bridge,
  route: K,
  input: RouteInput<ExtraRoutes[K]>,
): Promise<RouteOutput<ExtraRoutes[K]>> {
  const loose = bridge.invoke as unknown as (
    route: string,
    input: unknown,
  ) => Promise<RouteOutput<ExtraRoutes[K]>>;
  return loose(route, input);
}
