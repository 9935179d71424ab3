import type { Page } from 'playwright-core';

/**
 * How many pixels of the chart's canvas are drawn in `rgb` (within a small tolerance, nearly
 * opaque): proof that a series was drawn, not just an empty frame with axes. Sent to the page as
 * text because this code runs in the browser, where the repo's Node-only types do not apply.
 */
export async function pixelsOfColor(page: Page, selector: string, [r, g, b]: readonly [number, number, number]): Promise<number> {
  const script = `(() => {
    const canvas = document.querySelector(${JSON.stringify(selector)});
    if (!(canvas instanceof HTMLCanvasElement)) return -1;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      const near = Math.abs(data[i] - ${r}) < 24 && Math.abs(data[i + 1] - ${g}) < 24 && Math.abs(data[i + 2] - ${b}) < 24;
      if (near && data[i + 3] > 200) n++;
    }
    return n;
  })()`;
  return page.evaluate<number>(script);
}
