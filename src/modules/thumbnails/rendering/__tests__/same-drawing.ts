/**
 * Expects two drawings of the same thing (pixel buffers of one size) to agree but for anti-aliasing:
 * moved or re-read coordinates round differently, and an edge's coverage may land one supersampling
 * step (a quarter of a pixel) apart. A part drawn in one and missing in the other differs far more.
 */
export function expectSameDrawing(drawn: Uint8Array, expected: Uint8Array): void {
  expect(drawn.length).toBe(expected.length);
  let differing = 0;
  let largest = 0;
  for (let i = 0; i < drawn.length; i++) {
    const difference = Math.abs(drawn[i] - expected[i]);
    if (difference > 0) differing++;
    largest = Math.max(largest, difference);
  }
  expect(largest).toBeLessThanOrEqual(64);
  expect(differing).toBeLessThan(drawn.length / 1000);
}
