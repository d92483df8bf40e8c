// What a route handler receives, and the route table entry shape.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { Principal } from '../auth';
import type { ServiceCore } from '../core';
import type { RouteId } from '../faults';
import type { ListId, Permission } from '../types';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  /** The request body; read this, not `req` (fault injection counts bytes through it). */
  body: Readable;
  /** CORGEA-SOURCE value, "api" when absent. */
  source: string;
  principal: Principal;
  core: ServiceCore;
}

export interface Route {
  id: RouteId;
  method: 'GET' | 'POST' | 'PATCH' | 'HEAD';
  /** Path below /api/v1, with `:name` segments. */
  path: string;
  permission?: Permission;
  /** /verify answers 401 as `{status: "error"}`. */
  verifyStyle401?: boolean;
  /**
   * Served only in real answer shapes (decisions.md: the seed does not show it, so seed
   * mode answers 404 as for any path that is not an endpoint).
   */
  realShapesOnly?: boolean;
  /** One of a scan's lists: served only while the mode keeps it (`mode.lists`). */
  list?: ListId;
  handler(ctx: Ctx): Promise<void>;
}
