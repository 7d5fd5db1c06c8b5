import { describe, expect, it } from 'vitest';
import { withoutRemoteStyles } from './remote-styles.ts';

describe('withoutRemoteStyles', () => {
  it("drops MJML's web font link and import, and keeps the message's own styles", () => {
    const font = 'https://fonts.googleapis.com/css?family=Ubuntu:300,400,500,700';
    const html =
      `<head><link href="${font}" rel="stylesheet" type="text/css">` +
      `<style type="text/css">@import url(${font});\np { color: red }</style></head>`;
    expect(withoutRemoteStyles(html)).toEqual({
      html: '<head><style type="text/css">\np { color: red }</style></head>',
      removed: true,
    });
    expect(withoutRemoteStyles('<p>plain</p>')).toEqual({ html: '<p>plain</p>', removed: false });
  });
});
