// The renderer's states, one per domain, created once and shared by the views. Each is fed by
// bridge events, so every view showing a piece of the cache updates when the cache changes.
import { bridge } from '../lib/bridge';
import { Navigation } from '../lib/navigation.svelte';
import { Theme } from '../lib/theme.svelte';
import { SessionState } from './session.svelte';

export const nav = new Navigation();
export const theme = new Theme();
export const session = new SessionState(bridge);
