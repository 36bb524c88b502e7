/** Hash routing (the route itself: console/model/route.ts). The key never appears in a URL. */
export interface PageHandle {
  /** Stops the page's timers when another page replaces it. */
  leave(): void;
}

export { routeOf, type Route } from '../model/route';
