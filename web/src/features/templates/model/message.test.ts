import { describe, expect, it } from 'vitest';
import { versionText } from './content.ts';
import { canonicalTag, sameMessage, toContentInput, toMessageForm } from './message.ts';

describe('a message in the editor', () => {
  const saved = {
    subject: 'Hi',
    format: 'mjml' as const,
    body: '<html>compiled</html>',
    content: '<mjml></mjml>',
    translations: { de: { subject: 'Hallo' }, fr: { content: '<mjml>fr</mjml>' } },
  };

  it('opens an answer and gives back the same request fields, the layout only when one was chosen', () => {
    const form = toMessageForm(saved);
    expect(form.layoutId).toBeUndefined();
    expect(form.translations.map((t) => [t.tag, t.source !== null])).toEqual([
      ['de', false],
      ['fr', true],
    ]);
    expect(toContentInput(form)).toEqual({
      subject: 'Hi',
      format: 'mjml',
      content: '<mjml></mjml>',
      translations: { de: { subject: 'Hallo' }, fr: { content: '<mjml>fr</mjml>' } },
    });
    expect(toContentInput(toMessageForm({ ...saved, layoutId: null })).layoutId).toBeNull();
    expect(sameMessage(form, toMessageForm(saved))).toBe(true);
  });

  it('is the same message whatever order the database gives an object its keys in', () => {
    const blocks = (block: object) =>
      toMessageForm({ ...saved, format: 'blocks', content: { version: 1, blocks: [block] } });
    const sent = blocks({ id: 'b1', type: 'heading', text: 'Hi', level: 1 });
    expect(sameMessage(sent, blocks({ level: 1, id: 'b1', text: 'Hi', type: 'heading' }))).toBe(true);
    expect(sameMessage(sent, blocks({ id: 'b1', type: 'heading', text: 'Hello', level: 1 }))).toBe(false);
  });

  it('writes language tags canonically and refuses what is not one', () => {
    expect(canonicalTag('pt-br')).toBe('pt-BR');
    expect(canonicalTag(' de ')).toBe('de');
    expect(canonicalTag('not a tag')).toBeNull();
  });

  it('compares versions by a text of their subject, layout, source and translations', () => {
    const text = versionText({ ...saved, from: 'a@x.test', fromName: 'A', replyTo: null });
    expect(text).toBe(
      'Subject: Hi\nFrom: A <a@x.test>\nLayout: project default\n\n<mjml></mjml>\n\n' +
        '--- Translation de ---\nSubject: Hallo\n\n--- Translation fr ---\n<mjml>fr</mjml>\n',
    );
  });
});
