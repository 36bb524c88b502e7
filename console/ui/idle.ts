/**
 * Idle sign-out (docs/CONSOLE.md "Signing in as a person"): no key press, click, touch or scroll
 * for `minutes` signs the person out. The pages' own reading (polling) does not count as use.
 */
const EVENTS = ['keydown', 'pointerdown', 'wheel', 'touchstart', 'scroll'] as const;

export interface IdleWatch {
  stop(): void;
}

export function watchIdle(minutes: number, onIdle: () => void): IdleWatch {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const restart = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stop();
      onIdle();
    }, minutes * 60_000);
  };
  const stop = () => {
    clearTimeout(timer);
    for (const name of EVENTS) window.removeEventListener(name, restart, true);
  };
  for (const name of EVENTS) window.addEventListener(name, restart, { capture: true, passive: true });
  restart();
  return { stop };
}
