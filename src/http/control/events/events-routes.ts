import type { RouteRegistrar } from '../../route-context.ts';
import { streamEvents } from './stream-events.ts';

/** The live event stream (issue 22). */
export const eventRoutes: RouteRegistrar[] = [streamEvents];
