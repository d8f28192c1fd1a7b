// The operator's page: sign in with a token, then the overview refreshes every few seconds.

import { api, token, ApiError } from './api.js';
import { renderTargets, renderSummary, renderAudit, refreshAges } from './render.js';
import { createActions } from './actions.js';
import { seconds } from './format.js';

const REFRESH_MS = 5000;
const PAGE_SIZE = 25;
const $ = (id) => document.getElementById(id);

const state = { role: null, page: 0, pages: 1, search: '', problemsOnly: false, lastGood: 0, failing: null,
  timer: null, instance: '' };

const actions = createActions({ onChanged: () => refresh() });

function showSignIn(message) {
  clearTimeout(state.timer);
  state.role = null;
  $('main').hidden = true;
  // Nothing read with a token stays on the page once it is gone.
  $('targets').replaceChildren();
  $('summary').replaceChildren();
  $('audit-rows').replaceChildren();
  delete $('audit-rows').dataset.signature;
  $('sign-in').hidden = false;
  $('who').hidden = true;
  $('sign-out').hidden = true;
  $('freshness').textContent = 'Not signed in';
  $('sign-in-error').textContent = message || '';
  $('token').focus();
}

async function signIn(candidate) {
  try {
    const { data } = await api.me(candidate);
    token.set(candidate);
    state.role = data.role;
    $('who').textContent = `Signed in as ${data.name} (${data.role})`;
    $('who').hidden = false;
    $('sign-out').hidden = false;
    $('sign-in').hidden = true;
    $('main').hidden = false;
    $('sign-in-error').textContent = '';
    document.body.classList.toggle('operator', data.role === 'operator');
    await refresh();
  } catch (e) {
    token.clear();
    const why = e instanceof ApiError && e.status === 401
      ? `The token was refused: ${e.detail || e.title}. Check that you pasted the whole token.`
      : `Could not sign in: ${e.title}${e.detail ? ' — ' + e.detail : ''}`;
    showSignIn(why);
  }
}

function freshness() {
  const el = $('freshness');
  const ageSeconds = state.lastGood ? (Date.now() - state.lastGood) / 1000 : null;
  if (state.failing) {
    el.textContent = `API unreachable or failing: ${state.failing}. Showing data from ${ageSeconds === null ? 'never'
      : seconds(ageSeconds) + ' ago'}.`;
    el.className = 'freshness stale';
  } else if (ageSeconds !== null && ageSeconds > (REFRESH_MS / 1000) * 3) {
    el.textContent = `Data is ${seconds(ageSeconds)} old.`;
    el.className = 'freshness stale';
  } else {
    el.textContent = ageSeconds === null ? 'Loading…' : `Updated ${seconds(ageSeconds)} ago, every ${REFRESH_MS / 1000} s.`;
    el.className = 'freshness';
  }
}

// Each call supersedes the ones in flight (a click on Next during a refresh): only the latest renders and schedules.
let sequence = 0;

async function refresh() {
  clearTimeout(state.timer);
  if (!state.role) {
    return;
  }
  const mine = ++sequence;
  let again = false;
  // Marks and measures let anyone (and the page tests) read how long a refresh and its rendering take.
  const started = performance.now();
  try {
    const [{ data: overview }, { data: audit }] = await Promise.all([
      api.overview({ page: state.page, size: PAGE_SIZE, search: state.search, problemsOnly: state.problemsOnly,
        history: true }),
      api.audit()]);
    if (mine !== sequence) {
      return;
    }
    state.instance = overview.instance;
    state.pages = overview.pages;
    if (state.page >= overview.pages) {
      state.page = overview.pages - 1;
      again = true;
      return;
    }
    const rendering = performance.now();
    renderSummary($('summary'), overview);
    renderTargets($('targets'), overview.targets, state.role, actions, overview.instance);
    renderAudit($('audit-rows'), audit);
    // Reading a layout property makes the browser lay the page out now, so that the measure includes it.
    void $('targets').offsetHeight;
    performance.measure('slotkeeper-render', { start: rendering, end: performance.now() });
    performance.measure('slotkeeper-refresh', { start: started, end: performance.now() });
    $('page-label').textContent = `Page ${overview.page + 1} of ${overview.pages} (${overview.matching} targets)`;
    $('previous').disabled = overview.page === 0;
    $('next').disabled = overview.page + 1 >= overview.pages;
    state.lastGood = Date.now();
    state.failing = null;
    document.body.dataset.loaded = String(state.lastGood);
  } catch (e) {
    if (mine !== sequence) {
      return;
    }
    if (e instanceof ApiError && e.status === 401) {
      token.clear();
      showSignIn(`The token is no longer accepted: ${e.detail || e.title}`);
      return;
    }
    state.failing = e instanceof ApiError ? `${e.title}${e.detail ? ' — ' + e.detail : ''}` : String(e);
  } finally {
    if (state.role && mine === sequence) {
      freshness();
      state.timer = setTimeout(refresh, again ? 0 : REFRESH_MS);
    }
  }
}

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const candidate = $('token').value.trim();
  $('token').value = '';
  if (candidate) {
    signIn(candidate);
  }
});
$('sign-out').addEventListener('click', () => {
  token.clear();
  showSignIn('The token was forgotten.');
});
let searchTimer;
$('search').addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    if ($('search').validity.valid) {
      state.search = $('search').value;
      state.page = 0;
      refresh();
    }
  }, 250);
});
$('problems-only').addEventListener('change', () => {
  state.problemsOnly = $('problems-only').checked;
  state.page = 0;
  refresh();
});
$('previous').addEventListener('click', () => {
  state.page = Math.max(0, state.page - 1);
  refresh();
});
$('next').addEventListener('click', () => {
  state.page = Math.min(state.pages - 1, state.page + 1);
  refresh();
});
setInterval(() => {
  refreshAges(document);
  if (state.role) freshness();
}, 1000);

if (token.get()) {
  signIn(token.get());
} else {
  showSignIn();
}
