// What runs the work the features start: scans (one at a time), scans on save, and fixes.
// Built from the context's services at activation and handed to the features that drive
// them, beside the context (FeatureCtx); the context itself holds services only.
import type { Ctx } from './context';
import { FixChecks } from './fixes/fixChecks';
import { FixController } from './fixes/fixController';
import { ScanController } from './scan/scanController';
import { ScanOnSave } from './scan/scanOnSave';

export interface Controllers {
  readonly scans: ScanController;
  /** Scan on save: saved files gathered into background partial scans. */
  readonly saves: ScanOnSave;
  readonly fixes: FixController;
  /** Applied fixes, checked with the service once their files are saved. */
  readonly fixChecks: FixChecks;
}

/** The context with the controllers: what a feature that starts scans or fixes is given. */
export type FeatureCtx = Ctx & Controllers;

export function createControllers(ctx: Ctx): Controllers {
  const { own } = ctx;
  const scans = own(new ScanController(ctx));
  const saves = own(new ScanOnSave({ scans, session: ctx.session, consent: ctx.consent, log: ctx.log, notifier: ctx.notifier, state: ctx.extension.workspaceState }));
  const fixChecks = own(new FixChecks({ store: ctx.store, notifier: ctx.notifier, saves, log: ctx.log }));
  return {
    scans,
    saves,
    fixes: own(new FixController(ctx.store, ctx.notifier, (files) => fixChecks.track(files))),
    fixChecks,
  };
}
