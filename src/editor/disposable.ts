import type * as vscode from 'vscode';

/**
 * Owns what it creates (emitters, listeners, registrations) and disposes all of it, last
 * first, exactly once. Errors while disposing one part do not keep the others alive.
 */
export class DisposableObject implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  /** Takes ownership of `d` (disposed with this object; at once if this object already is). */
  protected own<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One part failing to let go must not keep the rest alive.
      }
    }
  }
}
