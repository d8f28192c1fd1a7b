// Numbers and times in the words an on-call engineer reads.

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

export function bytes(value) {
  if (value === null || value === undefined) {
    return '–';
  }
  let amount = Number(value);
  let unit = 0;
  while (Math.abs(amount) >= 1024 && unit < UNITS.length - 1) {
    amount /= 1024;
    unit += 1;
  }
  return `${amount >= 100 || unit === 0 ? Math.round(amount) : amount.toFixed(1)} ${UNITS[unit]}`;
}

export function seconds(value) {
  if (value === null || value === undefined) {
    return '–';
  }
  const s = Math.max(0, Math.round(value));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} d`;
}

export function age(iso, now = Date.now()) {
  if (!iso) {
    return 'never';
  }
  return `${seconds((now - Date.parse(iso)) / 1000)} ago`;
}

export function isoDuration(iso) {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(iso || '');
  if (!match) {
    return iso || '–';
  }
  return seconds((Number(match[1] || 0) * 3600) + (Number(match[2] || 0) * 60) + Number(match[3] || 0));
}

export function clock(iso) {
  return iso ? new Date(iso).toLocaleTimeString([], { hour12: false }) : '–';
}
