// The runbook's buttons: every change first runs its dry run and shows the steps or the refusal, then asks for
// confirmation; the real call sends the If-Match of the slot as read when the dialog opened, so that a change made
// meanwhile by someone else is refused (412) instead of acted on.

import { api, ApiError } from './api.js';
import { h } from './dom.js';
import { bytes } from './format.js';

const $ = (id) => document.getElementById(id);

export function createActions({ onChanged }) {
  const dialog = $('action');
  const fields = $('action-fields');
  const plan = $('action-plan');
  const error = $('action-error');
  const confirm = $('action-confirm');
  let current = null;
  let returnFocus = null;

  $('action-cancel').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    current = null;
    const again = returnFocus && document.querySelector(`[data-focus="${CSS.escape(returnFocus)}"]`);
    if (again) again.focus();
  });
  confirm.addEventListener('click', () => current && current.confirm());

  function problem(e) {
    if (e instanceof ApiError) {
      return e.status ? `${e.title} (${e.status})${e.detail ? ': ' + e.detail : ''}` : `${e.title}: ${e.detail}`;
    }
    return String(e);
  }

  function showPlan(answer) {
    if (answer.wouldBeRefused) {
      const r = answer.refusal;
      plan.replaceChildren(h('p', { class: 'refusal' }, h('strong', {}, `Would be refused (${r.status})`), `: ${r.detail}`));
      return false;
    }
    plan.replaceChildren(h('p', {}, 'Dry run: nothing has changed yet. Confirming will:'),
      h('ol', { class: 'steps' }, answer.steps.map((s) => h('li', {}, s))));
    return true;
  }

  // One dialog for every action: prepare() reads and dry-runs, confirm() makes the change.
  function open({ title, focusKey, label, body = [], prepare, run, done, checkAtOnce = true }) {
    returnFocus = focusKey;
    $('action-title').textContent = title;
    fields.replaceChildren(...body);
    plan.replaceChildren(h('p', { class: 'muted' }, 'Checking what would be done…'));
    error.textContent = '';
    confirm.textContent = label;
    confirm.disabled = true;
    confirm.hidden = false;
    $('action-cancel').textContent = 'Cancel';
    const state = { context: null };
    const check = async () => {
      confirm.disabled = true;
      error.textContent = '';
      plan.replaceChildren(h('p', { class: 'muted' }, 'Checking what would be done…'));
      try {
        const { answer, context, note } = await prepare();
        if (current !== flow) return;
        state.context = context;
        confirm.disabled = !showPlan(answer);
        if (note && !answer.wouldBeRefused) {
          plan.append(h('p', { class: 'warning' }, note));
        }
      } catch (e) {
        if (current !== flow) return;
        plan.replaceChildren();
        error.textContent = problem(e);
      }
    };
    const flow = {
      check,
      confirm: async () => {
        confirm.disabled = true;
        error.textContent = '';
        try {
          const result = await run(state.context);
          plan.replaceChildren(h('p', { class: 'done' }, h('strong', {}, 'Done. '), done(result)));
          confirm.hidden = true;
          $('action-cancel').textContent = 'Close';
          onChanged();
        } catch (e) {
          error.textContent = problem(e);
          if (e instanceof ApiError && e.status === 412) {
            error.textContent += ' — the slot changed since this dialog read it: check again before confirming.';
          }
        }
      },
    };
    current = flow;
    dialog.showModal();
    if (checkAtOnce) {
      check();
    } else {
      plan.replaceChildren(h('p', { class: 'muted' }, 'Fill in the fields, then press Check to see what would be done.'));
    }
    return flow;
  }

  async function read(target, slot) {
    if (slot.missing) {
      return { etag: null, data: null };
    }
    return api.slot(target.name, slot.name);
  }

  // What a recreate costs the consumer: everything between where it was and where the new slot will start.
  function skippedNote(view) {
    const from = view && (view.confirmedFlushLsn || view.restartLsn);
    return `Skipped range: its consumer will never see the WAL from ${from || 'its last confirmed position (unknown)'}`
      + ' to where the new slot starts (known once it is created): re-snapshot what changed in it.';
  }

  function recreated(slot, result) {
    const skipped = result.skipped;
    const parts = [`${slot.name} was recreated at ${result.newSlot.confirmedFlushLsn || result.newSlot.restartLsn}.`];
    if (skipped) {
      parts.push(` Skipped WAL ${skipped.fromLsn || '?'} → ${skipped.toLsn}`
        + (skipped.bytes !== null ? ` (${bytes(skipped.bytes)})` : '') + ': its consumer will never see it.'
        + (skipped.note ? ` ${skipped.note}` : ''));
    }
    const resnapshot = result.resnapshot;
    if (resnapshot) {
      parts.push(resnapshot.signalId ? ` Re-snapshot: signal for ${resnapshot.collections.join(', ')}`
        : ` Re-snapshot not sent: ${resnapshot.notSentBecause}`);
      const skipped = resnapshot.tables ? resnapshot.tables.skipped : [];
      if (skipped.length) {
        parts.push(`; skipped as unchanged: ${skipped.map((table) => table.table).join(', ')}`);
      } else if (resnapshot.tables) {
        parts.push(` (${resnapshot.tables.why})`);
      }
      parts.push('.');
    }
    if (result.connector) {
      parts.push(` Connector: ${result.connector.running ? 'running' : 'not running'}`
        + (result.connector.warning ? ` — ${result.connector.warning}` : '') + '.');
    }
    return parts.join('');
  }

  // Recreate and drop: read the slot live for its tag, dry-run with it (force as ticked), then act with the same tag.
  function slotChange(verb, target, slot, { call, warning, note, done }) {
    let flow;
    const box = h('input', { type: 'checkbox', id: 'action-force', on: { change: () => flow.check() } });
    const force = h('label', { class: 'check', for: 'action-force' }, box,
      ' Force: act even if the slot is not lost, ending the session that holds it');
    flow = open({
      title: `${verb} slot ${slot.name} on ${target.name}`,
      focusKey: `${verb.toLowerCase()}:${target.name}/${slot.name}`,
      label: verb,
      body: [warning ? h('p', { class: 'warning' }, warning) : null, force].filter(Boolean),
      prepare: async () => {
        const live = await read(target, slot);
        const { data } = await call(target.name, slot.name, { dryRun: true, force: box.checked, ifMatch: live.etag });
        return { answer: data, context: live.etag, note: note && note(live.data) };
      },
      run: async (ifMatch) => (await call(target.name, slot.name, { dryRun: false, force: box.checked, ifMatch })).data,
      done,
    });
  }

  function recreate(target, slot) {
    slotChange('Recreate', target, slot, { call: api.recreate, note: skippedNote,
      done: (result) => recreated(slot, result) });
  }

  function drop(target, slot) {
    slotChange('Drop', target, slot, { call: api.drop,
      warning: 'Its consumer will not be able to stream again from this slot.', done: () => `${slot.name} was dropped.` });
  }

  function create(target) {
    let flow;
    const name = h('input', { id: 'create-name', required: true, maxlength: 63, pattern: '[a-z0-9_]+',
      autocomplete: 'off', spellcheck: 'false' });
    const type = h('select', { id: 'create-type' }, h('option', { value: 'logical' }, 'logical'),
      h('option', { value: 'physical' }, 'physical'));
    const plugin = h('input', { id: 'create-plugin', value: 'pgoutput', maxlength: 63, autocomplete: 'off' });
    const check = h('button', { type: 'button', on: { click: () => flow.check() } }, 'Check');
    const request = () => (type.value === 'physical' ? { name: name.value, type: 'physical' }
      : { name: name.value, type: 'logical', plugin: plugin.value || 'pgoutput' });
    [name, type, plugin].forEach((field) => field.addEventListener('input', () => {
      confirm.disabled = true;
      plan.replaceChildren(h('p', { class: 'muted' }, 'Press Check to see what would be done.'));
    }));
    flow = open({
      title: `Create a slot on ${target.name}`,
      focusKey: `create:${target.name}`,
      label: 'Create',
      checkAtOnce: false,
      body: [h('div', { class: 'form-row' }, h('label', { for: 'create-name' }, 'Name (a–z, 0–9, _)'), name),
        h('div', { class: 'form-row' }, h('label', { for: 'create-type' }, 'Type'), type),
        h('div', { class: 'form-row' }, h('label', { for: 'create-plugin' }, 'Output plugin (logical)'), plugin), check],
      prepare: async () => {
        if (!name.value) {
          throw new ApiError(0, 'A name is needed', 'type the new slot\'s name, then press Check');
        }
        const { data } = await api.create(target.name, request(), { dryRun: true });
        return { answer: data, context: request() };
      },
      run: async (body) => (await api.create(target.name, body, { dryRun: false })).data,
      done: (slot) => `${slot.slotName} was created (${slot.slotType}${slot.plugin ? ', ' + slot.plugin : ''}).`,
    });
  }

  function heartbeat(target) {
    open({
      title: `Send a heartbeat to ${target.name}`,
      focusKey: `heartbeat:${target.name}`,
      label: 'Send heartbeat',
      prepare: async () => ({ answer: (await api.heartbeat(target.name, { dryRun: true })).data, context: null }),
      run: async () => (await api.heartbeat(target.name, { dryRun: false })).data,
      done: (result) => `Heartbeat written at ${result.lsn} in ${result.durationMillis.toFixed(1)} ms.`,
    });
  }

  return { recreate, drop, create, heartbeat };
}
