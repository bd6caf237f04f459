import { artifactRoutes } from './artifacts';
import { approvalRoutes } from './approvals';
import { demoRoutes } from './demo';
import { doctorRoutes } from './doctor';
import { workspaceRoutes } from './workspace';
import { evidenceRoutes } from './evidence';
import { kernelRoutes } from './kernel';
import { runRoutes } from './runs';
import { sessionRoutes } from './sessions';
import { settingsRoutes } from './settings';
import { skillRoutes } from './skills';
import { environmentRoutes } from './environments';
import { memoryRoutes } from './memory';
import { delegationRoutes } from './delegation';
import { computeRoutes } from './compute';
import { notebookRoutes } from './notebook';
import { mcpRoutes } from './mcp';
import { providerRoutes } from './providers';

/**
 * Every request route of the app, one spread per domain file. This object (with its
 * zod schemas) is imported by main only; the renderer imports `typeof routes`.
 */
export const routes = {
  ...doctorRoutes,
  ...workspaceRoutes,
  ...demoRoutes,
  ...kernelRoutes,
  ...sessionRoutes,
  ...runRoutes,
  ...evidenceRoutes,
  ...artifactRoutes,
  ...approvalRoutes,
  ...settingsRoutes,
  ...skillRoutes,
  ...environmentRoutes,
  ...memoryRoutes,
  ...delegationRoutes,
  ...computeRoutes,
  ...notebookRoutes,
  ...mcpRoutes,
  ...providerRoutes,
};

export type Routes = typeof routes;
export type RouteName = keyof Routes;
