// Calls slot-keeper's API with the tab's token in the Authorization header; answers problems as ApiError.

const TOKEN_KEY = 'slotkeeper.token';

export class ApiError extends Error {
  constructor(status, title, detail, type) {
    super(detail || title || `HTTP ${status}`);
    this.status = status;
    this.title = title || `HTTP ${status}`;
    this.detail = detail || '';
    this.type = type || '';
  }
}

export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (value) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

const path = (...parts) => '/api/v1/' + parts.map(encodeURIComponent).join('/');

export async function call(method, url, { body, ifMatch, bearer = token.get() } = {}) {
  const headers = { Accept: 'application/json, application/problem+json' };
  if (bearer) {
    headers.Authorization = `Bearer ${bearer}`;
  }
  if (ifMatch) {
    headers['If-Match'] = ifMatch;
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store', credentials: 'omit', redirect: 'error' });
  } catch (e) {
    throw new ApiError(0, 'slot-keeper is unreachable', String(e.message || e));
  }
  const type = response.headers.get('Content-Type') || '';
  const data = (response.status === 204 || !type.includes('json')) ? null : await response.json();
  if (!response.ok) {
    throw new ApiError(response.status, data && data.title, data && data.detail, data && data.type);
  }
  return { data, etag: response.headers.get('ETag') };
}

export const api = {
  me: (bearer) => call('GET', path('me'), { bearer }),
  overview: (query) => call('GET', '/api/v1/overview?' + new URLSearchParams(query)),
  audit: () => call('GET', path('audit')),
  slot: (target, slot) => call('GET', path('targets', target, 'slots', slot)),
  recreate: (target, slot, { dryRun, force, ifMatch }) =>
    call('POST', `${path('targets', target, 'slots', slot, 'recreate')}?dryRun=${dryRun}&force=${force}`, { ifMatch }),
  drop: (target, slot, { dryRun, force, ifMatch }) =>
    call('DELETE', `${path('targets', target, 'slots', slot)}?dryRun=${dryRun}&force=${force}`, { ifMatch }),
  create: (target, request, { dryRun }) =>
    call('POST', `${path('targets', target, 'slots')}?dryRun=${dryRun}`, { body: request }),
  heartbeat: (target, { dryRun }) => call('POST', `${path('targets', target, 'heartbeat')}?dryRun=${dryRun}`),
};
