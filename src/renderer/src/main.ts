// The bridge first: its module runs before the rest of the page's script, and opens the web
// host's socket then (see `WebSocketTransport.preconnect`).
import './lib/bridge';
import { mount } from 'svelte';
import './styles/tokens.css';
import './styles/base.css';
import './styles/chips.css';
import App from './App.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('#app element missing from index.html');
export default mount(App, { target });
