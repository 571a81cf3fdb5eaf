// Reads the class board's QR code as a phone would: a screenshot of it, turned into pixels by Chromium, decoded by jsQR.
import jsqr from "jsqr";
import type { Browser, Page } from "playwright-core";

export async function decodeBoardQr(browser: Browser, page: Page): Promise<string | undefined> {
  const png = await page.locator("#qr svg").screenshot();
  const blank = await browser.newPage();
  try {
    const image = (await blank.evaluate(`(async () => {
      const img = new Image();
      img.src = "data:image/png;base64,${png.toString("base64")}";
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext("2d");
      ctx.drawImage(img, 0, 0);
      return { width: img.width, height: img.height, data: Array.from(ctx.getImageData(0, 0, img.width, img.height).data) };
    })()`)) as { width: number; height: number; data: number[] };
    // jsqr is CommonJS; its typings call the function `default`
    return jsqr.default(Uint8ClampedArray.from(image.data), image.width, image.height)?.data;
  } finally {
    await blank.close();
  }
}
