// The page around garm's wasm build: choose a program, run it as N instances on this browser's
// WebGPU adapter, show each instance's output as it arrives. `?run=URL&args=A,B&instances=N&stdin=TEXT`
// starts a run at load; every output line (with `[i] ` when N > 1) and then `exit STATUS` also
// go to the console, so runs can be checked automatically.
import init, { adapter, run } from './pkg/garm_web.js';

const $ = id => document.getElementById(id);
const params = new URLSearchParams(location.search);

// The adapter as the browser names it (wgpu's WebGPU backend reports no name of its own).
async function adapterName() {
  const a = await navigator.gpu.requestAdapter();
  if (!a) return null;
  const i = a.info || {};
  return [i.vendor, i.architecture, i.device, i.description].filter(Boolean).join(' ') ||
    'an adapter with no name';
}

let adapterLabel = '';

function say(text, bad) {
  $('adapter').textContent = text;
  $('adapter').className = bad ? 'bad' : '';
}

async function demos() {
  try {
    const list = await (await fetch('demos/index.json')).json();
    for (const d of list) {
      const o = document.createElement('option');
      o.value = 'demos/' + d.file;
      o.textContent = d.name + (d.args ? ' ' + d.args : '');
      o.dataset.args = d.args || '';
      o.dataset.stdin = d.stdin || '';
      $('demo').append(o);
    }
  } catch (e) {
    console.warn('no demo list', e);
  }
  $('demo').onchange = () => {
    const o = $('demo').selectedOptions[0];
    if (o) { $('args').value = o.dataset.args; $('stdin').value = o.dataset.stdin; }
  };
  $('demo').onchange();
}

// Arguments as a shell splits them, for quotes at least: 'a b' and "a b" are one argument.
function splitArgs(text) {
  const out = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of text.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

function quoteArgs(args) {
  return args.map(a => (/^[^\s'"]+$/.test(a) ? a : /'/.test(a) ? `"${a}"` : `'${a}'`)).join(' ');
}

function instanceBox(i, n) {
  const box = document.createElement('div');
  box.className = 'inst';
  box.innerHTML = `<h2>${n > 1 ? 'instance ' + i : 'output'} <span></span></h2><pre></pre>`;
  $('outputs').append(box);
  return box;
}

async function start(url, name, args, instances, stdin) {
  $('go').disabled = true;
  $('outputs').textContent = '';
  $('files').textContent = '';
  $('summary').textContent = 'Running ' + name + '…';
  const n = Math.max(1, instances | 0);
  const boxes = Array.from({ length: n }, (_, i) => instanceBox(i, n));
  const partial = Array.from({ length: n }, () => ({ 1: '', 2: '' }));
  const decoders = Array.from({ length: n }, () => ({ 1: new TextDecoder(), 2: new TextDecoder() }));
  const prefix = i => (n > 1 ? `[${i}] ` : '');
  const statuses = [];
  try {
    const elf = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const result = await run(elf, name, args, n, new TextEncoder().encode(stdin), {
      output: (i, fd, bytes) => {
        const text = decoders[i][fd].decode(bytes, { stream: true });
        const span = document.createElement('span');
        if (fd === 2) span.className = 'err';
        span.textContent = text;
        boxes[i].querySelector('pre').append(span);
        const lines = (partial[i][fd] + text).split('\n');
        partial[i][fd] = lines.pop();
        for (const l of lines) console.log(prefix(i) + l);
      },
      exit: (i, status, insns) => {
        for (const fd of [1, 2]) {
          if (partial[i][fd]) console.log(prefix(i) + partial[i][fd]);
          partial[i][fd] = '';
        }
        statuses[i] = status;
        boxes[i].querySelector('h2 span').textContent =
          `exit ${status}, ${insns.toLocaleString()} instructions`;
        if (n > 1) console.log(`[${i}] exit ${status}`);
      },
      progress: (insns, secs) => {
        $('summary').textContent = `Running ${name}: ${insns.toLocaleString()} instructions, ` +
          `${secs.toFixed(1)} s`;
      },
    });
    const mips = result.instructions / Math.max(result.seconds, 1e-6) / 1e6;
    $('summary').textContent = `${name}: ${n} instance${n > 1 ? 's' : ''}, ` +
      `${result.instructions.toLocaleString()} instructions in ${result.seconds.toFixed(2)} s ` +
      `(${result.first_submit.toFixed(2)} s of it the first submit, with the shader's compile): ` +
      `${mips.toFixed(2)} M instructions/s on ${adapterLabel || result.adapter}`;
    for (const [path, bytes] of result.files) {
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([bytes]));
      a.download = path.split('/').pop();
      a.textContent = `${path} (${bytes.length} bytes)`;
      $('files').append('Files written: ', a, ' ');
    }
    const status = statuses.find(s => s !== 0) ?? 0;
    console.log(`exit ${status}`);
  } catch (e) {
    $('summary').textContent = 'garm: ' + e;
    $('summary').className = 'err';
    console.log('garm: ' + e);
    console.log('exit 125');
  }
  $('go').disabled = false;
}

async function main() {
  await demos();
  if (!navigator.gpu) {
    say('This browser has no WebGPU (navigator.gpu is missing): garm needs it to run programs.', true);
    console.log('garm: no WebGPU');
    return;
  }
  await init();
  try {
    adapterLabel = await adapterName();
    if (!adapterLabel) throw new Error('navigator.gpu.requestAdapter() gave none');
    await adapter(); // garm's own device on it
    say('WebGPU adapter: ' + adapterLabel);
  } catch (e) {
    say('WebGPU is here but gave no adapter: ' + e, true);
    console.log('garm: no WebGPU adapter: ' + e);
    return;
  }
  $('go').disabled = false;
  $('form').onsubmit = ev => {
    ev.preventDefault();
    const f = $('file').files[0];
    const url = f ? URL.createObjectURL(f) : $('demo').value;
    const name = f ? f.name : url.split('/').pop().replace(/\.elf$/, '');
    const args = splitArgs($('args').value);
    start(url, name, args, $('instances').value, $('stdin').value);
  };
  const url = params.get('run');
  if (url) {
    const target = new URL(url, location.href);
    if (target.origin !== location.origin) {
      console.log('garm: ?run= must name a file of this site');
      console.log('exit 125');
      return;
    }
    const args = params.get('args') ? params.get('args').split(',') : [];
    const n = parseInt(params.get('instances') || '1', 10);
    const stdin = params.get('stdin') || '';
    $('args').value = quoteArgs(args);
    $('instances').value = n;
    $('stdin').value = stdin;
    const name = target.pathname.split('/').pop().replace(/\.elf$/, '');
    for (const o of $('demo').options) if (new URL(o.value, location.href).href === target.href) o.selected = true;
    await start(target.href, name, args, n, stdin);
  }
}

main();
