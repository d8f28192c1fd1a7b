// Draws the overview: one card per target, its slots as a table. Cards are keyed by target and only replaced when
// their data changed, so a refresh neither flickers nor moves the reader's place or focus.

import { h } from './dom.js';
import { bytes, seconds, age, isoDuration, clock } from './format.js';
import { sparkline } from './chart.js';

const SEVERITY = {
  down: ['✕', 'Down'], warning: ['▲', 'Warning'], unknown: ['?', 'Unknown'], ok: ['✓', 'OK'],
};

const WAL = {
  reserved: ['✓', 'reserved'], extended: ['●', 'extended'], unreserved: ['▲', 'unreserved'], lost: ['✕', 'lost'],
};

function badge(kind, [symbol, text], extra = '') {
  return h('span', { class: `badge ${kind}` }, h('span', { 'aria-hidden': 'true' }, symbol), ` ${text}${extra}`);
}

export function severityBadge(severity) {
  return badge(`sev-${severity}`, SEVERITY[severity] || SEVERITY.unknown);
}

function walBadge(slot) {
  if (slot.missing) {
    return badge('wal-lost', ['?', 'missing']);
  }
  return slot.walStatus ? badge(`wal-${slot.walStatus}`, WAL[slot.walStatus] || ['?', slot.walStatus])
    : h('span', { class: 'muted' }, '–');
}

// A slot no consumer reads: how long its consumer has been gone and what it has left at the server's WAL rate.
function budget(b) {
  if (!b) {
    return null;
  }
  let left = '';
  if (b.safeWalSizeBytes === null || b.safeWalSizeBytes === undefined) {
    left = ' · no WAL limit: it keeps WAL until the disk is full';
  } else if (b.secondsLeft !== null && b.secondsLeft !== undefined) {
    left = ` · lost in ${seconds(b.secondsLeft)} at ${bytes(b.walBytesPerSecond)}/s`;
  }
  return h('div', { class: 'budget muted' }, `consumer gone ${seconds(b.goneSeconds)}${left}`);
}

// A slot slot-keeper recreated: which epoch it is in, since when, and where the previous one's consumer was.
function lineage(l) {
  if (!l || l.epoch <= 1) {
    return null;
  }
  const from = l.previousConfirmedFlushLsn ? ` · previous at ${l.previousConfirmedFlushLsn}` : '';
  const r = l.resnapshot;
  const resnapshot = r ? ` · re-snapshot of ${r.read.length ? r.read.join(', ') : 'no table'}`
    + (r.skipped.length ? `, ${r.skipped.length} skipped as unchanged (${r.skipped.join(', ')})` : '') : '';
  return h('div', { class: 'lineage muted', title: `recreated at ${l.recreatedAt}` },
    `epoch ${l.epoch} · recreated ${age(l.recreatedAt)}${from}${resnapshot}`);
}

// The rows deleted while the previous epoch's slot was lost: a re-snapshot re-reads rows that exist, never these;
// exact where the slot's gap journal read them, else the table counters' estimate, said which.
function gapDeletes(l) {
  const d = l && l.epoch > 1 ? l.deletesInGap : null;
  if (!d) {
    return null;
  }
  if (d.unknownBecause) {
    return h('div', { class: 'gap-deletes warning' }, `deletes in the gap unknown: ${d.unknownBecause}`);
  }
  const counted = Object.entries(d.tables).map(([table, n]) => `${table} ${n}`);
  const unknown = Object.keys(d.unknown);
  if (!counted.length && !unknown.length) {
    return null;
  }
  const how = d.source === 'exact' ? 'exactly, from the gap journal' : 'estimated from the table counters';
  return h('div', { class: 'gap-deletes warning', title: d.measured || '' },
    (counted.length ? `deleted while lost (${how}), still in an upserting consumer: ${counted.join(', ')}` : '')
    + (unknown.length ? `${counted.length ? ' · ' : ''}deletes unknown: ${unknown.join(', ')}` : ''));
}

// What the gap journal read of the previous epoch's gap, per table: what the re-read had to fetch, and what it could not.
function gapChanges(l) {
  const changes = l && l.epoch > 1 && l.deletesInGap ? l.deletesInGap.changes || {} : {};
  const tables = Object.entries(changes).map(([table, c]) => `${table} ${[
    c.inserted ? `${c.inserted} inserted` : '', c.updated ? `${c.updated} updated` : '',
    c.deleted ? `${c.deleted} deleted` : '', c.truncated ? `truncated ${c.truncated}×` : '',
  ].filter((part) => part).join(', ') || 'no change'}`);
  return tables.length
    ? h('div', { class: 'gap-changes muted' }, `changed while lost (exactly, from the gap journal): ${tables.join('; ')}`)
    : null;
}

// While the consumer is away: what its gap journal has read, or why it has none though it should.
function gapJournal(j) {
  if (!j) {
    return null;
  }
  return h('div', { class: j.startsWith('not journaled') ? 'gap-journal warning' : 'gap-journal muted' },
    `gap journal: ${j}`);
}

// What became of the gap's deletes, truncates and outbox events signalled to the Debezium extension: delivered
// only where the extension acknowledged them.
function gapDelivery(d) {
  if (!d) {
    return null;
  }
  return h('div', { class: d.startsWith('delivered') ? 'gap-delivery muted' : 'gap-delivery warning' },
    `gap delivery: ${d}`);
}

const time = (iso) => h('time', { datetime: iso || '', 'data-at': iso || '' }, age(iso));

function retained(slot) {
  if (slot.retainedWalBytes === null || slot.retainedWalBytes === undefined) {
    return h('span', { class: 'muted' }, slot.missing ? 'not on the primary' : '–');
  }
  if (slot.safeWalSizeBytes === null || slot.safeWalSizeBytes === undefined) {
    return h('span', {}, bytes(slot.retainedWalBytes), h('span', { class: 'muted' }, ' (no limit)'));
  }
  const limit = slot.retainedWalBytes + Math.max(0, slot.safeWalSizeBytes);
  return h('div', { class: 'retained' },
    h('meter', { min: 0, max: limit, value: slot.retainedWalBytes, low: limit * 0.5, high: limit * 0.8, optimum: 0,
      'aria-label': `${slot.name}: ${bytes(slot.retainedWalBytes)} retained of ${bytes(limit)} before loss` }),
    h('span', {}, `${bytes(slot.retainedWalBytes)} of ${bytes(limit)}`));
}

function connector(slot) {
  const c = slot.connector;
  if (!c) {
    return h('span', { class: 'muted' }, '–');
  }
  const state = c.running ? badge('sev-ok', ['✓', 'RUNNING'])
    : badge(c.state === 'FAILED' || /FAILED/.test(c.summary || '') ? 'sev-down' : 'sev-warning',
      ['▲', c.state || 'unknown']);
  return h('div', { class: 'connector' }, h('span', { class: 'name' }, c.name), ' ', state,
    c.discovered ? ' ' : null,
    c.discovered ? h('span', { class: 'muted discovered', title: 'found in Kafka Connect or a Strimzi resource' },
      'discovered') : null,
    c.running ? null : h('div', { class: 'trace' }, c.summary || ''));
}

function failover(slot) {
  if (slot.failoverReady === true) {
    return badge('sev-ok', ['✓', 'ready']);
  }
  if (slot.failoverReady === false) {
    return h('div', {}, badge('sev-warning', ['▲', 'not ready']), h('div', { class: 'trace' }, slot.failoverReason));
  }
  return h('span', { class: 'muted' }, slot.failoverReason || '–');
}

function slotRow(target, slot, role, actions) {
  const key = `${target.name}/${slot.name}`;
  const buttons = role === 'operator' ? h('td', { class: 'actions' },
    h('button', { type: 'button', 'data-focus': `recreate:${key}`, 'aria-label': `Recreate slot ${slot.name} on ${target.name}`,
      on: { click: () => actions.recreate(target, slot) } }, 'Recreate'),
    slot.missing ? null : h('button', { type: 'button', class: 'danger', 'data-focus': `drop:${key}`,
      'aria-label': `Drop slot ${slot.name} on ${target.name}`, on: { click: () => actions.drop(target, slot) } },
    'Drop')) : null;
  return h('tr', { class: `slot sev-${slot.severity}`, 'data-slot': slot.name },
    h('th', { scope: 'row' }, h('span', { class: 'name' }, slot.name),
      h('div', { class: 'muted' }, [slot.slotType, slot.database, slot.plugin].filter(Boolean).join(' · ')),
      lineage(slot.lineage), gapChanges(slot.lineage), gapDeletes(slot.lineage), gapJournal(slot.gapJournal),
      gapDelivery(slot.gapDelivery)),
    h('td', {}, walBadge(slot)),
    h('td', {}, retained(slot)),
    h('td', {}, slot.secondsToLoss === null || slot.secondsToLoss === undefined ? h('span', { class: 'muted' }, '–')
      : seconds(slot.secondsToLoss), budget(slot.budget)),
    h('td', { class: 'diagnosis' }, slot.problems.length ? h('ul', {}, slot.problems.map((p) => h('li', {}, p)))
      : (slot.diagnosis || '–')),
    h('td', {}, connector(slot)),
    h('td', {}, failover(slot)),
    h('td', {}, sparkline(slot.history, slot.name, slot.budget)),
    buttons);
}

function fact(name, ...value) {
  return h('div', { class: 'fact' }, h('dt', {}, name), h('dd', {}, ...value));
}

function signed(element, value) {
  element.dataset.signature = JSON.stringify(value);
  return element;
}

function targetCard(target, role, actions, instance) {
  const hb = target.heartbeat;
  const id = `target-${target.name}`;
  const owner = hb.owner === true ? `this instance (${instance})` : hb.owner === false ? 'another instance' : '–';
  const { slots: slotList, problems: problemList, settings: settingList = [], ...own } = target;
  const head = signed(h('header', { class: 'target-head', 'data-part': 'head' },
    h('h2', { id }, target.name), ' ', severityBadge(target.severity),
    h('dl', { class: 'facts' },
      fact('Heartbeat', hb.enabled ? `${hb.health} · ${hb.mode} every ${isoDuration(hb.interval)}` : 'disabled'),
      fact('Last beat', time(hb.lastSuccessAt)),
      fact('Owner', owner),
      fact('Server', target.serverVersion || '–'),
      fact('Last failover', target.lastFailoverAt ? time(target.lastFailoverAt) : '–'),
      fact('Slots read', time(target.slotsReadAt))),
    role === 'operator' ? h('div', { class: 'actions' },
      hb.enabled ? h('button', { type: 'button', 'data-focus': `heartbeat:${target.name}`,
        'aria-label': `Send a heartbeat to ${target.name}`, on: { click: () => actions.heartbeat(target) } },
      'Send heartbeat') : null,
      h('button', { type: 'button', 'data-focus': `create:${target.name}`, 'aria-label': `Create a slot on ${target.name}`,
        on: { click: () => actions.create(target) } }, 'Create slot')) : null), [own, role, instance]);
  const problems = signed(problemList.length
    ? h('ul', { class: 'problems', 'data-part': 'problems', 'aria-label': `Problems of ${target.name}` },
      problemList.map((p) => h('li', {}, p)))
    : h('div', { 'data-part': 'problems' }), problemList);
  // The server's settings that will lose a slot or fill the disk: said apart from the problems, as they are the
  // server owner's to change and do not make the target itself DOWN or WARNING.
  const settings = signed(settingList.length
    ? h('ul', { class: 'settings', 'data-part': 'settings', 'aria-label': `Server settings of ${target.name}` },
      settingList.map((f) => h('li', { class: `setting-${f.severity}` },
        h('span', { class: 'setting-severity' }, f.severity), ' ', h('code', {}, `${f.setting} = ${f.value}`),
        `: ${f.message}`)))
    : h('div', { 'data-part': 'settings' }), settingList);
  const slots = slotList.length === 0 ? signed(h('p', { class: 'muted', 'data-part': 'slots' }, 'No slots on the primary.'), [])
    : signed(h('table', { class: 'slots', 'data-part': 'slots' },
      h('caption', { class: 'visually-hidden' }, `Slots of ${target.name}`),
      h('thead', {}, h('tr', {}, ['Slot', 'WAL status', 'Retained WAL', 'Time to loss', 'Diagnosis', 'Connector',
        'Failover', 'Last hour', role === 'operator' ? 'Actions' : null].filter(Boolean)
        .map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, slotList.map((slot) => signed(slotRow(target, slot, role, actions), [slot, role])))),
    [role, slotList]);
  return h('article', { class: `target sev-${target.severity}`, 'data-target': target.name, 'aria-labelledby': id },
    head, problems, settings, slots);
}

// Puts fresh's children into container in order, keeping each existing child whose signature did not change, so
// that only what changed is laid out again; children that changed are patched (when patch says how) or replaced.
function reconcile(container, fresh, key, patch) {
  const existing = new Map([...container.children].map((child) => [key(child), child]));
  const wanted = new Set();
  fresh.forEach((child, index) => {
    wanted.add(key(child));
    let node = existing.get(key(child));
    if (!node) {
      node = child;
    } else if (node.dataset.signature !== child.dataset.signature) {
      if (!(patch && patch(node, child))) {
        node.replaceWith(child);
        node = child;
      }
    }
    if (container.children[index] !== node) {
      container.insertBefore(node, container.children[index] || null);
    }
  });
  [...container.children].forEach((child) => {
    if (!wanted.has(key(child))) child.remove();
  });
}

function patchPart(old, fresh) {
  if (old.dataset.part !== 'slots' || old.tagName !== 'TABLE' || fresh.tagName !== 'TABLE'
    || old.tHead.textContent !== fresh.tHead.textContent) {
    return false;
  }
  reconcile(old.tBodies[0], [...fresh.tBodies[0].children], (row) => row.dataset.slot);
  old.dataset.signature = fresh.dataset.signature;
  return true;
}

function patchCard(old, fresh) {
  old.className = fresh.className;
  old.dataset.signature = fresh.dataset.signature;
  reconcile(old, [...fresh.children], (part) => part.dataset.part, patchPart);
  return true;
}

export function renderTargets(container, targets, role, actions, instance) {
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.focus : undefined;
  const shown = new Map([...container.children].map((card) => [card.dataset.target, card]));
  // A card whose data did not change is not even built again.
  const cards = targets.map((target) => {
    const signature = JSON.stringify([target, role, instance]);
    const existing = shown.get(target.name);
    const card = (existing && existing.dataset.signature === signature) ? existing
      : targetCard(target, role, actions, instance);
    card.dataset.signature = signature;
    return card;
  });
  reconcile(container, cards, (card) => card.dataset.target, patchCard);
  if (focused && (!document.activeElement || document.activeElement === document.body)) {
    const again = container.querySelector(`[data-focus="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
}

export function refreshAges(root) {
  const now = Date.now();
  root.querySelectorAll('time[data-at]').forEach((t) => {
    const text = age(t.dataset.at, now);
    if (t.textContent !== text) t.textContent = text;
  });
}

export function renderSummary(container, overview) {
  const c = overview.counts;
  container.replaceChildren(
    h('div', { class: 'count' }, h('strong', {}, c.targets), ' targets'),
    h('div', { class: `count ${c.targetsDown ? 'sev-down' : ''}` }, h('strong', {}, c.targetsDown), ' down'),
    h('div', { class: `count ${c.targetsWarning ? 'sev-warning' : ''}` }, h('strong', {}, c.targetsWarning), ' warning'),
    h('div', { class: 'count' }, h('strong', {}, c.slots), ' slots'),
    h('div', { class: `count ${c.slotsDown ? 'sev-down' : ''}` }, h('strong', {}, c.slotsDown), ' slots down'),
    h('div', { class: `count ${c.slotsWarning ? 'sev-warning' : ''}` }, h('strong', {}, c.slotsWarning),
      ' slots warning'));
}

export function renderAudit(tbody, entries) {
  const rows = entries.slice(0, 15);
  const signature = JSON.stringify(rows);
  if (tbody.dataset.signature === signature) {
    return;
  }
  tbody.dataset.signature = signature;
  tbody.replaceChildren(...(rows.length ? rows.map((e) => h('tr', { class: `outcome-${e.outcome}` },
    h('td', {}, h('time', { datetime: e.at }, clock(e.at))), h('td', {}, e.actor), h('td', {}, e.action),
    h('td', {}, e.target || '–'), h('td', {}, e.slot || '–'), h('td', {}, `${e.outcome} (${e.status})`),
    h('td', {}, auditDetail(e)))) : [h('tr', {}, h('td', { colspan: 7, class: 'muted' }, 'Nothing changed yet.'))]));
}

// A heal's re-snapshot (which tables, which were skipped as unchanged) is in its LSNs, not its detail.
function auditDetail(entry) {
  const resnapshot = entry.lsns && entry.lsns.resnapshot;
  return [entry.detail, resnapshot ? `re-snapshot: ${resnapshot}` : null].filter(Boolean).join(' · ');
}
