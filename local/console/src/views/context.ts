import type { Place } from '../links.js';
import type { Live } from '../live.js';
import type { ConsoleConfig, Session } from '../session.js';

/** What every view is given: who is signed in, where we are, and the stack's console config. */
export interface ViewContext {
  readonly session: Session;
  readonly place: Place;
  readonly config: ConsoleConfig;
  /** Updates the unseen-notifications badge in the navigation. */
  readonly setUnseen: (unseen: number) => void;
  /** The realtime channel, opened once the view has drawn: register for its pushes while rendering. */
  readonly live: Live;
}

/** Renders a view into `root`; a rejection is shown by the caller. */
export type ViewRenderer = (ctx: ViewContext, root: HTMLElement) => Promise<void>;
