/**
 * The test browser renders WebGL2 (in software, SwiftShader), which the viewer needs: a canvas's
 * webgl2 context clears to a colour, compiles a shader pair, draws a triangle, and reads the
 * pixels back.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';

/** runs in the page: clear to (0.2, 0.4, 0.6), draw an orange triangle over the lower left half */
const RENDER = `(() => {
  const canvas = document.createElement('canvas');
  canvas.width = 64; canvas.height = 64;
  document.body.appendChild(canvas);
  const gl = canvas.getContext('webgl2', { antialias: false, preserveDrawingBuffer: true });
  if (gl === null) return { context: false };
  const shader = (type, source) => {
    const s = gl.createShader(type);
    gl.shaderSource(s, source); gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    return s;
  };
  const program = gl.createProgram();
  gl.attachShader(program, shader(gl.VERTEX_SHADER,
    '#version 300 es\\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }'));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER,
    '#version 300 es\\nprecision highp float; out vec4 c; void main() { c = vec4(1.0, 0.5, 0.0, 1.0); }'));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program));
  gl.viewport(0, 0, 64, 64);
  gl.clearColor(0.2, 0.4, 0.6, 1.0);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.useProgram(program);
  const buffer = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1]), gl.STATIC_DRAW);
  const at = gl.getAttribLocation(program, 'p');
  gl.enableVertexAttribArray(at);
  gl.vertexAttribPointer(at, 2, gl.FLOAT, false, 0, 0);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  const pixel = (x, y) => {
    const px = new Uint8Array(4);
    gl.readPixels(x, y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return Array.from(px);
  };
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
  return { context: true, renderer, error: gl.getError(), drawn: pixel(8, 8), cleared: pixel(56, 56) };
})()`;

describe('WebGL2 in the test browser', () => {
  let browser: Browser | null = null;
  beforeAll(async () => { browser = await launchChromium(); }, 120_000);
  afterAll(async () => { await browser?.close(); });

  it('clears, draws a triangle and reads the pixels back', async () => {
    const page = await browser!.newPage();
    await page.setContent('<!doctype html><body></body>');
    const r = (await page.evaluate(RENDER)) as { context: boolean; renderer?: string; error?: number;
      drawn?: number[]; cleared?: number[] };
    expect(r.context).toBe(true);
    expect(r.error).toBe(0);
    // 0.2, 0.4, 0.6 are 51, 102, 153 of 255; the triangle's 0.5 is 127 or 128
    expect(r.cleared).toEqual([51, 102, 153, 255]);
    expect(r.drawn![0]).toBe(255);
    expect(Math.abs(r.drawn![1]! - 127.5)).toBeLessThanOrEqual(0.5);
    expect(r.drawn!.slice(2)).toEqual([0, 255]);
    console.log(`WebGL2 renderer: ${r.renderer}`);
  });
});
