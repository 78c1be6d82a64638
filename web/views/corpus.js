// The stories' text: the first 4 MB of TinyStories fetched with a progress bar and kept for the next visit;
// when the download fails, a plain message and the two ways on (the module's built-in stories, a file).
import { el, button, showError } from '../widgets/ui.js';
import { CORPUS_BYTES } from '../page/corpus-text.js';

const MB = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const size = (bytes) => (bytes < 1e6 ? `${Math.round(bytes / 1e3)} KB` : MB(bytes));
// A file's own size, and how much of it is used when it is longer than the course's slice.
const sizeNote = (s) => `${size(s.size)}${s.size > CORPUS_BYTES ? ` (the first ${MB(CORPUS_BYTES)} used)` : ''}`;

function dropZone(onFile) {
  const picker = el('input', { type: 'file', accept: '.txt,text/plain', hidden: true, 'aria-label': 'story text file' });
  picker.addEventListener('change', () => onFile(picker.files[0]).finally(() => (picker.value = '')));
  const zone = el('div', { class: 'dropzone' }, 'Drop a .txt file of stories here, or ',
    button('choose a file…', () => picker.click()), picker);
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    if (e.dataTransfer.files.length) onFile(e.dataTransfer.files[0]);
  });
  return zone;
}

export default {
  id: 'C',
  key: 'C-corpus',
  title: 'The stories',
  text: 'The first 4,000,000 bytes of TinyStories (an HTTP Range request), lower-cased and split into words; ' +
    'the 2000 most common words plus <unk> and _ make the vocabulary.',
  mount(card, ctx) {
    const corpus = ctx.corpus;
    const act = (work) => card.busy(work, 'Preparing the text…');
    const fromFile = (file) => act(() => corpus.useFile(file));
    const builtin = () => act(() => corpus.useBuiltin());
    const render = () => {
      const s = corpus.state;
      card.node.dataset.corpus = s.status;
      if (s.status === 'fetching') {
        card.output.replaceChildren(el('p', {}, `Downloading the stories from ${s.url}`),
          el('progress', { max: s.expected, value: s.received, 'aria-label': 'download progress' }),
          el('span', { class: 'story-meta' }, ` ${MB(s.received)} of ${MB(s.expected)}`));
      } else if (s.status === 'ready') {
        card.output.replaceChildren(el('p', { class: 'ok' }, `Using ${s.label}: ${sizeNote(s)}${s.fromCache ? ' (kept from an earlier visit, not downloaded again)' : ''}.`),
          s.notSaved ? el('p', { class: 'notice error' }, s.notSaved) : '',
          el('div', { class: 'buttons' }, button('Download TinyStories again', () => corpus.fetch()),
            button('Use the built-in stories', builtin)), dropZone(fromFile));
      } else if (s.status === 'failed') {
        card.output.replaceChildren(el('div', { class: 'notice error', role: 'alert' }, s.error,
          ' You can go on without it: use the stories built into the lab, or a text file of your own.'),
          el('div', { class: 'buttons' }, button('Use the built-in stories', builtin, { class: 'primary' }),
            button('Try the download again', () => corpus.fetch())), dropZone(fromFile));
      }
    };
    corpus.addEventListener('change', render);
    render();
    corpus.load().catch((error) => showError(card.status, error));
  },
};
