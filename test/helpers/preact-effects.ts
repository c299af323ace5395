/**
 * Preact (window.Service's build) runs effects after the next animation frame, with a 35 ms
 * timer as the fallback: `afterNextFrame` in preact/hooks, whose frame or timer then queues the
 * flush with `setTimeout(flush)`. It schedules that once for a module-wide queue, when the queue
 * goes from empty to one; a component rendered while a flush is pending joins it and schedules
 * nothing of its own.
 *
 * Resolves once every flush already scheduled has run: one frame (after Preact's own, which
 * jsdom runs in the order asked), then one task (after Preact's `setTimeout(flush)`, queued
 * first). Without animation frames (not jsdom) there is nothing to wait for here.
 */
export async function preactEffectsRun(): Promise<void> {
  if (typeof requestAnimationFrame !== 'function') return;
  await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  await new Promise<void>((resolve) => setTimeout(resolve));
}
