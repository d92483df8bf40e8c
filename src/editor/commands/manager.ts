import * as vscode from 'vscode';
import { isCancellation } from '../../core/async';
import { DisposableObject } from '../disposable';
import type { ErrorHandler } from '../errors';
import type { ContextKey } from './contextKeys';
import type { CommandHandlers, CommandId, CommandSignatures } from './signatures';

type Handler = (...args: unknown[]) => unknown;

/**
 * Registers the extension's commands and runs them for each other. Every handler runs
 * inside one error boundary: a failure is logged with the command id and shown once
 * through the error handler (a cancellation silently), and never escapes into the workbench.
 */
export class Commands extends DisposableObject {
  constructor(private readonly errors: ErrorHandler) {
    super();
  }

  /** Registers a handler for every command (extension.ts, once, with what the features return). */
  registerAll(handlers: CommandHandlers): void {
    for (const id of Object.keys(handlers) as CommandId[]) this.register(id, handlers[id]);
  }

  private register<K extends CommandId>(id: K, handler: CommandSignatures[K]): void {
    const run = handler as unknown as Handler;
    this.own(vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run(...args);
      } catch (err) {
        if (isCancellation(err)) return undefined;
        this.errors.report(err, { source: `Command ${id}` });
        return undefined;
      }
    }));
  }

  /** Runs one of our commands with arguments of the right type. */
  execute<K extends CommandId>(id: K, ...args: Parameters<CommandSignatures[K]>): Promise<Awaited<ReturnType<CommandSignatures[K]>> | undefined> {
    return Promise.resolve(vscode.commands.executeCommand<Awaited<ReturnType<CommandSignatures[K]>> | undefined>(id, ...args));
  }
}

/** A vscode.Command (tree item, code action, status bar) that runs one of ours with typed arguments. */
export function commandCall<K extends CommandId>(id: K, title: string, ...args: Parameters<CommandSignatures[K]>): vscode.Command {
  return { command: id, title, arguments: args };
}

/** Sets one of our context keys (the `when` clauses of package.json read them). */
export function setContext(key: ContextKey, value: unknown): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}
